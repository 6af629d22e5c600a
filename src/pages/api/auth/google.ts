// GET /api/auth/google[?next=/path]: starts "Continue with Google". Without
// Google credentials the route does not exist (404), like the button.
import type { APIRoute } from 'astro';
import { googleConfigured, rememberGoogleSignIn, startGoogleSignIn } from '../../../lib/server/google.ts';
import { notFound } from '../../../lib/server/http.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  if (!googleConfigured()) return notFound('Google sign-in');
  const start = startGoogleSignIn(context.url.origin, context.url.searchParams.get('next'));
  rememberGoogleSignIn(context.cookies, start);
  return context.redirect(start.url.href, 302);
};
