// The security review's findings (issue 9), each replayed as the attack it was
// and expected to fail: bodies without end, an open redirect after sign-in,
// session pages in shared caches, a reverse proxy's headers, a stray cookie,
// sign-out by link, a session left alive under a new sign-in.
// (Figures for a 200 MB post under load: scripts/bench-bodies.ts.)
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { randomBytes, randomInt } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import { services, sessions } from '#db/schema.ts';
import { createSession } from '#lib/server/auth/sessions.ts';
import { db } from '#lib/server/db.ts';
import { askServerCopy, serverCopyForBlock } from '../support/e2e-steps.ts';
import { baseURL } from '../support/env.ts';
import { expect, issueMagicLink, signIn, test } from '../support/fixtures.ts';
import { linkIn, messageInOutbox } from '../support/outbox.ts';
import { postChunked } from '../support/post-chunked.ts';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const randomToken = (length = 52) => Array.from({ length }, () => BASE32[randomInt(BASE32.length)]).join('');
const uniqueEmail = (who = 'sec') => `${who}-${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
const LIMIT = 64 * 1024;

const sessionsOf = (userId: number) => db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)).all();

test.describe('request bodies are capped', () => {
  const formRoutes = [
    '/newsletter',
    '/booking/request',
    '/auth/confirm',
    '/owner/dashboard',
    '/newsletter/confirm',
    '/newsletter/unsubscribe?token=x',
    '/bookings/manage/x',
    '/api/logout',
  ];

  for (const path of formRoutes) {
    test(`a chunked post without end to ${path} is refused with 413 and the connection closed`, async () => {
      const result = await postChunked(`${baseURL}${path}`, 20 * 1024 * 1024);
      expect(result.status).toBe(413);
      // The answer came (and the connection closed) before the 20 MB were sent.
      expect(result.sent).toBeLessThan(20 * 1024 * 1024);
    });
  }

  test('JSON endpoints answer 413 in the one error shape, declared or chunked', async ({ request }) => {
    const chunked = await postChunked(`${baseURL}/api/bookings`, 4 * 1024 * 1024, { contentType: 'application/json' });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: 'payload_too_large' } });

    const declared = await request.post('/api/analytics/event', {
      headers: { 'Content-Type': 'application/json', Origin: baseURL },
      data: JSON.stringify({ padding: 'x'.repeat(LIMIT + 1) }),
    });
    expect(declared.status()).toBe(413);
  });

  test('the server keeps answering others while a post is held open', async ({ request }) => {
    let during: APIResponse | undefined;
    const result = await postChunked(`${baseURL}/newsletter`, 4 * 1024 * 1024, {
      beforeRest: async () => {
        during = await request.get('/api/cities');
      },
    });
    expect(during?.status()).toBe(200);
    expect(result.status).toBe(413);
    expect((await request.get('/api/cities')).status()).toBe(200);
  });

  test('a form under the cap still works', async ({ request }) => {
    const response = await request.post('/newsletter', { form: { email: uniqueEmail('news') }, headers: { Origin: baseURL } });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain('Check your inbox');
  });
});

test.describe('no open redirect after sign-in', () => {
  for (const next of ['/\t/evil.example', '/\\evil.example', '//evil.example', 'https://evil.example/', '/.//evil.example']) {
    test(`confirming with next=${JSON.stringify(next)} stays on this site`, async ({ request }) => {
      const token = issueMagicLink(uniqueEmail());
      const response = await request.post('/auth/confirm', { form: { token, for: 'owner', next }, headers: { Origin: baseURL }, maxRedirects: 0 });
      expect(response.status()).toBe(303);
      const location = new URL(response.headers().location!, baseURL);
      expect(location.origin).toBe(baseURL);
      expect(location.pathname).toBe('/owner/dashboard');
    });
  }

  test('the mailed link drops a next that would leave the site', async ({ request }) => {
    // No limit is reset: this test asks for its link from an address of its own (../support/fixtures.ts).
    const email = uniqueEmail('redirect');
    const response = await request.post('/api/auth/request', { data: { email, next: '/\t/evil.example' }, headers: { Origin: baseURL } });
    expect(response.status()).toBe(200);
    const link = linkIn(await messageInOutbox(email), '/auth/confirm?');
    expect(link.searchParams.has('next')).toBe(false);
  });
});

test.describe('answers that depend on a session or a token are private', () => {
  test('the member home is private and "/" varies by cookie', async ({ request, playwright, person }) => {
    const anonymous = await request.get('/');
    expect(anonymous.headers().vary).toMatch(/cookie/i);

    const user = person('client', { firstName: 'Priya' });
    const signedIn = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `session=${user.token}` } });
    try {
      const home = await signedIn.get('/');
      expect(await home.text()).toContain(user.email);
      expect(home.headers()['cache-control']).toBe('private, no-store');
      expect(home.headers().vary).toMatch(/cookie/i);
      const service = db
        .select({ id: services.id })
        .from(services)
        .where(and(gt(services.priceCents, 0), eq(services.active, true)))
        .orderBy(asc(services.id))
        .limit(1)
        .get()!;
      for (const path of ['/owner/dashboard', `/checkout?service=${service.id}`, '/subscription', '/api/auth/user', '/api/bookings', '/api/logout']) {
        const response = await signedIn.get(path, { maxRedirects: 0 });
        expect(response.headers()['cache-control'], path).toBe('private, no-store');
      }
    } finally {
      await signedIn.dispose();
    }
  });

  test('token pages are private', async ({ request }) => {
    for (const path of [
      `/bookings/manage/${randomToken(43)}`,
      `/auth/confirm?token=${randomToken()}`,
      `/newsletter/confirm?token=${randomToken()}`,
      `/newsletter/unsubscribe?token=${randomToken()}`,
    ]) {
      const response = await request.get(path);
      expect(response.headers()['cache-control'], path).toBe('private, no-store');
    }
  });
});

test.describe('a stray cookie of the other name', () => {
  test('does not send "/" round in circles', async ({ request }) => {
    // Over http the app reads "session"; a "__Host-session" cookie is not ours.
    const response = await request.get('/', { headers: { Cookie: '__Host-session=stray' }, maxRedirects: 0 });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain('Find your trusted medical spa');
  });
});

test.describe('signing out', () => {
  test('a GET (a link or an image on any site) signs nobody out', async ({ page, signedIn }) => {
    const user = await signedIn();
    const response = await page.goto('/api/logout');
    expect(response?.status()).toBe(200);
    expect((await page.request.get('/api/auth/user')).status()).toBe(200);
    // The page offers the buttons, and the button signs out.
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    expect(sessionsOf(user.id)).toEqual([]);
  });

  test('a cross-site post is refused', async ({ request, person }) => {
    const user = person();
    const response = await request.post('/api/logout', { headers: { Cookie: `session=${user.token}`, Origin: 'https://evil.example' }, form: {} });
    expect(response.status()).toBe(403);
    expect(sessionsOf(user.id)).toHaveLength(1);
  });

  test('"Sign out everywhere" ends the account’s other sessions too', async ({ browser, person }) => {
    const user = person();
    const phone = await browser.newContext();
    const laptop = await browser.newContext();
    try {
      await signIn(phone, user);
      // A second session of the same account, as another device would have.
      const laptopSession = createSession(user.id);
      await signIn(laptop, { ...user, token: laptopSession.token });
      expect(sessionsOf(user.id)).toHaveLength(2);

      const page = await phone.newPage();
      await page.goto('/api/logout');
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(page).toHaveURL(`${baseURL}/`);
      expect(sessionsOf(user.id)).toEqual([]);
      expect((await laptop.request.get(`${baseURL}/api/auth/user`)).status()).toBe(401);
    } finally {
      await phone.close();
      await laptop.close();
    }
  });
});

test.describe('a new sign-in', () => {
  test('ends the session the browser had before', async ({ page, signedIn }) => {
    const previous = await signedIn();
    const email = uniqueEmail('next-person');
    await page.goto(`/auth/confirm?token=${issueMagicLink(email)}&for=owner`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/owner\/dashboard$/);
    expect(sessionsOf(previous.id)).toEqual([]);
    expect(await (await page.request.get('/api/auth/user')).json()).toMatchObject({ email });
  });
});

const askForLink = (api: APIRequestContext, forwardedFor: string) =>
  api.post('/api/auth/request', { data: { email: uniqueEmail('proxy') }, headers: { Origin: baseURL, 'X-Forwarded-For': forwardedFor } });

test.describe('behind a trusted reverse proxy', () => {
  const server = serverCopyForBlock(50, { TRUST_PROXY: '1' });

  test('each visitor gets their own sign-in limit, from the proxy’s entry', async ({ playwright }) => {
    await askServerCopy(playwright, server(), async (api) => {
      // One visitor, who also forges a different left-hand entry each time.
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await askForLink(api, `10.9.${i}.1, 198.51.100.7`)).status());
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(statuses[20]).toBe(429);
      // Another visitor behind the same proxy is not affected.
      expect((await askForLink(api, '198.51.100.8')).status()).toBe(200);
    });
  });

  test('browser posts must carry the public origin, not the proxied request’s', async ({ playwright }) => {
    await askServerCopy(playwright, server(), async (api) => {
      const withOrigin = (origin: string) => api.post('/newsletter', { form: { email: uniqueEmail('origin') }, headers: { Origin: origin } });
      expect((await withOrigin(baseURL)).status()).toBe(200);
      expect((await withOrigin(server().url)).status()).toBe(403);
    });
  });
});

test.describe('without a trusted proxy', () => {
  const server = serverCopyForBlock(51, { TRUST_PROXY: '0' });

  test('X-Forwarded-For is not believed', async ({ playwright }) => {
    await askServerCopy(playwright, server(), async (api) => {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await askForLink(api, `203.0.113.${i}`)).status());
      expect(statuses[20]).toBe(429);
    });
  });
});
