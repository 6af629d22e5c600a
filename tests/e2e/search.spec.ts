import type { Page } from '@playwright/test';
import { providersFoundHeading } from '#lib/search-heading.ts';
import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import { cities, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { tierWeight } from '../support/db.ts';
import { holdRequests } from '../support/e2e-steps.ts';
import { expect, test } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';

const spasMatching = (city?: string, service?: string) =>
  db
    .select({ id: spas.id, name: spas.name, tier: spas.tier, bookingLink: spas.bookingLink, socialFeedUrl: spas.socialFeedUrl, createdAt: spas.createdAt })
    .from(spas)
    .innerJoin(cities, eq(cities.id, spas.cityId))
    .where(
      and(
        eq(spas.active, true),
        city ? eq(cities.slug, city) : undefined,
        service
          ? exists(
              db
                .select({ id: services.id })
                .from(services)
                .where(
                  and(eq(services.spaId, spas.id), eq(services.active, true), or(eq(services.treatment, service), eq(sql`lower(${services.name})`, service))),
                ),
            )
          : undefined,
      ),
    )
    .all();

const cardNames = (page: Page) => page.locator('#search-results [data-spa-card] h3').allTextContents();

test('results are rendered on the server, in tier order then newest, with the count', async ({ page }) => {
  const expected = spasMatching('newport-beach').sort(
    (a, b) => tierWeight(b.tier) - tierWeight(a.tier) || b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  await page.goto('/search-results?city=newport-beach');
  await expect(page.getByRole('heading', { name: providersFoundHeading(expected.length) })).toBeVisible();
  expect((await cardNames(page)).map((n) => n.trim())).toEqual(expected.map((s) => s.name));
});

test('a treatment filter keeps only spas offering it', async ({ page }) => {
  const expected = spasMatching('irvine', 'botox');
  await page.goto('/search-results?service=botox&city=irvine');
  await expect(page.getByRole('heading', { name: providersFoundHeading(expected.length) })).toBeVisible();
  expect((await cardNames(page)).sort()).toEqual(expected.map((s) => s.name).sort());
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the filter form still searches', async ({ page }) => {
    await page.goto('/search-results');
    await page.getByLabel('Location').selectOption('laguna-beach');
    await page.getByRole('button', { name: 'Update Results' }).click();
    await expect(page).toHaveURL(/\/search-results\?city=laguna-beach$/);
    const expected = spasMatching('laguna-beach');
    await expect(page.getByRole('heading', { name: providersFoundHeading(expected.length) })).toBeVisible();
  });
});

test('Update Results rewrites the URL and shows six skeleton cards while results load', async ({ page }) => {
  await page.goto('/search-results');
  await hydrated(page, 'SearchFilters');
  const release = await holdRequests(page, '**/search-results?*');
  await page.getByLabel('Treatment').selectOption('hydrafacial');
  await page.getByLabel('Location').selectOption('irvine');
  await page.getByRole('button', { name: 'Update Results' }).click();
  await expect(page).toHaveURL(/\/search-results\?service=hydrafacial&city=irvine$/);
  await expect(page.locator('#search-results [data-skeleton-card]')).toHaveCount(6);
  await expect(page.locator('#search-results [data-results-heading]')).toHaveText('Searching...');
  release();
  const expected = spasMatching('irvine', 'hydrafacial');
  await expect(page.getByRole('heading', { name: providersFoundHeading(expected.length) })).toBeVisible();
  await expect(page.locator('#search-results [data-skeleton-card]')).toHaveCount(0);
  expect((await cardNames(page)).sort()).toEqual(expected.map((s) => s.name).sort());
  // The page did not reload: the island is still the same element.
  await page.goBack();
  await expect(page).toHaveURL(/\/search-results$/);
  await expect(page.getByLabel('Treatment')).toHaveValue('all-services');
});

test('an empty result offers View All Providers, which resets both filters', async ({ page }) => {
  await page.goto('/search-results?service=no-such-treatment&city=dana-point');
  await expect(page.getByRole('heading', { name: '0 Distinguished Providers Found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No Providers Found' })).toBeVisible();
  await page.getByRole('link', { name: 'View All Providers' }).click();
  await expect(page).toHaveURL(/\/search-results$/);
  await expect(page.getByLabel('Treatment')).toHaveValue('all-services');
  await expect(page.getByLabel('Location')).toHaveValue('all-cities');
  const total = spasMatching().length;
  await expect(page.getByRole('heading', { name: `${total} Distinguished Providers Found` })).toBeVisible();
});

