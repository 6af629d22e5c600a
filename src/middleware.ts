// Runs before every on-request page and endpoint (never for pre-rendered pages):
// 1. refuses cross-origin state changes with 403 (Astro's own check covers
//    only form posts; this covers JSON too);
// 2. resolves the session cookie into Astro.locals.user.
import { defineMiddleware } from 'astro:middleware';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './lib/server/auth.ts';
import { crossOrigin, isSameOrigin } from './lib/server/http.ts';
import { validateSessionToken } from './lib/server/sessions.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const onRequest = defineMiddleware((context, next) => {
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
      if (result.refreshed) setSessionCookie(context.cookies, token, result.session.expiresAt);
    } else {
      clearSessionCookie(context.cookies);
    }
  }
  return next();
});
