// "Continue with Google" end to end, in Chromium. A second server process serves
// the same published build with Google credentials set and the three endpoints
// pointing at a local OAuth server (astro:env secrets are read at run time, so
// no rebuild is needed); the normal site under test has no credentials and
// must show no trace of Google sign-in.
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { baseURL, e2eDir, siteEnv } from '../support/env.ts';

test.describe.configure({ mode: 'serial' });

const CLIENT_ID = 'e2e-client.apps.example.com';
const CLIENT_SECRET = 'e2e-secret';
const sitePort = Number(process.env.E2E_PORT ?? 4399) + 60;
const googleSite = `http://127.0.0.1:${sitePort}`;
const callbackURL = `${googleSite}/api/auth/google/callback`;

// --- The local OAuth server ---------------------------------------------------

interface Profile {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
  picture: string;
}

const provider = {
  /** What /authorize does next: sign in as `profile`, answer with a changed state, or report a refusal. */
  mode: 'approve' as 'approve' | 'tamper-state' | 'deny',
  profile: null as Profile | null,
  /** Problems with what the site sent; the tests expect none. */
  complaints: [] as string[],
  tokenExchanges: 0,
  grants: new Map<string, { challenge: string; profile: Profile }>(),
  accessTokens: new Map<string, Profile>(),
};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function complain(res: ServerResponse, problem: string) {
  provider.complaints.push(problem);
  send(res, 400, { error: 'invalid_request', error_description: problem });
}

function authorize(url: URL, res: ServerResponse) {
  const params = url.searchParams;
  const scopes = (params.get('scope') ?? '').split(' ');
  if (params.get('response_type') !== 'code') return complain(res, `response_type ${params.get('response_type')}`);
  if (params.get('client_id') !== CLIENT_ID) return complain(res, `client_id ${params.get('client_id')}`);
  if (params.get('redirect_uri') !== callbackURL) return complain(res, `redirect_uri ${params.get('redirect_uri')}`);
  if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) return complain(res, 'no S256 code challenge');
  if (!['openid', 'email', 'profile'].every((scope) => scopes.includes(scope))) return complain(res, `scope ${params.get('scope')}`);
  const state = params.get('state');
  if (!state) return complain(res, 'no state');

  const back = new URL(callbackURL);
  if (provider.mode === 'deny') {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('state', state);
  } else {
    const code = randomUUID();
    provider.grants.set(code, { challenge: params.get('code_challenge')!, profile: provider.profile! });
    back.searchParams.set('code', code);
    back.searchParams.set('state', provider.mode === 'tamper-state' ? `${state}x` : state);
  }
  res.writeHead(302, { Location: back.href });
  res.end();
}

async function token(req: IncomingMessage, res: ServerResponse) {
  provider.tokenExchanges++;
  let body = '';
  for await (const chunk of req) body += chunk;
  const params = new URLSearchParams(body);
  // arctic sends a confidential client's credentials as HTTP Basic.
  const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
  if (basic !== `${CLIENT_ID}:${CLIENT_SECRET}`) return send(res, 401, { error: 'invalid_client' });
  if (params.get('grant_type') !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
  if (params.get('redirect_uri') !== callbackURL) return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri' });
  const grant = provider.grants.get(params.get('code') ?? '');
  provider.grants.delete(params.get('code') ?? '');
  if (!grant) return send(res, 400, { error: 'invalid_grant', error_description: 'code' });
  const challenge = createHash('sha256')
    .update(params.get('code_verifier') ?? '')
    .digest('base64url');
  if (challenge !== grant.challenge) return send(res, 400, { error: 'invalid_grant', error_description: 'code_verifier' });
  const accessToken = randomUUID();
  provider.accessTokens.set(accessToken, grant.profile);
  send(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile' });
}

function userinfo(req: IncomingMessage, res: ServerResponse) {
  const profile = provider.accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  if (!profile) return send(res, 401, { error: 'invalid_token' });
  send(res, 200, profile);
}

// --- The site with Google configured --------------------------------------------

let oauth: Server;
let site: ChildProcess;
let siteOutput = '';

/** Resolves when the server says it listens; rejects if it exits first or takes a minute. */
function waitForSite(): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Google-configured site did not start:\n${siteOutput}`)), 60_000);
    const onData = () => {
      if (!siteOutput.includes('serve: listening on')) return;
      clearTimeout(timer);
      resolve();
    };
    site.stdout?.on('data', onData);
    site.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Google-configured site exited (${code}):\n${siteOutput}`));
    });
    onData();
  });
}

test.beforeAll(async () => {
  oauth = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/authorize') return authorize(url, res);
    if (url.pathname === '/token' && req.method === 'POST') return void token(req, res);
    if (url.pathname === '/userinfo') return userinfo(req, res);
    send(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => oauth.listen(0, '127.0.0.1', resolve));
  const oauthURL = `http://127.0.0.1:${(oauth.address() as AddressInfo).port}`;

  site = spawn(process.execPath, ['server/serve.ts'], {
    env: {
      ...siteEnv,
      HOST: '127.0.0.1',
      PORT: String(sitePort),
      // Its public origin: the OAuth redirect URI is built from SITE_URL, never from the Host header.
      SITE_URL: googleSite,
      MAIL_OUTBOX: join(e2eDir, 'outbox'),
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_AUTHORIZATION_URL: `${oauthURL}/authorize`,
      GOOGLE_TOKEN_URL: `${oauthURL}/token`,
      GOOGLE_USERINFO_URL: `${oauthURL}/userinfo`,
    },
  });
  site.stdout?.on('data', (chunk) => (siteOutput += chunk));
  site.stderr?.on('data', (chunk) => (siteOutput += chunk));
  await waitForSite();
});

