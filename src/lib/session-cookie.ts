// The session cookie's name, in one place for the app (src/lib/server/auth/auth.ts)
// and the server in front of it (server/serve.ts), which must agree: over
// https the app reads only __Host-session, so the server may not treat a stray
// "session" cookie as a signed-in visitor.

/** Over https: the __Host- prefix (Secure, no Domain, Path=/). */
export const sessionCookieName = (siteUrl: string) => (new URL(siteUrl).protocol === 'https:' ? '__Host-session' : 'session');

/** True when the Cookie header carries a non-empty cookie of exactly this name. */
export function hasSessionCookie(cookieHeader: string | undefined, name: string): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((pair) => {
    const at = pair.indexOf('=');
    return at > 0 && pair.slice(0, at).trim() === name && pair.slice(at + 1).trim() !== '';
  });
}
