// GET /api/auth/google[?next=/path]: starts "Continue with Google". Without
// Google credentials the route does not exist (404), like the button.
import type { APIRoute } from 'astro';
import { googleConfigured, rememberGoogleSignIn, startGoogleSignIn } from '#lib/server/auth/google.ts';
import { notFound } from '#lib/result.ts';
import { publicOrigin, refusalResponse } from '#lib/server/http.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  if (!googleConfigured()) return refusalResponse(notFound('Google sign-in not found.'));
  // The redirect URI is built from SITE_URL: the Host header is the client's to choose.
  const start = startGoogleSignIn(publicOrigin, context.url.searchParams.get('next'));
  rememberGoogleSignIn(context.cookies, start);
  return context.redirect(start.url.href, 302);
};
