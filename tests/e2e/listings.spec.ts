import { and, asc, count, eq, exists, inArray, or, sql } from 'drizzle-orm';
import { analyticsEvents, cities, services, spaPhotos, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { tierWeight } from '#lib/tiers.ts';
import { expect, test } from '../support/fixtures.ts';

/** Tier weight, then newest (spec 9), as the directory lists spas. */
const byRank = (a: { tier: string; createdAt: Date; id: number }, b: { tier: string; createdAt: Date; id: number }) =>
  tierWeight(b.tier) - tierWeight(a.tier) || b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

const jsonLd = async (page: import('@playwright/test').Page) =>
  (await page.locator('script[type="application/ld+json"]').allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);

test.describe('/services and /booking', () => {
  for (const path of ['/services', '/booking']) {
    test(`${path} shows featured spas, every service card and the promo`, async ({ page }) => {
      await page.goto(path);
      const featured = db
        .select({ id: spas.id, name: spas.name, tier: spas.tier, createdAt: spas.createdAt })
        .from(spas)
        // Premium and Elite spas, flagged featured or not (spec 2, Services).
        .where(and(eq(spas.active, true), inArray(spas.tier, ['PREMIUM', 'ELITE'])))
        .all()
        .sort(byRank)
        .slice(0, 6);
      const featuredSection = page.getByRole('region', { name: 'Featured providers' });
      expect((await featuredSection.locator('[data-spa-card] h3').allTextContents()).map((t) => t.trim())).toEqual(featured.map((s) => s.name));

      const { n } = db
        .select({ n: count() })
        .from(services)
        .innerJoin(spas, eq(spas.id, services.spaId))
        .where(and(eq(services.active, true), eq(spas.active, true)))
        .get()!;
      await expect(page.locator('[data-service-card]')).toHaveCount(n);
      await expect(page.locator('[data-package-promo]')).toContainText('$650');
      await expect(page.locator('[data-package-promo]')).toContainText('$825');
      await expect(page.locator('[data-package-promo]')).toContainText('Save $175');
      await expect(page.getByRole('link', { name: 'Become an Elite Partner' })).toHaveAttribute('href', '/subscription');
      await expect(page.getByRole('link', { name: /Search providers/ })).toHaveAttribute('href', '/');
    });
  }

  test('a complimentary service says Schedule (to the consultation form), others Book Now (to checkout)', async ({ page }) => {
    await page.goto('/services');
    const rows = db.select({ id: services.id, name: services.name, priceCents: services.priceCents }).from(services).where(eq(services.active, true)).all();
    for (const service of rows.slice(0, 40)) {
      const card = page.locator(`[data-service-card][data-service-id="${service.id}"]`);
      const complimentary = service.priceCents === 0 || service.name.toLowerCase().includes('consultation');
      if (complimentary) {
        await expect(card.getByRole('link', { name: /^Schedule/ })).toHaveAttribute('href', '/#contact');
        await expect(card.locator('[data-price]')).toHaveText('Complimentary');
      } else {
        await expect(card.getByRole('link', { name: /^Book Now/ })).toHaveAttribute('href', `/checkout?service=${service.id}`);
        await expect(card.locator('[data-price]')).toContainText(`From $${(service.priceCents / 100).toFixed(2)}`);
      }
    }
  });

  test('Schedule leads to the contact section of the home page', async ({ page }) => {
    await page.goto('/services');
    await page
      .getByRole('link', { name: /^Schedule/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.locator('#contact')).toBeInViewport();
  });

  test('/booking points search engines at /services', async ({ page }) => {
    await page.goto('/booking');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/services$/);
  });
});

test.describe('spa pages', () => {
  const listed = () =>
    db
      .select({
        id: spas.id,
        slug: spas.slug,
        name: spas.name,
        tier: spas.tier,
        bookingLink: spas.bookingLink,
        videoUrl: spas.videoUrl,
        photos: count(spaPhotos.id),
      })
      .from(spas)
      .leftJoin(spaPhotos, eq(spaPhotos.spaId, spas.id))
      .where(eq(spas.active, true))
      .groupBy(spas.id)
      .orderBy(asc(spas.id))
      .all();

  test('show as many photos as the tier allows, and the booking button the tier allows', async ({ page }) => {
    const limit = { FREE: 3, PREMIUM: 10, ELITE: 999 } as Record<string, number>;
    for (const tier of ['FREE', 'PREMIUM', 'ELITE']) {
      const spa = listed().find((s) => s.tier === tier && s.photos > 1)!;
      await page.goto(`/spas/${spa.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(spa.name);
      await expect(page.locator('[data-gallery] img')).toHaveCount(Math.min(spa.photos, limit[tier]!));
      if (tier !== 'FREE' && spa.bookingLink) await expect(page.locator('main [data-book-link]').first()).toHaveAttribute('href', spa.bookingLink);
      else await expect(page.locator('main [data-inquire-link]')).toHaveAttribute('href', `/booking?spa=${spa.id}`);
      await expect(page.locator('[data-video-link]')).toHaveCount(tier === 'ELITE' && spa.videoUrl ? 1 : 0);
    }
  });

  test('carry MedicalBusiness and DaySpa JSON-LD with address and price range, and breadcrumbs', async ({ page }) => {
    const spa = listed().find((s) => s.tier === 'ELITE')!;
    await page.goto(`/spas/${spa.slug}`);
    const [business, breadcrumbs] = [
      (await jsonLd(page)).find((d) => Array.isArray(d['@type'])),
      (await jsonLd(page)).find((d) => d['@type'] === 'BreadcrumbList'),
    ];
    expect(business!['@type']).toEqual(['MedicalBusiness', 'DaySpa']);
    expect(business!['name']).toBe(spa.name);
    expect(business!['address']).toMatchObject({ '@type': 'PostalAddress', addressRegion: 'CA', addressCountry: 'US' });
    expect(String(business!['priceRange'])).toMatch(/^\$+$/);
    expect((breadcrumbs!['itemListElement'] as unknown[]).length).toBe(3);
    await expect(page.getByRole('link', { name: /Open in Maps/ })).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\//);
  });
});

test.describe('city pages', () => {
  test('list the city’s spas in tier order with ItemList JSON-LD, and link each treatment page', async ({ page }) => {
    await page.goto('/cities/irvine');
    const expected = db
      .select({ id: spas.id, name: spas.name, tier: spas.tier, createdAt: spas.createdAt })
      .from(spas)
      .innerJoin(cities, eq(cities.id, spas.cityId))
      .where(and(eq(cities.slug, 'irvine'), eq(spas.active, true)))
      .all()
      .sort(byRank);
    expect((await page.locator('[data-spa-card] h3').allTextContents()).map((t) => t.trim())).toEqual(expected.map((s) => s.name));
    const list = (await jsonLd(page)).find((d) => d['@type'] === 'ItemList')!;
    expect(list['numberOfItems']).toBe(expected.length);
    await expect(page.locator('a[href="/cities/irvine/botox"]')).toHaveCount(1);
  });

  test('a treatment page lists only the city’s spas offering it', async ({ page, request }) => {
    const offersHydrafacial = db
      .select({ id: services.id })
      .from(services)
      .where(
        and(eq(services.spaId, spas.id), eq(services.active, true), or(eq(services.treatment, 'hydrafacial'), eq(sql`lower(${services.name})`, 'hydrafacial'))),
      );
    const expected = db
      .select({ name: spas.name })
      .from(spas)
      .innerJoin(cities, eq(cities.id, spas.cityId))
      .where(and(eq(cities.slug, 'newport-beach'), eq(spas.active, true), exists(offersHydrafacial)))
      .all();
    await page.goto('/cities/newport-beach/hydrafacial');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('HydraFacial in Newport Beach');
    expect((await page.locator('[data-spa-card] h3').allTextContents()).map((t) => t.trim()).sort()).toEqual(expected.map((s) => s.name).sort());
    expect((await request.get('/cities/newport-beach/not-a-treatment')).status()).toBe(404);
    expect((await request.get('/cities/irvine/', { maxRedirects: 0 })).status()).toBe(301);
  });
});

test('opening a spa page records one view event for that spa', async ({ page }) => {
  // This test is a client of its own (tests/support/fixtures.ts): no earlier view of this spa from its address hides this one.
  const spa = db
    .select({ id: spas.id, slug: spas.slug, tier: spas.tier })
    .from(spas)
    .where(and(eq(spas.active, true), eq(spas.tier, 'PREMIUM')))
    .orderBy(asc(spas.id))
    .get();
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/analytics/event') && r.request().method() === 'POST');
  await page.goto(`/spas/${spa!.slug}`);
  const response = await sent;
  expect(response.status()).toBe(202);
  // Other tests may open the same page at the same time: count this tab's events only.
  const { sessionId } = response.request().postDataJSON() as { sessionId: string };
  expect(sessionId).toBeTruthy();
  const rows = () =>
    db
      .select({ tier: analyticsEvents.tier, eventType: analyticsEvents.eventType })
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.entityType, 'spa'), eq(analyticsEvents.entityId, String(spa!.id)), eq(analyticsEvents.sessionId, sessionId)))
      .all();
  await expect.poll(() => rows().length).toBe(1);
  expect(rows()[0]).toEqual({ tier: spa!.tier, eventType: 'view' });
});
