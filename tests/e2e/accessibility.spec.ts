import { axeBuilder } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';

const pages = [
  '/',
  '/privacy-policy',
  '/sitemap',
  '/cities/laguna-beach',
  '/cities/irvine/botox',
  '/missing-page',
  '/services',
  '/search-results',
  '/search-results?service=nothing-here',
  '/api/login',
];

for (const width of [375, 1280]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const path of pages) {
      test(`${path} has no axe violations`, async ({ page }) => {
        // axe takes ~20 s on /services (every service card of the directory) on
        // a quiet 2-core machine: a time budget, not a looser check.
        test.setTimeout(90_000);
        await page.goto(path);
        const results = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }
  });
}

test('the open mobile menu has no axe violations', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  const results = await axeBuilder(page).include('dialog').analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});

test('a spa page has no axe violations', async ({ page }) => {
  await page.goto('/sitemap');
  await page.getByRole('main').locator('a[href^="/spas/"]').first().click();
  const results = await axeBuilder(page).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});