test.afterAll(async () => {
  if (site && site.exitCode === null) {
    const exited = once(site, 'exit');
    site.kill('SIGTERM');
    const timer = setTimeout(() => site.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  oauth?.closeAllConnections();
  await new Promise<void>((resolve) => (oauth ? oauth.close(() => resolve()) : resolve()));
});

test.beforeEach(() => {
  provider.mode = 'approve';
  provider.complaints = [];
  const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  provider.profile = {
    sub: id,
    email: `grace-${id}@example.com`,
    email_verified: true,
    given_name: 'Grace',
    family_name: 'Hopper',
    picture: 'https://lh3.googleusercontent.com/a/grace',
  };
});

test.afterEach(() => {
  expect(provider.complaints, 'what the site sent the OAuth server').toEqual([]);
});

async function signedInUser(page: Page) {
  const response = await page.request.get(`${googleSite}/api/auth/user`);
  return { status: response.status(), body: response.status() === 200 ? await response.json() : null };
}

const oauthCookies = async (page: Page) => (await page.context().cookies()).filter((cookie) => cookie.name.startsWith('google_'));

// --- Tests --------------------------------------------------------------------

test('Continue with Google on the sign-in page signs a new visitor in with the Google profile', async ({ page }) => {
  await page.goto(`${googleSite}/api/login`);
  const button = page.getByRole('link', { name: 'Continue with Google' });
  await expect(button).toBeVisible();
  await button.click();

  await page.waitForURL((url) => url.origin === googleSite && !url.pathname.startsWith('/api/'));
  expect(await signedInUser(page)).toEqual({
    status: 200,
    body: expect.objectContaining({
      email: provider.profile!.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      profileImageUrl: 'https://lh3.googleusercontent.com/a/grace',
    }),
  });
  // The flow's cookies are spent once the callback has run.
  expect(await oauthCookies(page)).toEqual([]);
});

test('the flow cookies are HttpOnly, Lax and scoped to /api/auth/google, and a safe next is honoured', async ({ page }) => {
  const start = await page.request.get(`${googleSite}/api/auth/google?next=${encodeURIComponent('/offers')}`, { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  expect(start.headers()['location']).toMatch(/\/authorize\?/);
  const setCookies = start.headersArray().filter((header) => header.name.toLowerCase() === 'set-cookie');
  expect(setCookies.map((header) => header.value.split('=')[0]).sort()).toEqual(['google_code_verifier', 'google_next', 'google_oauth_state']);
  for (const { value } of setCookies) {
    expect(value).toMatch(/; HttpOnly/i);
    expect(value).toMatch(/; SameSite=Lax/i);
    expect(value).toMatch(/; Path=\/api\/auth\/google(;|$)/i);
    expect(value).toMatch(/; Max-Age=600/i);
  }

  await page.goto(`${googleSite}/api/auth/google?next=${encodeURIComponent('/offers')}`);
  await expect(page).toHaveURL(`${googleSite}/offers`);
  expect((await signedInUser(page)).body).toMatchObject({ email: provider.profile!.email, firstName: 'Grace' });

  // Another site is never a destination.
  await page.context().clearCookies();
  await page.goto(`${googleSite}/api/auth/google?next=${encodeURIComponent('//evil.example/')}`);
  await page.waitForURL((url) => url.origin === googleSite && !url.pathname.startsWith('/api/'));
  expect((await signedInUser(page)).status).toBe(200);
});

test('a callback whose state was tampered with is refused before the code is exchanged', async ({ page }) => {
  provider.mode = 'tamper-state';
  const exchanges = provider.tokenExchanges;
  await page.goto(`${googleSite}/api/auth/google`);
  await expect(page).toHaveURL(`${googleSite}/api/login?error=google`);
  expect(provider.tokenExchanges).toBe(exchanges);
  expect((await signedInUser(page)).status).toBe(401);
  expect(await oauthCookies(page)).toEqual([]);
});

test('a callback without the flow cookies, or with a refusal from Google, goes back to sign-in', async ({ page }) => {
  await page.goto(`${callbackURL}?code=stolen&state=guessed`);
  await expect(page).toHaveURL(`${googleSite}/api/login?error=google`);

  provider.mode = 'deny';
  await page.goto(`${googleSite}/api/auth/google?next=${encodeURIComponent('/offers')}`);
  await expect(page).toHaveURL(`${googleSite}/api/login?error=google&next=%2Foffers`);
  expect((await signedInUser(page)).status).toBe(401);
});

test('without Google credentials there is no Google sign-in at all', async ({ page, request }) => {
  const response = await request.get(`${baseURL}/api/auth/google`, { maxRedirects: 0 });
  expect(response.status()).toBe(404);
  expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  expect((await request.get(`${baseURL}/api/auth/google/callback?code=x&state=y`, { maxRedirects: 0 })).status()).toBe(404);

  await page.goto(`${baseURL}/api/login`);
  await expect(page.locator('main')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);
});
