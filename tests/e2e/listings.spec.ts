import { expect, test } from '@playwright/test';
import { query, tierWeight } from '../support/db.ts';
import { forgetLoopbackLimits, forgetLoopbackView } from '../support/limits.ts';

const jsonLd = async (page: import('@playwright/test').Page) =>
  (await page.locator('script[type="application/ld+json"]').allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);

test.describe('/services and /booking', () => {
  for (const path of ['/services', '/booking']) {
    test(`${path} shows featured spas, every service card and the promo`, async ({ page }) => {
      await page.goto(path);
      const featured = query<{ name: string; tier: string; created_at: number; id: number }>(
        // Premium and Elite spas, flagged featured or not (spec 2, Services).
        "select id, name, tier, created_at from spas where active = 1 and tier in ('PREMIUM', 'ELITE')",
      )
        .sort((a, b) => tierWeight(b.tier) - tierWeight(a.tier) || b.created_at - a.created_at || b.id - a.id)
        .slice(0, 6);
      const featuredSection = page.getByRole('region', { name: 'Featured providers' });
      expect((await featuredSection.locator('[data-spa-card] h3').allTextContents()).map((t) => t.trim())).toEqual(featured.map((s) => s.name));

      const [{ n }] = query<{ n: number }>('select count(*) n from services v join spas s on s.id = v.spa_id where v.active = 1 and s.active = 1') as [
        { n: number },
      ];
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
    const rows = query<{ id: number; name: string; price_cents: number }>('select id, name, price_cents from services where active = 1');
    for (const service of rows.slice(0, 40)) {
      const card = page.locator(`[data-service-card][data-service-id="${service.id}"]`);
      const complimentary = service.price_cents === 0 || service.name.toLowerCase().includes('consultation');
      if (complimentary) {
        await expect(card.getByRole('link', { name: /^Schedule/ })).toHaveAttribute('href', '/#contact');
        await expect(card.locator('[data-price]')).toHaveText('Complimentary');
      } else {
        await expect(card.getByRole('link', { name: /^Book Now/ })).toHaveAttribute('href', `/checkout?service=${service.id}`);
        await expect(card.locator('[data-price]')).toContainText(`From $${(service.price_cents / 100).toFixed(2)}`);
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
  const spas = () =>
    query<{ id: number; slug: string; name: string; tier: string; photos: number; booking_link: string | null; video_url: string | null }>(
      'select s.id, s.slug, s.name, s.tier, s.booking_link, s.video_url, (select count(*) from spa_photos p where p.spa_id = s.id) photos from spas s where active = 1',
    );

  test('show as many photos as the tier allows, and the booking button the tier allows', async ({ page }) => {
    const limit = { FREE: 3, PREMIUM: 10, ELITE: 999 } as Record<string, number>;
    for (const tier of ['FREE', 'PREMIUM', 'ELITE']) {
      const spa = spas().find((s) => s.tier === tier && s.photos > 1)!;
      await page.goto(`/spas/${spa.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(spa.name);
      await expect(page.locator('[data-gallery] img')).toHaveCount(Math.min(spa.photos, limit[tier]!));
      if (tier !== 'FREE' && spa.booking_link) await expect(page.locator('main [data-book-link]').first()).toHaveAttribute('href', spa.booking_link);
      else await expect(page.locator('main [data-inquire-link]')).toHaveAttribute('href', `/booking?spa=${spa.id}`);
      await expect(page.locator('[data-video-link]')).toHaveCount(tier === 'ELITE' && spa.video_url ? 1 : 0);
    }
  });

  test('carry MedicalBusiness and DaySpa JSON-LD with address and price range, and breadcrumbs', async ({ page }) => {
    const spa = spas().find((s) => s.tier === 'ELITE')!;
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
    const expected = query<{ name: string; tier: string; created_at: number; id: number }>(
      "select s.id, s.name, s.tier, s.created_at from spas s join cities c on c.id = s.city_id where c.slug = 'irvine' and s.active = 1",
    ).sort((a, b) => tierWeight(b.tier) - tierWeight(a.tier) || b.created_at - a.created_at || b.id - a.id);
    expect((await page.locator('[data-spa-card] h3').allTextContents()).map((t) => t.trim())).toEqual(expected.map((s) => s.name));
    const list = (await jsonLd(page)).find((d) => d['@type'] === 'ItemList')!;
    expect(list['numberOfItems']).toBe(expected.length);
    await expect(page.locator('a[href="/cities/irvine/botox"]')).toHaveCount(1);
  });

  test('a treatment page lists only the city’s spas offering it', async ({ page, request }) => {
    const expected = query<{ name: string }>(
      `select s.name from spas s join cities c on c.id = s.city_id where c.slug = 'newport-beach' and s.active = 1
       and exists (select 1 from services v where v.spa_id = s.id and v.active = 1 and (v.treatment = 'hydrafacial' or lower(v.name) = 'hydrafacial'))`,
    );
    await page.goto('/cities/newport-beach/hydrafacial');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('HydraFacial in Newport Beach');
    expect((await page.locator('[data-spa-card] h3').allTextContents()).map((t) => t.trim()).sort()).toEqual(expected.map((s) => s.name).sort());
    expect((await request.get('/cities/newport-beach/not-a-treatment')).status()).toBe(404);
    expect((await request.get('/cities/irvine/', { maxRedirects: 0 })).status()).toBe(301);
  });
});

test('opening a spa page records one view event for that spa', async ({ page }) => {
  const [spa] = query<{ id: number; slug: string; tier: string }>("select id, slug, tier from spas where active = 1 and tier = 'PREMIUM' order by id limit 1");
  // The suite is one client (127.0.0.1): forget its earlier views of this spa and its per-minute count, as half an hour passing would.
  forgetLoopbackLimits();
  forgetLoopbackView('spa', spa!.id);
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/analytics/event') && r.request().method() === 'POST');
  await page.goto(`/spas/${spa!.slug}`);
  const response = await sent;
  expect(response.status()).toBe(202);
  // Other tests may open the same page at the same time: count this tab's events only.
  const { sessionId } = response.request().postDataJSON() as { sessionId: string };
  expect(sessionId).toBeTruthy();
  const rows = () =>
    query<{ tier: string; event_type: string }>(
      "select tier, event_type from analytics_events where entity_type = 'spa' and entity_id = ? and session_id = ?",
      String(spa!.id),
      sessionId,
    );
  await expect.poll(() => rows().length).toBe(1);
  expect(rows()[0]).toEqual({ tier: spa!.tier, event_type: 'view' });
});
