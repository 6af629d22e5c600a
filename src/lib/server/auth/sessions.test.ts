import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '#db/schema.ts';
import { db } from '../db.ts';
import { createSession, invalidateSession, invalidateUserSessions, SESSION_LIFETIME_MS, sessionCookieAttributes, validateSessionToken } from './sessions.ts';

let userId: number;
beforeAll(() => {
  userId = db
    .insert(users)
    .values({ email: `session-test-${Date.now()}@example.com`, firstName: 'Ana' })
    .returning()
    .get().id;
});

const flip = (char: string) => (char === 'a' ? 'b' : 'a');

describe('sessions', () => {
  it('stores only the id and the hash of the secret', () => {
    const { token, session } = createSession(userId);
    const [id, secret] = token.split('.');
    expect(id).toBe(session.id);
    const row = db.select().from(sessions).where(eq(sessions.id, session.id)).get()!;
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('accepts its token and returns the user', () => {
    const { token } = createSession(userId);
    const result = validateSessionToken(token);
    expect(result?.user).toMatchObject({ id: userId, firstName: 'Ana', role: 'client' });
    expect(result?.refreshed).toBe(false);
  });

  it('refuses a wrong secret of the right length, a forged id, and malformed tokens', () => {
    const { token } = createSession(userId);
    const [id, secret] = token.split('.') as [string, string];
    expect(validateSessionToken(`${id}.${flip(secret[0]!)}${secret.slice(1)}`)).toBeNull();
    expect(validateSessionToken(`${flip(id[0]!)}${id.slice(1)}.${secret}`)).toBeNull();
    for (const bad of [undefined, '', id, `${id}.`, `${id}.${secret}x`, `${id}.${secret.slice(1)}`, token.toUpperCase(), `${id}.${secret}.extra`]) {
      expect(validateSessionToken(bad), String(bad)).toBeNull();
    }
  });

  it('slides the expiry once half the lifetime has passed, and expires after it', () => {
    const start = Date.now();
    const { token } = createSession(userId, start);
    expect(validateSessionToken(token, start + SESSION_LIFETIME_MS / 4)?.refreshed).toBe(false);
    const later = start + SESSION_LIFETIME_MS * 0.75;
    const refreshed = validateSessionToken(token, later)!;
    expect(refreshed.refreshed).toBe(true);
    expect(refreshed.session.expiresAt.getTime()).toBe(later + SESSION_LIFETIME_MS);
    // Past the new expiry it is gone, and stays gone.
    const afterExpiry = later + SESSION_LIFETIME_MS + 1;
    expect(validateSessionToken(token, afterExpiry)).toBeNull();
    expect(validateSessionToken(token, later)).toBeNull();
  });

  it('stops working once invalidated, alone or with all of a user’s sessions', () => {
    const one = createSession(userId);
    invalidateSession(one.session.id);
    expect(validateSessionToken(one.token)).toBeNull();
    const a = createSession(userId);
    const b = createSession(userId);
    invalidateUserSessions(userId);
    expect(validateSessionToken(a.token)).toBeNull();
    expect(validateSessionToken(b.token)).toBeNull();
  });
});

describe('the session cookie', () => {
  it('is __Host-, Secure, HttpOnly and SameSite=Lax in production', () => {
    const expires = new Date('2026-12-01T00:00:00Z');
    expect(sessionCookieAttributes(expires, { secure: true })).toEqual({ httpOnly: true, sameSite: 'lax', secure: true, path: '/', expires });
  });

  it('drops Secure and the prefix over plain http (local development)', () => {
    expect(sessionCookieAttributes(new Date(), { secure: false }).secure).toBe(false);
  });
});
