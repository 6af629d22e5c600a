import { expect, test } from '../support/fixtures.ts';

test('an unknown route shows the not-found screen with status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page/anywhere');
  expect(response?.status()).toBe(404);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('This Page Has Wandered Away');
  await expect(main.getByText('Page Not Found', { exact: true })).toBeVisible();
  await expect(main.getByText(/guide you back to Orange County/)).toBeVisible();
  await expect(main.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  await expect(main.getByRole('link', { name: 'Browse All Providers' })).toHaveAttribute('href', '/search-results');
  await expect(main.getByRole('heading', { name: 'Explore Our Most Popular Services' })).toBeVisible();
  await expect(main.getByRole('link', { name: /Botox Cosmetic/ })).toHaveAttribute('href', '/search-results?service=botox');
  await expect(main.getByRole('link', { name: /HydraFacial MD/ })).toHaveAttribute('href', '/search-results?service=hydrafacial');
  await expect(main.getByRole('link', { name: /Body Contouring/ })).toHaveAttribute('href', '/search-results?service=coolsculpting');
  await expect(main.getByRole('link', { name: /View All Services/ })).toHaveAttribute('href', '/services');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});

test('unknown spa and city pages are not found either', async ({ request }) => {
  expect((await request.get('/spas/no-such-spa')).status()).toBe(404);
  expect((await request.get('/cities/atlantis')).status()).toBe(404);
});

test('Return Home leads home', async ({ page }) => {
  await page.goto('/missing');
  await page.getByRole('link', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('medical spa');
});
