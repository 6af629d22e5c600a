// Departures from the spec found by the walk-through (issue 10), each pinned
// by a test that failed before its fix.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { cities, clicks, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { holdRequests, openMobileMenu } from '../support/e2e-steps.ts';
import { baseURL } from '../support/env.ts';
import { expect, expireSession, test } from '../support/fixtures.ts';
import { firstSpaOfTier } from '../support/spas.ts';

test.describe('signed in, About leads somewhere', () => {
  test('the member home has #about, reached from the navigation and the footer', async ({ page, signedIn }) => {
    await signedIn('client', { firstName: 'Noor' });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Noor');
    await expect(page.locator('#about')).toHaveCount(1);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About', exact: true }).click();
    await expect(page).toHaveURL(/\/#about$/);
    await expect(page.locator('#about')).toBeInViewport();

    await page.goto('/privacy-policy');
    await page.getByRole('contentinfo').getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/#about$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Noor');
    await expect(page.locator('#about')).toBeInViewport();
  });
});

test.describe('home', () => {
  test('the services grid shows service cards with Learn More, and keeps the treatment tiles below', async ({ page }) => {
    await page.goto('/');
    const grid = page.getByRole('region', { name: 'Featured services' });
    const cards = grid.locator('[data-service-card]');
    await expect(cards).toHaveCount(6);
    const categories = await cards.locator('[data-category]').allTextContents();
    expect(new Set(categories).size).toBe(6);
    const first = cards.first();
    const id = await first.getAttribute('data-service-id');
    const service = db
      .select({ slug: spas.slug })
      .from(services)
      .innerJoin(spas, eq(spas.id, services.spaId))
      .where(eq(services.id, Number(id)))
      .get();
    await expect(first.getByRole('link', { name: /^Learn More/ })).toHaveAttribute('href', `/spas/${service!.slug}#service-${id}`);
    await expect(grid.getByRole('link', { name: /^Book Now/ })).toHaveCount(0);
    // The eight treatment tiles stay, below the cards.
    await expect(page.getByRole('region', { name: 'Popular treatments' }).getByRole('listitem')).toHaveCount(8);
    await first.getByRole('link', { name: /^Learn More/ }).click();
    await expect(page).toHaveURL(new RegExp(`/spas/${service!.slug}#service-${id}$`));
  });

  test('shows the brand line, premier medical spa destination', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('main')).toContainText('The premier medical spa destination in Orange County');
  });
});

test.describe('the mobile sheet of a signed-in visitor', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('shows the loading placeholder, not Sign In and Book Now, until the lookup returns', async ({ page, signedIn }) => {
    await signedIn('client', { firstName: 'Lea', lastName: 'Park' });
    const release = await holdRequests(page, '**/api/auth/user');
    const sheet = await openMobileMenu(page, '/privacy-policy');
    await expect(sheet.getByRole('img', { name: 'Loading your account' })).toBeVisible();
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toBeHidden();
    await expect(sheet.getByRole('link', { name: 'Book Now' })).toBeHidden();
    release();
    await expect(sheet).toContainText('Lea Park');
    await expect(sheet.getByRole('img', { name: 'Loading your account' })).toBeHidden();
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toBeHidden();
  });

  test('falls back to Sign In when the lookup says signed out', async ({ page, context }) => {
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL }]);
    const sheet = await openMobileMenu(page, '/privacy-policy');
    await expect(sheet.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(sheet.getByRole('img', { name: 'Loading your account' })).toBeHidden();
    // The stale hint is forgotten (by the lookup's 401), so the next page does not ask again.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('signed_in');
  });
});

test.describe('owner dashboard: a failed session check', () => {
  const notifications = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Notifications (F8)' });

  test('is a destructive toast, for an expired session', async ({ page, signedIn }) => {
    const user = await signedIn('owner');
    expireSession(user.token);
    const response = await page.goto('/owner/dashboard');
    expect(response?.status()).toBe(401);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authentication required');
    const alert = notifications(page).getByRole('alert');
    await expect(alert).toContainText('Authentication Error');
    await expect(alert).toContainText('Unable to verify your session. Please log in again.');
    // No longer an inline box beside the heading: the toast is the one alert.
    await expect(page.getByRole('alert')).toHaveCount(1);
  });

  test('is a toast too when only the signed-in hint is left', async ({ page, context }) => {
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL }]);
    await page.goto('/owner/dashboard');
    await expect(notifications(page).getByRole('alert')).toContainText('Unable to verify your session. Please log in again.');
  });
});