test('each card shows Book Now only when the tier allows a booking link and one is set, else Inquire', async ({ page }) => {
  const rows = new Map(spasMatching().map((s) => [s.id, s]));
  const cards = page.locator('#search-results [data-spa-card]');
  let sawBook = 0;
  let sawInquire = 0;
  // The first two pages: Elite spas fill the first, and they all have a booking link.
  for (const path of ['/search-results', '/search-results?page=2']) {
    await page.goto(path);
    const count = await cards.count();
    expect(count).toBe(12);
    for (let i = 0; i < count; i++) {
      const card = cards.nth(i);
      const spa = rows.get(Number(await card.getAttribute('data-spa-id')))!;
      const allowsLinks = spa.tier !== 'FREE';
      if (allowsLinks && spa.bookingLink) {
        await expect(card.locator('[data-book-link]')).toHaveAttribute('href', spa.bookingLink);
        await expect(card.locator('[data-inquire-link]')).toHaveCount(0);
        sawBook++;
      } else {
        await expect(card.locator('[data-book-link]')).toHaveCount(0);
        await expect(card.locator('[data-inquire-link]')).toHaveAttribute('href', `/booking?spa=${spa.id}`);
        sawInquire++;
      }
      await expect(card.locator('[data-social-link]')).toHaveCount(allowsLinks && spa.socialFeedUrl ? 1 : 0);
      const description = (await card.locator('p').first().textContent()) ?? '';
      expect(description.length).toBeLessThanOrEqual(121);
    }
  }
  expect(sawBook).toBeGreaterThan(0);
  expect(sawInquire).toBeGreaterThan(0);
});

test('a FREE spa never shows a booking or social link, even when the database has one', async ({ page }) => {
  const free = db
    .select({ id: spas.id, bookingLink: spas.bookingLink, socialFeedUrl: spas.socialFeedUrl, socialPlatform: spas.socialPlatform, city: cities.slug })
    .from(spas)
    .innerJoin(cities, eq(cities.id, spas.cityId))
    .where(and(eq(spas.tier, 'FREE'), eq(spas.active, true)))
    .orderBy(asc(spas.id))
    .limit(1)
    .get();
  // Search results are rendered on request, so a change in the database shows at once.
  db.update(spas)
    .set({ bookingLink: 'https://example.com/book', socialFeedUrl: 'https://instagram.com/x', socialPlatform: 'instagram' })
    .where(eq(spas.id, free!.id))
    .run();
  try {
    // Its city's free spas fit one page.
    await page.goto(`/search-results?city=${free!.city}&tier=free`);
    const card = page.locator(`[data-spa-card][data-spa-id="${free!.id}"]`);
    await expect(card).toBeVisible();
    await expect(card.locator('[data-inquire-link]')).toHaveAttribute('href', `/booking?spa=${free!.id}`);
    await expect(card.locator('[data-book-link], [data-social-link]')).toHaveCount(0);
  } finally {
    // Back to what it had, not to empty links: other tests compare cards with what the database holds.
    const { id, city: _city, ...links } = free!;
    db.update(spas).set(links).where(eq(spas.id, id)).run();
  }
});

test('/client/* is the same search screen', async ({ page }) => {
  const response = await page.goto('/client/anything/here?city=anaheim');
  expect(response?.status()).toBe(200);
  const expected = spasMatching('anaheim');
  await expect(page.getByRole('heading', { name: providersFoundHeading(expected.length) })).toBeVisible();
});

test('results are paged 12 at a time with working links', async ({ page }) => {
  const total = spasMatching().length;
  expect(total).toBeGreaterThan(24);
  await page.goto('/search-results');
  await expect(page.locator('#search-results [data-spa-card]')).toHaveCount(12);
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator('#search-results [data-spa-card]')).toHaveCount(12);
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=3/);
  await expect(page.locator('#search-results [data-spa-card]')).toHaveCount(Math.min(12, total - 24));
});
