// "Continue with Google": the OAuth 2 authorization code flow with PKCE,
// through arctic's generic OAuth2Client rather than its Google class, because
// that class hard-codes Google's endpoints and tests must point them at a
// local server. The flow is offered only when both credentials are set.
//
//   GET /api/auth/google           startGoogleSignIn + rememberGoogleSignIn -> 302 to Google
//   GET /api/auth/google/callback  takeGoogleSignIn, finishGoogleSignIn, signInWithGoogle
import type { AstroCookies } from 'astro';
import { GOOGLE_AUTHORIZATION_URL, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, GOOGLE_TOKEN_URL, GOOGLE_USERINFO_URL } from 'astro:env/server';
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from 'arctic';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { users } from '#db/schema.ts';
import { db } from '../db.ts';
import { safeNextPath } from './magic-links.ts';
import { publicUrl } from '../http.ts';
import { GOOGLE_FLOW_COOKIES } from '#lib/session-cookie.ts';

export interface GoogleConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

/** The configuration the environment gives; read per call, as astro:env secrets are run-time values. */
export const googleConfigFromEnv = (): GoogleConfig => ({
  clientId: GOOGLE_CLIENT_ID,
  clientSecret: GOOGLE_CLIENT_SECRET,
  authorizationUrl: GOOGLE_AUTHORIZATION_URL,
  tokenUrl: GOOGLE_TOKEN_URL,
  userinfoUrl: GOOGLE_USERINFO_URL,
});

export const GOOGLE_SCOPES = ['openid', 'email', 'profile'];
export const CALLBACK_PATH = '/api/auth/google/callback';

/** An empty value counts as unset, so `GOOGLE_CLIENT_ID=` in .env hides the button. */
export const googleConfigured = (config = googleConfigFromEnv()) => Boolean(config.clientId && config.clientSecret);

export const googleRedirectUri = (origin: string) => new URL(CALLBACK_PATH, origin).href;

function oauthClient(config: GoogleConfig, origin: string): OAuth2Client {
  if (!config.clientId || !config.clientSecret) throw new Error('Google sign-in is not configured (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET).');
  return new OAuth2Client(config.clientId, config.clientSecret, googleRedirectUri(origin));
}

export interface GoogleSignInStart {
  url: URL;
  state: string;
  codeVerifier: string;
  /** The destination after sign-in, when it is a safe path on this site. */
  next: string | undefined;
}

export function startGoogleSignIn(origin: string, next: string | null | undefined, config = googleConfigFromEnv()): GoogleSignInStart {
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = oauthClient(config, origin).createAuthorizationURLWithPKCE(config.authorizationUrl, state, CodeChallengeMethod.S256, codeVerifier, GOOGLE_SCOPES);
  return { url, state, codeVerifier, next: safeNextPath(next) };
}

// --- The cookies that carry the flow from the start to the callback ---------
// Scoped to /api/auth/google (the callback is below it), HttpOnly, and Lax so
// the top-level redirect back from Google still carries them; 10 minutes is
// plenty for a consent screen and keeps a forgotten attempt from lingering.
const { state: STATE_COOKIE, verifier: VERIFIER_COOKIE, next: NEXT_COOKIE } = GOOGLE_FLOW_COOKIES;
const COOKIE_PATH = '/api/auth/google';
const COOKIE_MAX_AGE_SECONDS = 10 * 60;
// Like the session cookie: the public origin decides whether cookies are Secure.
const secure = new URL(publicUrl).protocol === 'https:';
const cookieAttributes = { httpOnly: true, sameSite: 'lax' as const, secure, path: COOKIE_PATH, maxAge: COOKIE_MAX_AGE_SECONDS };

export function rememberGoogleSignIn(cookies: AstroCookies, start: GoogleSignInStart): void {
  cookies.set(STATE_COOKIE, start.state, cookieAttributes);
  cookies.set(VERIFIER_COOKIE, start.codeVerifier, cookieAttributes);
  if (start.next) cookies.set(NEXT_COOKIE, start.next, cookieAttributes);
  // A destination left from an earlier, abandoned attempt must not apply to this one.
  else if (cookies.has(NEXT_COOKIE)) cookies.delete(NEXT_COOKIE, { path: COOKIE_PATH });
}

export interface PendingGoogleSignIn {
  state: string | undefined;
  codeVerifier: string | undefined;
  next: string | undefined;
}

