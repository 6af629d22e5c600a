// Production's stack, run for real (issue 27): nginx in front (the configuration
// server/nginx-config.ts writes for deploy/nginx/, here with this run's paths),
// over TLS with a self-signed certificate and HTTP/2, serving the published
// build's files itself and asking the Node server behind it for the rest. One
// server and one nginx for the file: a smoke walk in Chromium, the header scan
// through the front, the access log, and a listing change going live at once
// and then in the build's file.
import type { Browser, BrowserContext } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { bookings, services, spaPhotos, spas } from '#db/schema.ts';
import { withTablesAt, type Tables } from '../support/database.ts';
import { expect, test } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';
import { nginxMissing, startFront, type RunningNginx } from '../support/nginx.ts';
import { copyPort, startServerCopy, type ServerCopy } from '../support/server-copy.ts';
import { createSignedInUser, type TestUser } from '../support/sessions.ts';
import { photo } from '../support/test-images.ts';

test.describe.configure({ mode: 'serial' });

const nodePort = copyPort(120);
const frontPort = copyPort(121);
const origin = `https://127.0.0.1:${frontPort}`;
const marker = `Quiet treatment rooms, now with a garden ${Date.now()}.`;
let server: ServerCopy;
let front: RunningNginx;
let changed: { id: number; slug: string };

/** A browser context on the front: its certificate is the run's own. Over https the session cookie is __Host-session. */
async function frontContext(browser: Browser, user?: TestUser): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
  if (user) {
    await context.addCookies([
      { name: '__Host-session', value: user.token, url: origin, secure: true, httpOnly: true, sameSite: 'Lax' },
      { name: 'signed_in', value: '1', url: origin, secure: true, sameSite: 'Lax' },
    ]);
  }
  return context;
}

/** A read of the server copy's database. */
const onCopy = <T>(work: (db: Tables) => T) => withTablesAt(server.databasePath, work);
const giveSpa = (spaId: number, ownerId: number) =>
  withTablesAt(server.databasePath, (db) => db.update(spas).set({ ownerId }).where(eq(spas.id, spaId)).run(), { write: true });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const missing = nginxMissing();
  if (missing) throw new Error(missing);
  // Publishing on change, as production runs it; behind one proxy; the public origin is the front's.
  server = await startServerCopy(
    nodePort,
    { SITE_URL: origin, TRUST_PROXY: '1', BACKGROUND_JOBS: 'on', PUBLISH_ON_CHANGE: 'on', REQUEST_LOG: 'on' },
    { ownSite: true },
  );
  // A listing change made at once, so the queue's first build carries it.
  changed = withTablesAt(
    server.databasePath,
    (db) => {
      const spa = db
        .select({ id: spas.id, slug: spas.slug, description: spas.description })
        .from(spas)
        .where(and(eq(spas.active, true), eq(spas.tier, 'ELITE')))
        .orderBy(asc(spas.id))
        .limit(1)
        .get()!;
      db.update(spas)
        .set({ description: `${spa.description ?? ''} ${marker}` })
        .where(eq(spas.id, spa.id))
        .run();
      return spa;
    },
    { write: true },
  );
  front = await startFront({ dir: join(server.dir, 'nginx'), siteDir: server.siteDir, siteUrl: origin, port: frontPort, upstreamPort: nodePort });
});

test.afterAll(async () => {
  await front?.stop();
  await server?.stop();
});

