// Google sign-in against a local OAuth server: arctic uses the global fetch,
// so the token and userinfo endpoints below stand in for Google's. The server
// checks what Google checks (client credentials, code, PKCE verifier,
// redirect URI, bearer token), so a request arctic built wrongly fails here.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#db/schema.ts';
import { db } from '../db.ts';
import {
  finishGoogleSignIn,
  GOOGLE_SCOPES,
  googleConfigured,
  googleRedirectUri,
  GoogleSignInError,
  signInWithGoogle,
  startGoogleSignIn,
  type GoogleConfig,
} from './google.ts';

const CLIENT_ID = 'test-client.apps.example.com';
const CLIENT_SECRET = 'test-secret';
const ORIGIN = 'http://127.0.0.1:4321';

interface Grant {
  codeVerifier: string;
  redirectUri: string;
  profile: Record<string, unknown>;
}
/** Codes the fake provider will exchange, each once. */
const grants = new Map<string, Grant>();
const accessTokens = new Map<string, Record<string, unknown>>();

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

/** arctic sends confidential clients' credentials as HTTP Basic, not in the body. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic (.+)$/.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

async function token(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST' || !req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
    return send(res, 400, { error: 'invalid_request' });
  }
  const credentials = basicCredentials(req.headers.authorization);
  if (credentials?.id !== CLIENT_ID || credentials.secret !== CLIENT_SECRET) return send(res, 401, { error: 'invalid_client' });
  const params = new URLSearchParams(await readBody(req));
  if (params.get('grant_type') !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
  const code = params.get('code') ?? '';
  const grant = grants.get(code);
  grants.delete(code);
  if (!grant || params.get('code_verifier') !== grant.codeVerifier || params.get('redirect_uri') !== grant.redirectUri) {
    return send(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
  }
  const accessToken = randomUUID();
  accessTokens.set(accessToken, grant.profile);
  send(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3599, scope: GOOGLE_SCOPES.join(' '), id_token: 'not.checked.here' });
}

function userinfo(req: IncomingMessage, res: ServerResponse) {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const profile = bearer ? accessTokens.get(bearer) : undefined;
  if (!profile) return send(res, 401, { error: 'invalid_token' });
  send(res, 200, profile);
}

let server: Server;
let config: GoogleConfig;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/token') return void token(req, res);
    if (path === '/userinfo') return userinfo(req, res);
    send(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config = {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authorizationUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    userinfoUrl: `${base}/userinfo`,
  };
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let counter = 0;
const uniqueEmail = (name: string) => `${name}-${Date.now()}-${counter++}@example.com`;

function googleProfile(email: string, overrides: Record<string, unknown> = {}) {
  return {
    sub: String(100_000_000 + counter),
    email,
    email_verified: true,
    name: 'Maya Lopez',
    given_name: 'Maya',
    family_name: 'Lopez',
    picture: 'https://lh3.googleusercontent.com/a/maya',
    ...overrides,
  };
}

/** What the browser would bring back from Google: a code the provider will honour once. */
function authorize(profile: Record<string, unknown>): { code: string; codeVerifier: string } {
  const { codeVerifier } = startGoogleSignIn(ORIGIN, undefined, config);
  const code = randomUUID();
  grants.set(code, { codeVerifier, redirectUri: googleRedirectUri(ORIGIN), profile });
  return { code, codeVerifier };
}

const userByEmail = (email: string) => db.select().from(users).where(eq(users.email, email)).get();

describe('googleConfigured', () => {
  it('needs both the client id and the secret; empty counts as unset', () => {
    expect(googleConfigured(config)).toBe(true);
    expect(googleConfigured({ ...config, clientId: undefined })).toBe(false);
    expect(googleConfigured({ ...config, clientSecret: '' })).toBe(false);
  });
});

describe('startGoogleSignIn', () => {
  it('asks for openid, email and profile with an S256 PKCE challenge and our callback', () => {
    const start = startGoogleSignIn(ORIGIN, '/offers?city=irvine', config);
    const params = start.url.searchParams;
    expect(start.url.origin + start.url.pathname).toBe(config.authorizationUrl);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('redirect_uri')).toBe(`${ORIGIN}/api/auth/google/callback`);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('state')).toBe(start.state);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toBe(createHash('sha256').update(start.codeVerifier).digest('base64url'));
    expect(start.next).toBe('/offers?city=irvine');
  });

  it('gives a fresh state and verifier each time and drops an unsafe destination', () => {
    const a = startGoogleSignIn(ORIGIN, '//evil.example/', config);
    const b = startGoogleSignIn(ORIGIN, 'https://evil.example/', config);
    expect(a.state).not.toBe(b.state);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect(a.next).toBeUndefined();
    expect(b.next).toBeUndefined();
  });

  it('refuses to start without credentials', () => {
    expect(() => startGoogleSignIn(ORIGIN, undefined, { ...config, clientSecret: undefined })).toThrow(/not configured/);
  });
});