/** Reads the flow's cookies and clears them: a callback URL works at most once. */
export function takeGoogleSignIn(cookies: AstroCookies): PendingGoogleSignIn {
  const pending = {
    state: cookies.get(STATE_COOKIE)?.value || undefined,
    codeVerifier: cookies.get(VERIFIER_COOKIE)?.value || undefined,
    next: safeNextPath(cookies.get(NEXT_COOKIE)?.value),
  };
  for (const name of [STATE_COOKIE, VERIFIER_COOKIE, NEXT_COOKIE]) {
    if (cookies.has(name)) cookies.delete(name, { path: COOKIE_PATH });
  }
  return pending;
}

/** The sign-in page, told that Google sign-in failed, keeping the destination. */
export function googleFailurePath(next: string | undefined): string {
  const params = new URLSearchParams({ error: 'google' });
  if (next) params.set('next', next);
  return `/api/login?${params}`;
}

// --- Code exchange and profile ---------------------------------------------

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  picture: string | null;
}

export type GoogleSignInFailure = 'token_exchange' | 'userinfo' | 'unverified_email';

export class GoogleSignInError extends Error {
  readonly reason: GoogleSignInFailure;
  constructor(reason: GoogleSignInFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'GoogleSignInError';
    this.reason = reason;
  }
}

// Names and picture are niceties: a bad one is dropped, not a reason to refuse.
const niceText = z.string().trim().min(1).max(200).optional().catch(undefined);
const userinfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  // OpenID Connect says boolean; Google's older endpoints answered "true".
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]).optional(),
  given_name: niceText,
  family_name: niceText,
  picture: z
    .url({ protocol: /^https$/ })
    .max(2048)
    .optional()
    .catch(undefined),
});

const USERINFO_TIMEOUT_MS = 10_000;

/**
 * Exchanges the code (with the PKCE verifier) for an access token and asks the
 * userinfo endpoint who it belongs to. Throws GoogleSignInError when the code
 * is refused, the profile cannot be read, or the address is not verified:
 * an unverified address must not open an account that bears it.
 */
export async function finishGoogleSignIn(code: string, codeVerifier: string, origin: string, config = googleConfigFromEnv()): Promise<GoogleProfile> {
  let accessToken: string;
  try {
    const tokens = await oauthClient(config, origin).validateAuthorizationCode(config.tokenUrl, code, codeVerifier);
    accessToken = tokens.accessToken();
  } catch (error) {
    throw new GoogleSignInError('token_exchange', 'Google did not accept the sign-in code.', { cause: error });
  }

  let body: unknown;
  try {
    const response = await fetch(config.userinfoUrl, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(USERINFO_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new GoogleSignInError('userinfo', 'Could not read the Google profile.', { cause: error });
  }
  const parsed = userinfoSchema.safeParse(body);
  if (!parsed.success) throw new GoogleSignInError('userinfo', 'The Google profile has no usable e-mail address.', { cause: parsed.error });

  const info = parsed.data;
  if (info.email_verified !== true) throw new GoogleSignInError('unverified_email', `Google has not verified ${info.email}.`);
  return {
    sub: info.sub,
    email: info.email,
    emailVerified: true,
    givenName: info.given_name ?? null,
    familyName: info.family_name ?? null,
    picture: info.picture ?? null,
  };
}

/**
 * The user for a verified Google profile: the account with that e-mail (as a
 * magic link would find it), or a new client account. Names and picture fill
 * only what the account lacks; what a person set themselves stays.
 */
export function signInWithGoogle(profile: GoogleProfile): number {
  // Defence in depth: finishGoogleSignIn already refuses these.
  if (!profile.emailVerified) throw new GoogleSignInError('unverified_email', `Google has not verified ${profile.email}.`);
  const email = profile.email.trim().toLowerCase();
  // IMMEDIATE takes the write lock before the read, so two first sign-ins with
  // the same address cannot both decide to insert.
  return db.transaction(
    (tx) => {
      const existing = tx
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, profileImageUrl: users.profileImageUrl })
        .from(users)
        .where(eq(users.email, email))
        .get();
      if (!existing) {
        return tx
          .insert(users)
          .values({ email, role: 'client', firstName: profile.givenName, lastName: profile.familyName, profileImageUrl: profile.picture })
          .returning({ id: users.id })
          .get().id;
      }
      const fill: Partial<typeof users.$inferInsert> = {};
      if (!existing.firstName && profile.givenName) fill.firstName = profile.givenName;
      if (!existing.lastName && profile.familyName) fill.lastName = profile.familyName;
      if (!existing.profileImageUrl && profile.picture) fill.profileImageUrl = profile.picture;
      if (Object.keys(fill).length > 0) {
        tx.update(users)
          .set({ ...fill, updatedAt: new Date() })
          .where(eq(users.id, existing.id))
          .run();
      }
      return existing.id;
    },
    { behavior: 'immediate' },
  );
}
