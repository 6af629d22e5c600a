// Runs before every on-request page and endpoint (never for pre-rendered pages):
// 1. refuses cross-origin state changes with 403 (Astro's own check covers
//    only form posts; this covers JSON too);
// 2. resolves the session cookie into Astro.locals.user (and notes, hashed,
//    the network a spa owner uses the site from: trust/visit-evidence.ts);
// 3. marks every answer `private, no-store` unless the route chose otherwise:
//    what is rendered on request depends on a session or a token in the URL
//    (member home, dashboard, checkout, manage links), and a shared cache must
//    never keep one person's page for the next;
// 4. after a request that may have changed the data, marks the published
//    site unpublished when a listing change now waits for its build, before
//    the answer goes out: the next view of its page is rendered from the data
//    (docs/decisions/0025).
import { SITE_DIR } from 'astro:env/server';
import { defineMiddleware } from 'astro:middleware';
import { resolve } from 'node:path';
import { readContentVersion } from '#lib/server/admin/publishing.ts';
import { logger } from '#lib/log.ts';
import { noteChange } from '#lib/server/published-site.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '#lib/server/auth/auth.ts';
import { crossOrigin, isSameOrigin } from '#lib/server/http.ts';
import { validateSessionToken } from '#lib/server/auth/sessions.ts';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { noteOwnerNetwork } from '#lib/server/trust/visit-evidence.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.user = null;
  context.locals.session = null;
  if (context.isPrerendered) return next();

  if (!SAFE_METHODS.has(context.request.method) && !isSameOrigin(context.request, context.url)) return crossOrigin();

  const token = readSessionToken(context.cookies);
  if (token) {
    const result = validateSessionToken(token);
    if (result) {
      context.locals.user = result.user;
      context.locals.session = result.session;
      // Where owners work from, for the editors' review signals (decision 0029); a keyed hash, at most hourly.
      noteOwnerNetwork(result.user, clientAddressOf(context));
      if (result.refreshed) setSessionCookie(context.cookies, token, result.session.expiresAt);
    } else {
      clearSessionCookie(context.cookies);
    }
  }
  const response = await next();
  if (!SAFE_METHODS.has(context.request.method)) noteDataChange();
  return privateByDefault(response);
});

const log = logger('middleware');
/** The content version after the last state-changing request: most posts (analytics, bookings) change no page. */
let lastVersion = -1;

function noteDataChange(): void {
  try {
    const version = readContentVersion();
    if (version === lastVersion) return;
    lastVersion = version;
    noteChange(resolve(SITE_DIR), version);
  } catch (error) {
    // The rebuild queue marks it within half a second anyway.
    log.warn('could not mark the site unpublished', error);
  }
}

function privateByDefault(response: Response): Response {
  if (response.headers.has('cache-control')) return response;
  try {
    response.headers.set('Cache-Control', 'private, no-store');
    response.headers.append('Vary', 'Cookie');
    return response;
  } catch {
    // Response.redirect() and fetched responses have immutable headers.
    const copy = new Response(response.body, response);
    copy.headers.set('Cache-Control', 'private, no-store');
    copy.headers.append('Vary', 'Cookie');
    return copy;
  }
}
