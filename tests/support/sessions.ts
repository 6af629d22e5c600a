// Test fixture: a user with a live session, made directly in the database the
// way src/lib/server/auth/sessions.ts makes them, so tests of signed-in screens do
// not depend on the e-mail round trip (tests/e2e/auth.spec.ts covers that).
import type { BrowserContext } from '@playwright/test';
import { hashToken, randomToken } from '#lib/server/auth/tokens.ts';
import { withDatabase } from './database.ts';
import { baseURL, databasePath } from './env.ts';

export interface TestUser {
  id: number;
  email: string;
  token: string;
}

/** `path`: another server's database (a test's own server, tests/support/server-copy.ts). */
export function createSignedInUser(fields: { firstName?: string; lastName?: string; role?: 'client' | 'owner' | 'admin' } = {}, path = databasePath): TestUser {
  const email = `user-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  return withDatabase(
    path,
    (db) => {
      const user = db
        .prepare('insert into users (email, first_name, last_name, role) values (?, ?, ?, ?) returning id')
        .get(email, fields.firstName ?? null, fields.lastName ?? null, fields.role ?? 'client') as { id: number };
      // The sizes createSession uses (src/lib/server/auth/sessions.ts): the server checks the token's shape.
      const id = randomToken(15);
      const secret = randomToken(20);
      db.prepare('insert into sessions (id, secret_hash, user_id, expires_at) values (?, ?, ?, ?)').run(
        id,
        hashToken(secret),
        user.id,
        Date.now() + 86_400_000,
      );
      return { id: user.id, email, token: `${id}.${secret}` };
    },
    { write: true },
  );
}

/** Puts the session (and the signed-in hint) into a browser context. */
export async function signIn(context: BrowserContext, user: TestUser): Promise<void> {
  await context.addCookies([
    { name: 'session', value: user.token, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'signed_in', value: '1', url: baseURL, sameSite: 'Lax' },
  ]);
}
