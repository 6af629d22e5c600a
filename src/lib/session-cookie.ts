// Every cookie the site sets, named in one place: the app (src/lib/server/auth/),
// the browser code that reads the hint (src/directives/signed-in.ts,
// src/lib/client/user.ts), and the fronts in front of the app (server/serve.ts,
// deploy/nginx/ through server/nginx-config.ts), which must agree: over https
// the app reads only __Host-session, so a front may not treat a stray
// "session" cookie as a signed-in visitor.

/** Over https: the __Host- prefix (Secure, no Domain, Path=/). */
export const sessionCookieName = (siteUrl: string) => (new URL(siteUrl).protocol === 'https:' ? '__Host-session' : 'session');

/** Both names the session cookie may have, whichever the site's origin picks. */
export const SESSION_COOKIE_NAMES = ['session', '__Host-session'] as const;

/**
 * A readable hint beside the HttpOnly session cookie: it says only "someone
 * signed in here", so pre-rendered pages can decide to load the user menu. It grants nothing.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

/** True when the page's cookies (document.cookie) carry the signed-in hint. */
export const hasSignedInHint = (cookies: string) => new RegExp(`(?:^|;\\s*)${SIGNED_IN_HINT_COOKIE}=1(?:;|$)`).test(cookies);

/** The cookies that carry a Google sign-in from its start to the callback (src/lib/server/auth/google.ts). */
export const GOOGLE_FLOW_COOKIES = { state: 'google_oauth_state', verifier: 'google_code_verifier', next: 'google_next' } as const;

/** True when the Cookie header carries a non-empty cookie of exactly this name. */
export function hasSessionCookie(cookieHeader: string | undefined, name: string): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((pair) => {
    const at = pair.indexOf('=');
    return at > 0 && pair.slice(0, at).trim() === name && pair.slice(at + 1).trim() !== '';
  });
}

/** The same test as a regular expression over the Cookie header, for a front that cannot run code (nginx's map). */
export const sessionCookiePattern = (name: string) => `(?:^|;)\\s*${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}=\\s*[^;\\s]`;
