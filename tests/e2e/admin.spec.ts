// The editors' desk and publishing on change, in Chromium: an owner adds a
// listing, an editor approves it, the owner's dashboard goes from "Awaiting
// review" through "Publishing…" to "Live" and the spa page appears on the
// public site after the queue's rebuild; a rejection mails the owner the
// reason; the desk's pages and the dashboard pass axe; screenshots of the
// dashboard at 375 and 1280 px.
import type { Browser, Page } from '@playwright/test';
import { axeBuilder } from '../support/axe.ts';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq, like } from 'drizzle-orm';
import { analyticsEvents, cities, spas, users } from '#db/schema.ts';
import { createSession } from '#lib/server/auth/sessions.ts';
import { db } from '#lib/server/db.ts';
import { withTablesAt, type Tables } from '../support/database.ts';
import { visit } from '../support/csp.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { decodeQuotedPrintable, messageInOutbox } from '../support/outbox.ts';
import { copyPort, startServerCopy, type ServerCopy } from '../support/server-copy.ts';
import { createSignedInUser, type TestUser } from '../support/sessions.ts';
import { AXE_TAGS } from '#tests/support/axe.ts';

const axe = async (page: Page) =>
  (await axeBuilder(page).withTags(AXE_TAGS).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

async function signedInPage(browser: Browser, url: string, user: Pick<TestUser, 'token'>, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, viewport });
  await context.addCookies([
    { name: 'session', value: user.token, url, httpOnly: true, sameSite: 'Lax' },
    { name: 'signed_in', value: '1', url, sameSite: 'Lax' },
  ]);
  return context.newPage();
}