describe('finishGoogleSignIn + signInWithGoogle', () => {
  it('creates a client account from a verified profile, with the address lower-cased', async () => {
    const email = uniqueEmail('new');
    const { code, codeVerifier } = authorize(googleProfile(email.toUpperCase()));

    const profile = await finishGoogleSignIn(code, codeVerifier, ORIGIN, config);
    expect(profile).toEqual({
      sub: expect.any(String),
      email,
      emailVerified: true,
      givenName: 'Maya',
      familyName: 'Lopez',
      picture: 'https://lh3.googleusercontent.com/a/maya',
    });

    const userId = signInWithGoogle(profile);
    expect(userByEmail(email)).toMatchObject({
      id: userId,
      role: 'client',
      firstName: 'Maya',
      lastName: 'Lopez',
      profileImageUrl: 'https://lh3.googleusercontent.com/a/maya',
    });
    // The same person again is the same account, not a second one.
    const again = authorize(googleProfile(email));
    expect(signInWithGoogle(await finishGoogleSignIn(again.code, again.codeVerifier, ORIGIN, config))).toBe(userId);
  });

  it('links an existing account by e-mail: fills what is missing, keeps what is set', async () => {
    const email = uniqueEmail('existing');
    const existing = db.insert(users).values({ email, firstName: 'Mia', role: 'owner' }).returning().get();
    const { code, codeVerifier } = authorize(googleProfile(email.replace('existing', 'EXISTING')));

    const userId = signInWithGoogle(await finishGoogleSignIn(code, codeVerifier, ORIGIN, config));

    expect(userId).toBe(existing.id);
    expect(userByEmail(email)).toMatchObject({
      firstName: 'Mia',
      lastName: 'Lopez',
      profileImageUrl: 'https://lh3.googleusercontent.com/a/maya',
      role: 'owner',
    });
    expect(db.select().from(users).where(eq(users.email, email)).all()).toHaveLength(1);
  });

  it('refuses an address Google has not verified, and creates nobody', async () => {
    for (const emailVerified of [false, 'false', undefined]) {
      const email = uniqueEmail('unverified');
      const { code, codeVerifier } = authorize(googleProfile(email, { email_verified: emailVerified }));
      const attempt = finishGoogleSignIn(code, codeVerifier, ORIGIN, config);
      await expect(attempt).rejects.toBeInstanceOf(GoogleSignInError);
      await expect(attempt).rejects.toMatchObject({ reason: 'unverified_email' });
      expect(userByEmail(email)).toBeUndefined();
    }
    expect(() => signInWithGoogle({ sub: '1', email: uniqueEmail('direct'), emailVerified: false, givenName: null, familyName: null, picture: null })).toThrow(
      GoogleSignInError,
    );
  });

  it('accepts "true" as verified and drops a picture that is not https', async () => {
    const email = uniqueEmail('string-verified');
    const { code, codeVerifier } = authorize(googleProfile(email, { email_verified: 'true', picture: 'javascript:alert(1)', family_name: '' }));
    const profile = await finishGoogleSignIn(code, codeVerifier, ORIGIN, config);
    expect(profile).toMatchObject({ email, emailVerified: true, givenName: 'Maya', familyName: null, picture: null });
  });

  it('refuses a code the provider does not know, a wrong verifier, a spent code and wrong credentials', async () => {
    const email = uniqueEmail('refused');
    const { codeVerifier } = authorize(googleProfile(email));
    await expect(finishGoogleSignIn('not-a-code', codeVerifier, ORIGIN, config)).rejects.toMatchObject({ reason: 'token_exchange' });

    const wrongVerifier = authorize(googleProfile(email));
    await expect(finishGoogleSignIn(wrongVerifier.code, `${wrongVerifier.codeVerifier}x`, ORIGIN, config)).rejects.toMatchObject({
      reason: 'token_exchange',
    });

    const spent = authorize(googleProfile(email));
    await finishGoogleSignIn(spent.code, spent.codeVerifier, ORIGIN, config);
    await expect(finishGoogleSignIn(spent.code, spent.codeVerifier, ORIGIN, config)).rejects.toMatchObject({ reason: 'token_exchange' });

    const wrongSecret = authorize(googleProfile(email));
    await expect(finishGoogleSignIn(wrongSecret.code, wrongSecret.codeVerifier, ORIGIN, { ...config, clientSecret: 'guess' })).rejects.toMatchObject({
      reason: 'token_exchange',
    });

    const otherSite = authorize(googleProfile(email));
    await expect(finishGoogleSignIn(otherSite.code, otherSite.codeVerifier, 'http://evil.example', config)).rejects.toMatchObject({
      reason: 'token_exchange',
    });
    expect(userByEmail(email)).toBeUndefined();
  });

  it('refuses when the userinfo endpoint does not answer with a profile', async () => {
    const { code, codeVerifier } = authorize(googleProfile(uniqueEmail('userinfo')));
    const broken = { ...config, userinfoUrl: config.userinfoUrl.replace('/userinfo', '/missing') };
    await expect(finishGoogleSignIn(code, codeVerifier, ORIGIN, broken)).rejects.toMatchObject({ reason: 'userinfo' });
  });
});