test.describe('outbound clicks', () => {
  const premium = () => {
    const spa = db
      .select({ id: spas.id, slug: spas.slug, website: spas.website, bookingLink: spas.bookingLink, phone: spas.phone, citySlug: cities.slug })
      .from(spas)
      .innerJoin(cities, eq(cities.id, spas.cityId))
      .where(and(eq(spas.active, true), eq(spas.tier, 'PREMIUM'), isNotNull(spas.website), isNotNull(spas.bookingLink)))
      .orderBy(asc(spas.id))
      .limit(1)
      .get()!;
    // Chosen for having both links.
    return { ...spa, website: spa.website!, bookingLink: spa.bookingLink! };
  };
  // The tests in this block run side by side on the same spa, so each counts only the clicks made from its own page.
  const clicksOf = (spaId: number, target: string, fromPage: string) =>
    db
      .select({ url: clicks.url, ipHash: clicks.ipHash, referer: clicks.referer })
      .from(clicks)
      .where(and(eq(clicks.spaId, spaId), eq(clicks.targetUrl, target), eq(clicks.url, fromPage)))
      .all();

  test.beforeEach(async ({ page }) => {
    // The outside sites are not reachable here: answer them with a blank page.
    await page.route(/^https:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>elsewhere</title>' }));
  });

  test('a spa page records website, booking and directions clicks, and the links still lead out', async ({ page }) => {
    const spa = premium();
    const spaPage = `/spas/${spa.slug}`;
    const before = clicksOf(spa.id, spa.website, spaPage).length;
    await page.goto(`/spas/${spa.slug}`);
    const website = page.getByRole('main').locator(`a[href="${spa.website}"]`);
    await expect(website).toHaveAttribute('data-click-kind', 'website');
    await website.click();
    await page.waitForURL((url) => url.origin === new URL(spa.website).origin);
    await expect.poll(() => clicksOf(spa.id, spa.website, spaPage).length).toBe(before + 1);
    const row = clicksOf(spa.id, spa.website, spaPage).at(-1)!;
    expect(row.ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.referer).toBeNull();

    await page.goto(`/spas/${spa.slug}`);
    const booking = page.locator('main [data-book-link]').first();
    const bookingBefore = clicksOf(spa.id, spa.bookingLink, spaPage).length;
    await booking.click();
    await expect.poll(() => clicksOf(spa.id, spa.bookingLink, spaPage).length).toBe(bookingBefore + 1);

    await page.goto(`/spas/${spa.slug}`);
    const directions = page.locator('main a[data-click-kind="directions"]');
    const target = (await directions.getAttribute('href'))!;
    expect(target).toMatch(/^https:\/\/www\.google\.com\/maps\//);
    const directionsBefore = clicksOf(spa.id, target, spaPage).length;
    await directions.click();
    await expect.poll(() => clicksOf(spa.id, target, spaPage).length).toBe(directionsBefore + 1);
  });

  test('a spa card in search results records its booking link', async ({ page }) => {
    const spa = premium();
    await page.goto(`/search-results?city=${spa.citySlug}`);
    const card = page.locator(`[data-spa-card][data-spa-id="${spa.id}"]`);
    // The click records the page's path without its query.
    const before = clicksOf(spa.id, spa.bookingLink, '/search-results').length;
    await card.locator('[data-book-link]').click();
    await expect.poll(() => clicksOf(spa.id, spa.bookingLink, '/search-results').length).toBe(before + 1);
  });

  test('without JavaScript the links are the same plain links', async ({ browser }) => {
    const spa = premium();
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${baseURL}/spas/${spa.slug}`);
      await expect(page.locator('main [data-book-link]').first()).toHaveAttribute('href', spa.bookingLink);
      await expect(page.getByRole('main').locator(`a[href="${spa.website}"]`)).toHaveCount(1);
      await expect(page.locator('main a[data-click-kind="phone"]').first()).toHaveAttribute('href', /^tel:\+1\d{10}$/);
    } finally {
      await context.close();
    }
  });

  test('POST /api/clicks validates spa and kind and stores nothing else', async ({ request }) => {
    const spa = premium();
    const post = (data: unknown, headers: Record<string, string> = {}) => request.post('/api/clicks', { data: data as object, headers });
    expect((await post({ spaId: spa.id, kind: 'phone', page: `/spas/${spa.slug}` })).status()).toBe(202);
    expect((await post({ spaId: spa.id, kind: 'email' })).status()).toBe(422);
    expect((await post({ spaId: 'x', kind: 'phone' })).status()).toBe(422);
    expect((await post({ spaId: 987654321, kind: 'phone' })).status()).toBe(404);
    const free = firstSpaOfTier('FREE');
    expect((await post({ spaId: free.id, kind: 'booking' })).status()).toBe(422);
    expect((await request.post('/api/clicks', { data: 'spaId=1', headers: { 'Content-Type': 'text/plain' } })).status()).toBe(415);
    expect((await post({ spaId: spa.id, kind: 'phone', page: `/${'a'.repeat(2000)}` })).status()).toBe(413);
    expect((await post({ spaId: spa.id, kind: 'phone' }, { Origin: 'https://evil.example' })).status()).toBe(403);
  });
});