test('a listing change is on its page at once, from Node, while nginx sends every other page', async () => {
  const get = fetchFront;
  await expect.poll(async () => (await get(`/spas/${changed.slug}`)).body.includes(marker), { timeout: 10_000 }).toBe(true);
  const live = await get(`/spas/${changed.slug}`);
  // Rendered from the data: Node's answer, with its request id and the page's rules.
  expect(live.headers['x-request-id']).toMatch(/^[0-9a-f]{16}$/);
  expect(live.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(live.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  // The home page is nginx's: the build's brotli copy, no request id.
  const home = await get('/', { 'Accept-Encoding': 'br' });
  expect(home.status).toBe(200);
  expect(home.headers['content-encoding']).toBe('br');
  expect(home.headers['x-request-id']).toBeUndefined();
  expect(home.headers.server).toBe('nginx');
  expect(home.headers.etag).toBeTruthy();
  expect(home.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
});

test('the smoke walk in Chromium: home, search, a spa page, a booking, the signed-in home, a photo upload', async ({ browser }) => {
  test.setTimeout(120_000);
  const visitor = await frontContext(browser);
  const page = await visitor.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));

  const home = await page.goto('/');
  expect(home?.status()).toBe(200);
  expect(await home?.headerValue('server')).toBe('nginx');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find your trusted medical spa');

  await page.goto('/search-results?service=botox&city=irvine');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Botox/i);
  await expect(page.locator('[data-spa-card]').first()).toBeVisible();

  const other = onCopy((db) =>
    db
      .select({ slug: spas.slug, name: spas.name })
      .from(spas)
      .where(and(eq(spas.active, true), eq(spas.tier, 'PREMIUM')))
      .orderBy(asc(spas.id))
      .limit(1)
      .get()!,
  );
  const spaPage = await page.goto(`/spas/${other.slug}`);
  expect(spaPage?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(other.name);

  // A booking request from the home page's form: posted through nginx to Node, stored, acknowledged.
  const email = `front-${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/#contact');
  await hydrated(page, 'BookingForm');
  const form = page.locator('#contact form[data-booking-form]');
  await form.getByLabel('Full name').fill('Front Walker');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Request Appointment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Booking Request Submitted!' })).toBeVisible();
  expect(onCopy((db) => db.select({ id: bookings.id }).from(bookings).where(eq(bookings.email, email)).all())).toHaveLength(1);
  expect(errors).toEqual([]);
  await visitor.close();

  // The signed-in home: the same address, Node's answer for a visitor with the session cookie.
  const member = createSignedInUser({ firstName: 'Marisol' }, server.databasePath);
  const signedIn = await frontContext(browser, member);
  const memberPage = await signedIn.newPage();
  const memberHome = await memberPage.goto('/');
  expect(memberHome?.headers()['cache-control']).toBe('private, no-store');
  await expect(memberPage.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Marisol');
  await signedIn.close();

  // A photo upload (up to 10 MB through the front), then the picture it made.
  const owner = createSignedInUser({ role: 'owner' }, server.databasePath);
  const spa = onCopy((db) =>
    db
      .select({ id: spas.id })
      .from(spas)
      .where(and(eq(spas.active, true), eq(spas.tier, 'FREE'), isNull(spas.ownerId)))
      .orderBy(asc(spas.id))
      .limit(1)
      .get()!,
  );
  giveSpa(spa.id, owner.id);
  const ownerContext = await frontContext(browser, owner);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`/owner/spas/${spa.id}/photos`);
  await ownerPage
    .getByLabel('Photo', { exact: true })
    .setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: await photo(1600, 1067, 'jpeg', 27) });
  await ownerPage.getByRole('button', { name: 'Upload photo' }).click();
  await expect(ownerPage.getByRole('status')).toContainText('Photo uploaded');
  const stored = onCopy((db) =>
    db.select({ url: spaPhotos.url }).from(spaPhotos).where(eq(spaPhotos.spaId, spa.id)).orderBy(desc(spaPhotos.id)).limit(1).get(),
  );
  expect(stored!.url).toMatch(/^\/uploads\//);
  const picture = await ownerPage.request.get(stored!.url);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/webp');
  await ownerContext.close();
});

test('the header scan passes through the front', () => {
  const scan = spawnSync(process.execPath, ['scripts/scan-headers.ts', '--url', origin, '--https'], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: front.certificate },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(scan.status, `${scan.stdout}\n${scan.stderr}`).toBe(0);
  expect(scan.stdout).toContain('every header present');
});

test("a spa's open times are kept by the front for their max-age; a client moving their booking is never answered from it", async () => {
  const { spa, service } = onCopy((db) =>
    db
      .select({ spa: spas.id, service: services.id })
      .from(spas)
      .innerJoin(services, eq(services.spaId, spas.id))
      .where(and(eq(spas.active, true), eq(spas.bookingMode, 'instant'), eq(services.bookableOnline, true)))
      .orderBy(asc(spas.id), asc(services.id))
      .limit(1)
      .get()!,
  );
  // An address of its own, so no other test has asked for it.
  const path = `/api/spas/${spa}/slots?service=${service}&days=3&front-test=${Date.now()}`;
  const first = await fetchFront(path);
  expect(first.status).toBe(200);
  expect(first.headers['x-cache-status']).toBe('MISS');
  const second = await fetchFront(path);
  expect(second.headers['x-cache-status']).toBe('HIT');
  expect(second.body).toBe(first.body);
  expect(second.headers['cache-control']).toBe('public, max-age=15');
  // With a manage token the answer is one client's: Node answers every time, and nothing is kept.
  for (let i = 0; i < 2; i++) {
    const moving = await fetchFront(`${path}&booking=not-a-real-token`);
    expect(moving.status).toBe(404);
    expect(moving.headers['x-cache-status']).toBe('BYPASS');
  }
});

test('search results are kept by the front for a few seconds, for everyone alike; browsers ask again each time, and a redirect is never kept', async () => {
  // An address of its own in this front's cache.
  const path = '/search-results?city=irvine&page=7';
  const first = await fetchFront(path);
  expect(first.status).toBe(200);
  expect(first.headers['x-cache-status']).toBe('MISS');
  expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(first.body).toContain('Irvine');
  // A visitor with a session gets the same page: nothing on it is theirs.
  const second = await fetchFront(path, { Cookie: '__Host-session=not-a-real-session; signed_in=1' });
  expect(second.headers['x-cache-status']).toBe('HIT');
  expect(second.body).toBe(first.body);
  expect(second.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  // The search form's own address (page=1 is the default) is redirected to the clean one: asked of Node every time.
  for (let i = 0; i < 2; i++) {
    const redirected = await fetchFront('/search-results?city=irvine&page=1');
    expect(redirected.status).toBe(302);
    expect(redirected.headers['x-cache-status']).toBe('MISS');
  }
});

test('the access log carries no query string and no token', async () => {
  const token = 'k3j4h5g6f7d8s9a2q2w2e3r4t5y6u7i2';
  await fetchFront(`/bookings/manage/${token}?email=ana.lopez@example.com`);
  await fetchFront(`/auth/confirm?token=${token}&for=owner`);
  await expect.poll(() => front.accessLog().includes('"path":"/auth/confirm"')).toBe(true);
  const log = front.accessLog();
  expect(log).toContain('"path":"/bookings/manage/:token"');
  expect(log).not.toContain(token);
  expect(log).not.toContain('ana.lopez');
  expect(log).not.toMatch(/"path":"[^"]*\?/);
});

test('once the build lands, nginx sends the changed page from its file; a change after it is on its page at once again', async ({ browser }) => {
  test.setTimeout(240_000);
  // The queue's build: the page is a file again (nginx's ETag, no request id), with the change.
  await expect
    .poll(
      async () => {
        const page = await fetchFront(`/spas/${changed.slug}`);
        return page.headers['x-request-id'] === undefined && page.body.includes(marker);
      },
      { timeout: 220_000, intervals: [2_000] },
    )
    .toBe(true);

  // The owner changes the listing in the editor, through the front; the page shows it on the next view.
  const owner = createSignedInUser({ role: 'owner' }, server.databasePath);
  giveSpa(changed.id, owner.id);
  const context = await frontContext(browser, owner);
  const page = await context.newPage();
  await page.goto(`/owner/spas/${changed.id}`);
  const again = `Open late on Thursdays ${Date.now()}.`;
  const description = page.getByLabel('Description', { exact: true });
  await description.fill(`${await description.inputValue()} ${again}`);
  await page.getByRole('button', { name: 'Save listing' }).click();
  await expect(page.getByRole('status')).toContainText('Listing saved');
  const view = await page.goto(`/spas/${changed.slug}`);
  expect(view?.headers()['x-request-id']).toMatch(/^[0-9a-f]{16}$/);
  await expect(page.getByRole('main')).toContainText(again);
  await context.close();
});

/** GET through the front over TLS (the run's certificate), as a raw client; the body when it is not compressed. */
function fetchFront(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${origin}${path}`, { ca: readFileSync(front.certificate), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        resolve({
          status: res.statusCode!,
          headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
          body: encoding ? '' : raw.toString(),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
