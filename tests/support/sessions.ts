// Test fixture: a user with a live session, made directly in the database the
// way src/lib/server/auth/sessions.ts makes them, so tests of signed-in screens do
// not depend on the e-mail round trip (tests/e2e/auth.spec.ts covers that).
import type { BrowserContext } from '@playwright/test';
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { baseURL, databasePath } from './env.ts';

const base32 = (bytes: Buffer) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + alphabet[(value << (5 - bits)) & 31] : out;
};

export interface TestUser {
  id: number;
  email: string;
  token: string;
}

export function createSignedInUser(fields: { firstName?: string; lastName?: string; role?: 'client' | 'owner' | 'admin' } = {}): TestUser {
  const email = `user-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const db = new Database(databasePath);
  try {
    const user = db
      .prepare('insert into users (email, first_name, last_name, role) values (?, ?, ?, ?) returning id')
      .get(email, fields.firstName ?? null, fields.lastName ?? null, fields.role ?? 'client') as { id: number };
    const id = base32(randomBytes(15));
    const secret = base32(randomBytes(20));
    db.prepare('insert into sessions (id, secret_hash, user_id, expires_at) values (?, ?, ?, ?)').run(
      id,
      createHash('sha256').update(secret).digest('hex'),
      user.id,
      Date.now() + 86_400_000,
    );
    return { id: user.id, email, token: `${id}.${secret}` };
  } finally {
    db.close();
  }
}

/** Puts the session (and the signed-in hint) into a browser context. */
export async function signIn(context: BrowserContext, user: TestUser): Promise<void> {
  await context.addCookies([
    { name: 'session', value: user.token, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'signed_in', value: '1', url: baseURL, sameSite: 'Lax' },
  ]);
}
