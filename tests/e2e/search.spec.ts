import { expect, test, type Page } from '@playwright/test';
import { providersFoundHeading } from '#lib/search-heading.ts';
import { query, tierWeight, write } from '../support/db.ts';
import { holdRequests } from '../support/e2e-steps.ts';
import { hydrated } from '../support/islands.ts';

interface SpaRow {
  id: number;
  name: string;
  tier: string;
  booking_link: string | null;
  social_feed_url: string | null;
  created_at: number;
}

const spasMatching = (city?: string, service?: string) =>
  query<SpaRow>(
    `select s.id, s.name, s.tier, s.booking_link, s.social_feed_url, s.created_at from spas s join cities c on c.id = s.city_id
     where s.active = 1 ${city ? 'and c.slug = ?' : ''}
     ${service ? 'and exists (select 1 from services v where v.spa_id = s.id and v.active = 1 and (v.treatment = ? or lower(v.name) = ?))' : ''}`,
    ...[city, service, service].filter((v) => v !== undefined),
  );

const cardNames = (page: Page) => page.locator('#search-results [data-spa-card] h3').allTextContents();

test('results are rendered on the server, in tier order then newest, with the count', async ({ page }) => {
  const expected = spasMatching('newport-beach').sort((a, b) => tierWeight(b.tier) - tierWeight(a.tier) || b.created_at - a.created_at || b.id - a.id);
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
  await page.goto('/search-results');
  const rows = new Map(spasMatching().map((s) => [s.id, s]));
  const cards = page.locator('#search-results [data-spa-card]');
  const count = await cards.count();
  expect(count).toBeGreaterThan(10);
  let sawBook = 0;
  let sawInquire = 0;
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    const spa = rows.get(Number(await card.getAttribute('data-spa-id')))!;
    const allowsLinks = spa.tier !== 'FREE';
    if (allowsLinks && spa.booking_link) {
      await expect(card.locator('[data-book-link]')).toHaveAttribute('href', spa.booking_link);
      await expect(card.locator('[data-inquire-link]')).toHaveCount(0);
      sawBook++;
    } else {
      await expect(card.locator('[data-book-link]')).toHaveCount(0);
      await expect(card.locator('[data-inquire-link]')).toHaveAttribute('href', `/booking?spa=${spa.id}`);
      sawInquire++;
    }
    await expect(card.locator('[data-social-link]')).toHaveCount(allowsLinks && spa.social_feed_url ? 1 : 0);
    const description = (await card.locator('p').first().textContent()) ?? '';
    expect(description.length).toBeLessThanOrEqual(121);
  }
  expect(sawBook).toBeGreaterThan(0);
  expect(sawInquire).toBeGreaterThan(0);
});

test('a FREE spa never shows a booking or social link, even when the database has one', async ({ page }) => {
  const [free] = query<{ id: number }>("select id from spas where tier = 'FREE' and active = 1 order by id limit 1");
  // Search results are rendered on request, so a change in the database shows at once.
  write(
    "update spas set booking_link = 'https://example.com/book', social_feed_url = 'https://instagram.com/x', social_platform = 'instagram' where id = ?",
    free!.id,
  );
  try {
    await page.goto('/search-results?tier=free');
    const card = page.locator(`[data-spa-card][data-spa-id="${free!.id}"]`);
    await expect(card).toBeVisible();
    await expect(card.locator('[data-inquire-link]')).toHaveAttribute('href', `/booking?spa=${free!.id}`);
    await expect(card.locator('[data-book-link], [data-social-link]')).toHaveCount(0);
  } finally {
    write('update spas set booking_link = null, social_feed_url = null, social_platform = null where id = ?', free!.id);
  }
});

test('/client/* is the same search screen', async ({ page }) => {
  const response = await page.goto('/client/anything/here?city=anaheim');
  expect(response?.status()).toBe(200);
  const expected = spasMatching('anaheim');
  await expect(page.getByRole('heading', { name: providersFoundHeading(expected.length) })).toBeVisible();
});

test('results are paged 24 at a time with working links', async ({ page }) => {
  const total = spasMatching().length;
  expect(total).toBeGreaterThan(24);
  await page.goto('/search-results');
  await expect(page.locator('#search-results [data-spa-card]')).toHaveCount(24);
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator('#search-results [data-spa-card]')).toHaveCount(Math.min(24, total - 24));
});
