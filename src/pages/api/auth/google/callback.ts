// GET /api/auth/google/callback: where Google sends the browser back. Every
// failure (refused consent, a state that is not ours, a code Google will not
// exchange, an unverified address) returns to the sign-in page with
// ?error=google; the reason goes to the log, not to the address bar.
import type { APIRoute } from 'astro';
import { signIn } from '#lib/server/auth/auth.ts';
import { finishGoogleSignIn, googleConfigured, googleFailurePath, GoogleSignInError, signInWithGoogle, takeGoogleSignIn } from '#lib/server/auth/google.ts';
import { notFound } from '#lib/result.ts';
import { publicOrigin, refusalResponse } from '#lib/server/http.ts';
import { logger } from '#lib/log.ts';

const log = logger('auth');

export const prerender = false;

export const GET: APIRoute = async (context) => {
  if (!googleConfigured()) return refusalResponse(notFound('Google sign-in not found.'));
  const pending = takeGoogleSignIn(context.cookies);
  const params = context.url.searchParams;
  const fail = (reason: string, detail?: unknown) => {
    log.warn(`google sign-in refused: ${reason}`, detail);
    return context.redirect(googleFailurePath(pending.next), 303);
  };

  const providerError = params.get('error');
  if (providerError) return fail(`provider said ${providerError.slice(0, 100)}`);
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) return fail('no code or state');
  // The state ties this callback to a start in this browser; without the
  // check anyone could sign a victim into the attacker's account (login CSRF).
  if (!pending.state || !pending.codeVerifier) return fail('no sign-in in progress (cookies missing or expired)');
  if (state !== pending.state) return fail('state does not match');

  let userId: number;
  try {
    const profile = await finishGoogleSignIn(code, pending.codeVerifier, publicOrigin);
    userId = signInWithGoogle(profile);
  } catch (error) {
    if (error instanceof GoogleSignInError) return fail(error.reason, error.cause instanceof Error ? error.cause.message : error.message);
    throw error;
  }

  signIn(context, userId);
  return context.redirect(pending.next ?? '/', 303);
};
