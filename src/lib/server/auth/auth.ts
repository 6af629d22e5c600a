// Who is asking, and may they. The middleware resolves the session into
// Astro.locals; pages and endpoints ask these helpers:
//   getUser          -> the user or null (pages answer 401 with a sign-in link)
//   requireApiUser   -> the user, or the 401 answer (JSON endpoints)
//   ownerOf          -> the user, or unauthorized/forbidden (a result; the payment endpoints' handlers ask it)
//   findEditableSpa  -> the spa the user may manage, or null (404)
import type { AstroCookies, AstroGlobal } from 'astro';
import { and, eq } from 'drizzle-orm';
import { spas } from '#db/schema.ts';
import { db } from '../db.ts';
import { forbidden, ok, unauthorized, type Result } from '#lib/result.ts';
import { publicUrl, refusalResponse } from '../http.ts';
import { parseId } from '#lib/ids.ts';
import { sessionCookieName, SIGNED_IN_HINT_COOKIE as HINT_COOKIE } from '#lib/session-cookie.ts';
import { createSession, invalidateSession, invalidateUserSessions, sessionCookieAttributes, type SessionUser } from './sessions.ts';

// The public origin decides: over https the cookie is Secure and __Host-.
const secure = new URL(publicUrl).protocol === 'https:';
const cookieName = sessionCookieName(publicUrl);

export const readSessionToken = (cookies: AstroCookies) => cookies.get(cookieName)?.value;

export function setSessionCookie(cookies: AstroCookies, token: string, expiresAt: Date): void {
  cookies.set(cookieName, token, sessionCookieAttributes(expiresAt, { secure }));
  cookies.set(HINT_COOKIE, '1', { ...sessionCookieAttributes(expiresAt, { secure }), httpOnly: false });
}

export function clearSessionCookie(cookies: AstroCookies): void {
  cookies.set(cookieName, '', { ...sessionCookieAttributes(new Date(0), { secure }), maxAge: 0 });
  forgetSignedInHint(cookies);
}

/** Drops the readable signed-in hint alone, for a browser whose session is already gone. */
export function forgetSignedInHint(cookies: AstroCookies): void {
  cookies.set(HINT_COOKIE, '', { ...sessionCookieAttributes(new Date(0), { secure }), httpOnly: false, maxAge: 0 });
}

type SessionContext = { locals: App.Locals; cookies: AstroCookies };

/**
 * Starts a session for the user in this browser. Whatever session the browser
 * had ends first: a sign-in link opened on a shared computer must not leave
 * the previous person signed in underneath.
 */
export function signIn(context: SessionContext, userId: number): void {
  if (context.locals.session) invalidateSession(context.locals.session.id);
  const { token, session } = createSession(userId);
  setSessionCookie(context.cookies, token, session.expiresAt);
}

/**
 * Ends this browser's session (the row goes, so a kept copy of the token is
 * dead), or with `everywhere` every session of the user: a lost phone, a
 * forgotten library computer.
 */
export function signOut(context: SessionContext, { everywhere = false } = {}): void {
  if (everywhere && context.locals.user) invalidateUserSessions(context.locals.user.id);
  else if (context.locals.session) invalidateSession(context.locals.session.id);
  clearSessionCookie(context.cookies);
  context.locals.user = null;
  context.locals.session = null;
}

export const getUser = (context: { locals: App.Locals }): SessionUser | null => context.locals.user;

/** For JSON endpoints: the user, or 401. */
export function requireApiUser(context: { locals: App.Locals }): SessionUser | Response {
  return getUser(context) ?? refusalResponse(unauthorized());
}

/** The owner of the spa (or an editor); signed-out visitors are unauthorized, everyone else forbidden. */
export function ownerOf(user: SessionUser | null, spaId: number): Result<SessionUser, 'unauthorized' | 'forbidden'> {
  if (!user) return unauthorized();
  if (user.role === 'admin') return ok(user);
  const owned = db
    .select({ id: spas.id })
    .from(spas)
    .where(and(eq(spas.id, spaId), eq(spas.ownerId, user.id)))
    .get();
  return owned ? ok(user) : forbidden('This listing belongs to another owner.');
}

export interface EditableSpa {
  id: number;
  name: string;
  slug: string;
  tier: (typeof spas.$inferSelect)['tier'];
  ownerId: number | null;
  cityId: number;
  /** Listed on the public site (approved and not withdrawn). */
  active: boolean;
}

/** The listings `user` may manage, by name: their own, or every one for an editor. */
export function listEditableSpas(user: SessionUser) {
  const admin = user.role === 'admin';
  return db
    .select({ id: spas.id, name: spas.name })
    .from(spas)
    .where(admin ? undefined : eq(spas.ownerId, user.id))
    .orderBy(spas.name)
    .limit(admin ? 500 : 50)
    .all();
}

/**
 * The spa `rawId` names, when `user` may manage it (its owner, or an editor);
 * otherwise null. Pages and endpoints answer null with 404 whatever the reason
 * (bad id, no such spa, someone else's), so other owners learn nothing; a
 * signed-out visitor is asked to sign in first (401) by the caller.
 */
export function findEditableSpa(user: SessionUser | null, rawId: unknown): EditableSpa | null {
  const spaId = parseId(rawId);
  if (!user || spaId === null) return null;
  const spa = db
    .select({ id: spas.id, name: spas.name, slug: spas.slug, tier: spas.tier, ownerId: spas.ownerId, cityId: spas.cityId, active: spas.active })
    .from(spas)
    .where(eq(spas.id, spaId))
    .get();
  if (!spa) return null;
  return user.role === 'admin' || spa.ownerId === user.id ? spa : null;
}

/**
 * The guard of an owner's spa page (/owner/spas/{id}/...): who is signed in,
 * the spa they may edit, and where to sign in, with the page's status set:
 * 401 for a signed-out visitor (the page shows the sign-in screen), 404 when
 * the spa is not theirs or not there (findEditableSpa).
 */
export function editableSpaPage(
  page: Pick<AstroGlobal, 'locals' | 'params' | 'url' | 'response'>,
  signInAt = '/api/login',
): { user: SessionUser | null; spa: EditableSpa | null; loginUrl: string } {
  const user = getUser(page);
  const spa = findEditableSpa(user, page.params.id);
  if (!user) page.response.status = 401;
  else if (!spa) page.response.status = 404;
  return { user, spa, loginUrl: `${signInAt}?next=${encodeURIComponent(page.url.pathname)}` };
}
