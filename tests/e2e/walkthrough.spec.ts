// Departures from the spec found by the walk-through (issue 10), each pinned
// by a test that failed before its fix.
import { expect, test } from '@playwright/test';
import { query, write } from '../support/db.ts';
import { holdRequests, openMobileMenu } from '../support/e2e-steps.ts';
import { baseURL } from '../support/env.ts';
import { createSignedInUser, signIn } from '../support/sessions.ts';

test.describe('signed in, About leads somewhere', () => {
  test('the member home has #about, reached from the navigation and the footer', async ({ page, context }) => {
    await signIn(context, createSignedInUser({ firstName: 'Noor' }));
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
    const [service] = query<{ slug: string }>('select p.slug from services s join spas p on p.id = s.spa_id where s.id = ?', Number(id));
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

  test('shows the loading placeholder, not Sign In and Book Now, until the lookup returns', async ({ page, context }) => {
    await signIn(context, createSignedInUser({ firstName: 'Lea', lastName: 'Park' }));
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
  });
});

test.describe('owner dashboard: a failed session check', () => {
  const notifications = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Notifications (F8)' });

  test('is a destructive toast, for an expired session', async ({ page, context }) => {
    const user = createSignedInUser({ role: 'owner' });
    await signIn(context, user);
    write('update sessions set expires_at = ? where id = ?', Date.now() - 1000, user.token.split('.')[0]);
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
  type Spa = { id: number; slug: string; website: string; booking_link: string; phone: string };
  const premium = () =>
    query<Spa>(
      "select id, slug, website, booking_link, phone from spas where active = 1 and tier = 'PREMIUM' and website is not null and booking_link is not null order by id limit 1",
    )[0]!;
  // The tests in this block run side by side on the same spa, so each counts only the clicks made from its own page.
  const clicksOf = (spaId: number, target: string, fromPage: string) =>
    query<{ url: string; ip_hash: string | null; referer: string | null }>(
      'select url, ip_hash, referer from clicks where spa_id = ? and target_url = ? and url = ?',
      spaId,
      target,
      fromPage,
    );

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
    expect(row.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.referer).toBeNull();

    await page.goto(`/spas/${spa.slug}`);
    const booking = page.locator('main [data-book-link]').first();
    const bookingBefore = clicksOf(spa.id, spa.booking_link, spaPage).length;
    await booking.click();
    await expect.poll(() => clicksOf(spa.id, spa.booking_link, spaPage).length).toBe(bookingBefore + 1);

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
    const [city] = query<{ slug: string }>('select c.slug from cities c join spas s on s.city_id = c.id where s.id = ?', spa.id);
    await page.goto(`/search-results?city=${city!.slug}`);
    const card = page.locator(`[data-spa-card][data-spa-id="${spa.id}"]`);
    // The click records the page's path without its query.
    const before = clicksOf(spa.id, spa.booking_link, '/search-results').length;
    await card.locator('[data-book-link]').click();
    await expect.poll(() => clicksOf(spa.id, spa.booking_link, '/search-results').length).toBe(before + 1);
  });

  test('without JavaScript the links are the same plain links', async ({ browser }) => {
    const spa = premium();
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${baseURL}/spas/${spa.slug}`);
      await expect(page.locator('main [data-book-link]').first()).toHaveAttribute('href', spa.booking_link);
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
    const [free] = query<{ id: number }>("select id from spas where active = 1 and tier = 'FREE' order by id limit 1");
    expect((await post({ spaId: free!.id, kind: 'booking' })).status()).toBe(422);
    expect((await request.post('/api/clicks', { data: 'spaId=1', headers: { 'Content-Type': 'text/plain' } })).status()).toBe(415);
    expect((await post({ spaId: spa.id, kind: 'phone', page: `/${'a'.repeat(2000)}` })).status()).toBe(413);
    expect((await post({ spaId: spa.id, kind: 'phone' }, { Origin: 'https://evil.example' })).status()).toBe(403);
  });
});