test.describe('publishing on change, on a server of its own', () => {
  test.describe.configure({ mode: 'serial' });
  // Two builds of the demo site on a busy 2-core machine.
  test.setTimeout(300_000);
  let server: ServerCopy;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    server = await startServerCopy(copyPort(173), { BACKGROUND_JOBS: 'on', PUBLISH_ON_CHANGE: 'on' }, { ownSite: true });
    // The copied database may be ahead of the copied build (other tests write fixtures): let the queue catch up first.
    await expect
      .poll(async () => (await (await fetch(`${server.url}/readyz`)).json()).lastRebuild?.ok !== false && queueIdle(server), {
        timeout: 240_000,
        intervals: [1_000],
      })
      .toBe(true);
  });
  test.afterAll(async () => {
    if (!server || server.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
    server.stop();
    // A build the queue started may hold the server past its 8 s drain; never leave it running.
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  });

  test('pending listing -> approved -> Publishing… -> live on the public site; the audit log says who', async ({ browser }) => {
    const owner = createSignedInUser({ role: 'client' }, server.databasePath);
    const admin = createSignedInUser({ role: 'admin' }, server.databasePath);
    const name = `Tidewater Skin Studio ${Date.now()}`;

    // The owner adds a listing from the dashboard (a plain form post).
    const ownerPage = await signedInPage(browser, server.url, owner);
    await ownerPage.goto('/owner/dashboard');
    await ownerPage.getByLabel('Spa name').fill(name);
    await ownerPage.getByLabel('City').selectOption({ label: 'Irvine' });
    await ownerPage.getByRole('button', { name: 'Add New Spa' }).click();
    await expect(ownerPage.locator('[data-dashboard-notice]')).toContainText('An editor reviews it');
    const card = ownerPage.locator('[data-spa-id]', { has: ownerPage.getByRole('heading', { name }) });
    await expect(card.locator('[data-publish-state]')).toHaveAttribute('data-publish-state', 'awaiting-review');
    await expect(card).toContainText('Awaiting review');
    await expect(card).toContainText('FREE');
    const spa = readOne(server, (copy) => copy.select({ id: spas.id, slug: spas.slug }).from(spas).where(eq(spas.name, name)).get());
    expect((await fetch(`${server.url}/spas/${spa.slug}`)).status).toBe(404);

    // The editor approves it.
    const adminPage = await signedInPage(browser, server.url, admin);
    await adminPage.goto('/admin');
    const review = adminPage.locator(`[data-review-spa="${spa.id}"]`);
    await expect(review).toContainText(owner.email);
    await review.getByRole('button', { name: `Approve ${name}` }).click();
    await expect(adminPage.locator('[data-admin-notice]')).toContainText('Listing approved');
    await expect(adminPage.locator(`[data-review-spa="${spa.id}"]`)).toHaveCount(0);

    // Its page is up at once, rendered from the data; no build has carried it yet.
    const buildBefore = (await fetch(`${server.url}/`)).headers.get('x-site-build');
    const first = await fetch(`${server.url}/spas/${spa.slug}`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain(name);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');

    // The owner sees it publishing: the page is live, the lists follow in a named build.
    await ownerPage.reload();
    await expect(card.locator('[data-publish-state]')).toHaveAttribute('data-publish-state', 'publishing');
    await expect(card.locator('[data-publish-detail]')).toContainText('Your page shows it now; the directory’s lists follow.');
    await expect(card.locator('[data-publish-detail]')).toContainText(
      /(In the next build|In the build running now) \(content version \d+\); live by about \d{1,2}:\d\d:\d\d [AP]M Pacific/,
    );

    // The queue builds it without anyone running a command: its city page lists it, and the spa page is the build's file.
    await expect.poll(async () => (await fetch(`${server.url}/`)).headers.get('x-site-build'), { timeout: 200_000, intervals: [1_000] }).not.toBe(buildBefore);
    const city = readOne(server, (copy) =>
      copy.select({ slug: cities.slug }).from(cities).innerJoin(spas, eq(spas.cityId, cities.id)).where(eq(spas.id, spa.id)).get(),
    );
    await expect
      .poll(async () => (await (await fetch(`${server.url}/cities/${city.slug}`)).text()).includes(name), { timeout: 200_000, intervals: [1_000] })
      .toBe(true);
    const page = await fetch(`${server.url}/spas/${spa.slug}`);
    expect(await page.text()).toContain(name);
    // The build's file (it has an ETag) once a front may no longer hold the replaced build's (FRONT_FILE_CACHE_SECONDS).
    await expect.poll(async () => (await fetch(`${server.url}/spas/${spa.slug}`)).headers.get('etag'), { timeout: 10_000 }).toBeTruthy();
    await expect
      .poll(
        async () => {
          await ownerPage.reload();
          return card.locator('[data-publish-state]').getAttribute('data-publish-state');
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe('live');
    await expect(card.getByRole('link', { name: /View public page/ })).toHaveAttribute('href', `/spas/${spa.slug}`);

    // The desk shows the build being served; the audit log names the editor.
    const served = (await fetch(`${server.url}/`)).headers.get('x-site-build');
    await adminPage.goto('/admin');
    await expect(adminPage.locator('[data-current-build]')).toHaveAttribute('data-current-build', served!);
    await adminPage.goto('/admin/audit');
    const row = adminPage.locator('[data-audit-row][data-action="approve"]', { hasText: name });
    await expect(row).toContainText(admin.email);
    await expect(row).toContainText('Approved');
    await ownerPage.context().close();
    await adminPage.context().close();
  });

  test('a spa page rendered while its change waits for the build: the change shows, the policy holds, the island wakes', async ({ browser }) => {
    const spa = readOne(server, (copy) =>
      copy
        .select({ id: spas.id, slug: spas.slug, description: spas.description })
        .from(spas)
        .where(and(eq(spas.active, true), eq(spas.tier, 'PREMIUM')))
        .orderBy(asc(spas.id))
        .limit(1)
        .get(),
    );
    const marker = `Now with a quiet room for consultations ${Date.now()}.`;
    withTablesAt(
      server.databasePath,
      (copy) =>
        copy
          .update(spas)
          .set({ description: `${spa.description ?? ''} ${marker}` })
          .where(eq(spas.id, spa.id))
          .run(),
      { write: true },
    );
    // Rendered, not the build's file (which has an ETag), and kept like a page.
    // Written straight to the database here, the change is marked unpublished
    // by the rebuild queue within half a second; a change through the app is
    // marked by its own request (src/middleware.ts).
    let answer = await fetch(`${server.url}/spas/${spa.slug}`);
    await expect
      .poll(async () => {
        answer = await fetch(`${server.url}/spas/${spa.slug}`);
        return answer.headers.get('etag');
      })
      .toBeNull();
    expect(answer.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const html = await answer.text();
    expect(html).toContain(marker);
    expect(html).toContain(`<link rel="canonical" href="${baseURL}/spas/${spa.slug}"`);
    // Only the server may ask for the rendering path itself.
    expect((await fetch(`${server.url}/spas/_fresh/${spa.slug}`, { headers: { 'x-medspa-fresh-page': '1' } })).status).toBe(404);
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations = await visit(page, `/spas/${spa.slug}`);
    expect(violations).toEqual([]);
    await expect(page.getByRole('main')).toContainText(marker);
    // The booking island is the build's code: using its form woke it (visit focused the first field).
    await expect(page.locator('main astro-island', { has: page.locator('form') }).first()).not.toHaveAttribute('ssr');
    expect(await axe(page)).toEqual([]);
    await context.close();
  });

  test('"Rebuild now" publishes a new build; a failed build is shown with its log', async ({ browser }) => {
    const admin = createSignedInUser({ role: 'admin' }, server.databasePath);
    const adminPage = await signedInPage(browser, server.url, admin);
    const before = (await fetch(`${server.url}/`)).headers.get('x-site-build');
    await adminPage.goto('/admin');
    await adminPage.getByRole('button', { name: 'Rebuild now' }).click();
    await expect(adminPage.locator('[data-admin-notice]')).toContainText('Rebuild asked for');
    await expect.poll(async () => (await fetch(`${server.url}/`)).headers.get('x-site-build'), { timeout: 200_000, intervals: [1_000] }).not.toBe(before);

    // What the desk shows when the last build failed (written as publish.ts writes it).
    writeFileSync(
      join(server.siteDir, 'last-rebuild.json'),
      JSON.stringify({
        ok: false,
        at: new Date().toISOString(),
        buildId: 'broken-build',
        durationMs: 1200,
        error: 'astro: [build] Could not render /spas/x\nTypeError: boom',
      }),
    );
    await adminPage.goto('/admin');
    const failure = adminPage.locator('[data-last-failure]');
    await expect(failure).toContainText('The last build failed; the previous site stays live');
    await expect(failure.locator('pre')).toContainText('TypeError: boom');
    expect(await axe(adminPage)).toEqual([]);
    await adminPage.context().close();
  });
});

function queueIdle(server: ServerCopy): boolean {
  try {
    const state = JSON.parse(readFileSync(join(server.siteDir, 'rebuild-queue.json'), 'utf8')) as { status: string };
    return state.status === 'idle';
  } catch {
    return false;
  }
}

/** One row of the server copy's database, which must be there. */
function readOne<T>(server: ServerCopy, read: (db: Tables) => T | undefined): T {
  return withTablesAt(server.databasePath, read)!;
}

test.describe('the editors’ desk on the suite’s server', () => {
  const TAG = `admin-e2e-${Date.now()}`;
  let owner: TestUser;
  let admin: TestUser;
  let spaId = 0;

  test.beforeAll(() => {
    owner = createSignedInUser({ role: 'owner', firstName: 'Marisol', lastName: 'Vega' });
    admin = createSignedInUser({ role: 'admin', firstName: 'Edith', lastName: 'Moreno' });
    const city = db.select({ id: cities.id }).from(cities).where(eq(cities.slug, 'irvine')).get()!.id;
    spaId = db
      .insert(spas)
      .values({ name: `Rejectable ${TAG}`, slug: `${TAG}-rejectable`, cityId: city, ownerId: owner.id, active: false, reviewStatus: 'pending' })
      .returning({ id: spas.id })
      .get().id;
  });
  test.afterAll(() =>
    db
      .delete(spas)
      .where(like(spas.slug, `${TAG}-%`))
      .run(),
  );

  test('reject needs a reason, and the owner is mailed it', async ({ browser, request }) => {
    // Three pages and a mail on a machine shared by five test runs: a time budget, not a looser check.
    test.setTimeout(120_000);
    // Without a reason (the browser's required check skipped): refused in place, nothing changes.
    const empty = await request.post('/admin', {
      headers: { Origin: baseURL, Cookie: `session=${admin.token}` },
      form: { intent: 'reject', id: String(spaId), reason: ' ' },
      maxRedirects: 0,
    });
    expect(empty.status()).toBe(422);
    expect(await empty.text()).toContain('Give the owner a reason');
    expect(db.select({ reviewStatus: spas.reviewStatus }).from(spas).where(eq(spas.id, spaId)).get()!.reviewStatus).toBe('pending');

    const page = await signedInPage(browser, baseURL, admin);
    await page.goto('/admin');
    const review = page.locator(`[data-review-spa="${spaId}"]`);
    const reason = 'We could not confirm a medical director for this spa. Add their name and licence number, then ask again.';
    await review.getByLabel(/Reason for the owner/).fill(reason);
    await review.getByRole('button', { name: `Reject Rejectable ${TAG}` }).click();
    await expect(page.locator('[data-admin-notice]')).toContainText('Listing rejected');

    // The subject carries the listing's name between typographic quotes, so it is encoded in the file: match the recipient.
    const mail = decodeQuotedPrintable(await messageInOutbox(owner.email));
    expect(mail).toContain('Your listing was not approved');
    expect(mail).toContain(reason);
    expect(mail).toContain('/owner/dashboard');

    // The owner's dashboard says so, with the editor's note.
    const ownerPage = await signedInPage(browser, baseURL, owner);
    await ownerPage.goto('/owner/dashboard');
    const card = ownerPage.locator(`[data-spa-id="${spaId}"]`);
    await expect(card.locator('[data-publish-state]')).toHaveAttribute('data-publish-state', 'rejected');
    await expect(card).toContainText(reason);
    await page.context().close();
    await ownerPage.context().close();
  });

  test('signed out: the sign-in view with 401; owners and clients: not found', async ({ request, person }) => {
    const out = await request.get('/admin', { maxRedirects: 0 });
    expect(out.status()).toBe(401);
    expect(await out.text()).toContain('Authentication Required');
    for (const role of ['client', 'owner'] as const) {
      const user = role === 'owner' ? owner : person(role);
      const response = await request.get('/admin', { headers: { Cookie: `session=${user.token}` } });
      expect(response.status(), role).toBe(404);
      expect(await response.text(), role).not.toContain('Rebuild now');
    }
  });

  for (const width of [375, 1280]) {
    test(`the desk and the dashboard have no axe violations at ${width}px; dashboard screenshot`, async ({ browser }) => {
      test.setTimeout(120_000);
      const page = await signedInPage(browser, baseURL, admin, { width, height: 900 });
      for (const path of ['/admin', '/admin/audit', '/admin/requests']) {
        await page.goto(path);
        expect(await axe(page), path).toEqual([]);
      }
      await page.context().close();

      // The demo owner's dashboard, with page views stored over the last weeks (as the spa page's beacon stores them).
      const demoOwner = db.select({ id: users.id }).from(users).where(eq(users.email, 'demo-owner@example.com')).get()!;
      const demoSpa = db.select({ id: spas.id }).from(spas).where(eq(spas.ownerId, demoOwner.id)).orderBy(asc(spas.id)).limit(1).get()!;
      const marker = `${TAG}-${width}`;
      let expectedViews = 0;
      for (let day = 0; day < 30; day++) {
        const views = ((day * 7) % 5) + (day % 6 === 0 ? 4 : 0);
        for (let i = 0; i < views; i++) {
          db.insert(analyticsEvents)
            .values({
              eventType: 'view',
              entityType: 'spa',
              entityId: String(demoSpa.id),
              sessionId: marker,
              occurredAt: new Date(Date.now() - day * 86_400_000 - i * 60_000),
            })
            .run();
          expectedViews++;
        }
      }
      try {
        const ownerPage = await signedInPage(browser, baseURL, createSession(demoOwner.id), { width, height: 900 });
        await ownerPage.goto('/owner/dashboard');
        const card = ownerPage.locator(`[data-spa-id="${demoSpa.id}"]`);
        // At least the views stored here (the other width's test may have added its own).
        expect(Number(await card.locator('[data-spa-stat="views"]').textContent())).toBeGreaterThanOrEqual(expectedViews);
        await expect(card.locator('[data-views-chart] title')).toHaveText(/visits in the last 30 days; the busiest day was/);
        expect(await axe(ownerPage)).toEqual([]);
        mkdirSync(test.info().outputDir, { recursive: true });
        await ownerPage.screenshot({ path: join(test.info().outputDir, `dashboard-${width}.png`), fullPage: true });
        await card.screenshot({ path: join(test.info().outputDir, `dashboard-card-${width}.png`) });
        await ownerPage.context().close();
      } finally {
        db.delete(analyticsEvents).where(eq(analyticsEvents.sessionId, marker)).run();
      }
    });
  }
});
