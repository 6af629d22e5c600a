// Sessions, after Lucia's guide: the cookie carries "<id>.<secret>", the table
// the id and the secret's SHA-256. Validation compares the hash in constant
// time, slides the expiry forward when half of it has passed, and a session can
// be revoked by deleting its row.
import { eq } from 'drizzle-orm';
import { sessions, users } from '#db/schema.ts';
import { db } from '../db.ts';
import { hashToken, randomToken, tokenMatchesHash } from './tokens.ts';

export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
const REFRESH_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;
// 15 bytes -> 24 base32 characters each: 120 bits for the id, 160 for the secret.
const ID_BYTES = 15;
const SECRET_BYTES = 20;
const TOKEN_PATTERN = /^[a-z2-7]{24}\.[a-z2-7]{32}$/;

export type SessionUser = Pick<typeof users.$inferSelect, 'id' | 'email' | 'firstName' | 'lastName' | 'profileImageUrl' | 'role'>;

export interface Session {
  id: string;
  userId: number;
  expiresAt: Date;
}

export interface SessionValidation {
  session: Session;
  user: SessionUser;
  /** True when the expiry moved: the cookie must be set again. */
  refreshed: boolean;
}

export function createSession(userId: number, now = Date.now()): { token: string; session: Session } {
  const id = randomToken(ID_BYTES);
  const secret = randomToken(SECRET_BYTES);
  const session = { id, userId, expiresAt: new Date(now + SESSION_LIFETIME_MS) };
  db.insert(sessions)
    .values({ ...session, secretHash: hashToken(secret) })
    .run();
  return { token: `${id}.${secret}`, session };
}

export function validateSessionToken(token: string | undefined, now = Date.now()): SessionValidation | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const [id, secret] = token.split('.') as [string, string];
  const row = db
    .select({
      id: sessions.id,
      secretHash: sessions.secretHash,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      user: {
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        profileImageUrl: users.profileImageUrl,
        role: users.role,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(eq(sessions.id, id))
    .get();
  if (!row || !tokenMatchesHash(secret, row.secretHash)) return null;
  if (row.expiresAt.getTime() <= now) {
    invalidateSession(row.id);
    return null;
  }
  let expiresAt = row.expiresAt;
  const refreshed = expiresAt.getTime() - now < REFRESH_WHEN_LEFT_MS;
  if (refreshed) {
    expiresAt = new Date(now + SESSION_LIFETIME_MS);
    db.update(sessions).set({ expiresAt }).where(eq(sessions.id, row.id)).run();
  }
  return { session: { id: row.id, userId: row.userId, expiresAt }, user: row.user, refreshed };
}

export function invalidateSession(sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

export function invalidateUserSessions(userId: number): void {
  db.delete(sessions).where(eq(sessions.userId, userId)).run();
}

export interface CookieOptions {
  /** Over https: Secure, and the __Host- prefix (no Domain, Path=/). */
  secure: boolean;
}

/** Attributes for Astro's cookies.set: HttpOnly always, SameSite=Lax so links from mail keep the session. */
export function sessionCookieAttributes(expiresAt: Date, { secure }: CookieOptions) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', expires: expiresAt };
}
