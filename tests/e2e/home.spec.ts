import { and, eq } from 'drizzle-orm';
import { spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { expect, test } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';

test.describe('home search', () => {
  test('Find Your Provider sends only the filters that were chosen', async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('search', { name: 'Find a provider' });
    await form.getByRole('button', { name: 'Find Your Provider' }).click();
    await expect(page).toHaveURL(/\/search-results$/);

    await page.goto('/');
    await form.getByLabel('Treatment').selectOption('botox');
    await form.getByRole('button', { name: 'Find Your Provider' }).click();
    await expect(page).toHaveURL(/\/search-results\?service=botox$/);

    await page.goto('/');
    await form.getByLabel('Location').selectOption('irvine');
    await form.getByLabel('Treatment').selectOption('hydrafacial');
    await form.getByRole('button', { name: 'Find Your Provider' }).click();
    await expect(page).toHaveURL(/\/search-results\?service=hydrafacial&city=irvine$/);
  });

  test('Schedule Consultation scrolls to the contact section', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Schedule Consultation' }).click();
    await expect(page).toHaveURL(/#contact$/);
    await expect(page.locator('#contact')).toBeInViewport();
  });

  test('Explore Plans opens the spa-owner page in a new tab', async ({ page }) => {
    await page.goto('/');
    const link = page.getByRole('link', { name: /Explore Plans/ });
    await expect(link).toHaveAttribute('target', '_blank');
    const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await expect(popup).toHaveURL(/\/spa-owners$/);
  });

  test('the services grid links each treatment to its providers', async ({ page, request }) => {
    await page.goto('/');
    const grid = page.getByRole('region', { name: 'Popular treatments' });
    const links = grid.getByRole('listitem').getByRole('link');
    await expect(links).toHaveCount(8);
    await expect(grid.getByRole('link', { name: /Botox/ })).toHaveAttribute('href', '/search-results?service=botox');
    expect((await request.get('/search-results?service=botox')).status()).toBe(200);
  });
});

test.describe('Elite spotlight carousel', () => {
  const elite = () =>
    db
      .select({ name: spas.name })
      .from(spas)
      .where(and(eq(spas.tier, 'ELITE'), eq(spas.active, true)))
      .all();

  test.beforeEach(async ({ page }) => {
    // Time stands still until a test moves it, so the 5 s count starts at hydration.
    await page.clock.install({ time: new Date('2026-11-22T10:00:00Z') });
    await page.clock.pauseAt(new Date('2026-11-22T10:00:01Z'));
    await page.goto('/');
    await page.locator('[aria-roledescription="carousel"]').scrollIntoViewIfNeeded();
    await hydrated(page, 'EliteCarousel');
    await expect(page.locator('[aria-roledescription="carousel"]')).toHaveAttribute('data-rotating', 'true');
  });

  const visibleSlide = (page: import('@playwright/test').Page) => page.locator('[aria-roledescription="slide"]:not([hidden])').getAttribute('aria-label');

  test('shows every Elite spa and advances every 5 seconds', async ({ page }) => {
    const count = elite().length;
    expect(count).toBeGreaterThan(1);
    await expect(page.locator('[aria-roledescription="slide"]')).toHaveCount(count);
    expect(await visibleSlide(page)).toBe(`1 of ${count}`);
    await page.clock.runFor(4900);
    expect(await visibleSlide(page)).toBe(`1 of ${count}`);
    await page.clock.runFor(200);
    await expect.poll(() => visibleSlide(page)).toBe(`2 of ${count}`);
    await page.clock.runFor(5000);
    await expect.poll(() => visibleSlide(page)).toBe(`3 of ${count}`);
  });

  test('stops for good after a click on next, previous or a dot', async ({ page }) => {
    const count = elite().length;
    const carousel = page.locator('[aria-roledescription="carousel"]');
    await carousel.getByRole('button', { name: /Next/ }).click();
    await expect.poll(() => visibleSlide(page)).toBe(`2 of ${count}`);
    await expect(carousel).toHaveAttribute('data-rotating', 'false');
    await page.clock.runFor(20_000);
    expect(await visibleSlide(page)).toBe(`2 of ${count}`);
    await carousel.getByRole('button', { name: /Previous/ }).click();
    await expect.poll(() => visibleSlide(page)).toBe(`1 of ${count}`);
    await carousel.getByRole('button', { name: 'Show spa 4', exact: false }).click();
    await expect.poll(() => visibleSlide(page)).toBe(`4 of ${count}`);
    await page.clock.runFor(20_000);
    expect(await visibleSlide(page)).toBe(`4 of ${count}`);
  });

  test('waits while keyboard focus is inside it', async ({ page }) => {
    const count = elite().length;
    const carousel = page.locator('[aria-roledescription="carousel"]');
    await carousel
      .getByRole('link', { name: /View Spa/ })
      .first()
      .focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(carousel).toHaveAttribute('data-rotating', 'false');
    await page.clock.runFor(12_000);
    expect(await visibleSlide(page)).toBe(`1 of ${count}`);
  });
});

test('the carousel stays still for visitors who prefer reduced motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.clock.install({ time: new Date('2026-11-22T10:00:00Z') });
  await page.clock.pauseAt(new Date('2026-11-22T10:00:01Z'));
  await page.goto('/');
  const carousel = page.locator('[aria-roledescription="carousel"]');
  await carousel.scrollIntoViewIfNeeded();
  await hydrated(page, 'EliteCarousel');
  await expect(carousel).toHaveAttribute('data-rotating', 'false');
  await page.clock.runFor(15_000);
  await expect(page.locator('[aria-roledescription="slide"]:not([hidden])')).toHaveAttribute('aria-label', /^1 of/);
});
