// /offers and /offers/{slug} (spec 2, Offers; rulings), checked against the
// database the site was built from. Expectations are computed here, not with
// the site's own helpers, so a wrong helper cannot make its own test pass.
import type { Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { cities, offerServices, offers, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { axeBuilder } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';

/** Active offers of active spas: what /offers lists. Featuring is Premium and Elite: a Free spa's flag is not shown. */
function listedOffers() {
  return db
    .select({
      id: offers.id,
      slug: offers.slug,
      title: offers.title,
      description: offers.description,
      originalPriceCents: offers.originalPriceCents,
      offerPriceCents: offers.offerPriceCents,
      savingsCents: offers.savingsCents,
      validFrom: offers.validFrom,
      validTo: offers.validTo,
      flagged: offers.featured,
      spaId: spas.id,
      spaName: spas.name,
      spaSlug: spas.slug,
      spaTier: spas.tier,
      cityName: cities.name,
    })
    .from(offers)
    .innerJoin(spas, eq(spas.id, offers.spaId))
    .innerJoin(cities, eq(cities.id, offers.cityId))
    .where(and(eq(offers.active, true), eq(spas.active, true)))
    .all()
    .map(({ flagged, ...offer }) => ({ ...offer, featured: flagged && (offer.spaTier === 'PREMIUM' || offer.spaTier === 'ELITE') }));
}

type OfferRow = ReturnType<typeof listedOffers>[number];

function servicesOfOffer(offerId: number) {
  return db
    .select({ name: services.name, priceCents: services.priceCents, priceUnit: services.priceUnit, duration: services.duration })
    .from(offerServices)
    .innerJoin(services, eq(services.id, offerServices.serviceId))
    .where(eq(offerServices.offerId, offerId))
    .all();
}

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const expired = (o: OfferRow) => o.validTo !== null && o.validTo < today;
const dollars = (cents: number) => `$${Math.round(cents / 100).toLocaleString('en-US')}`;
const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const percentOff = (o: OfferRow) => Math.round(((o.originalPriceCents - o.offerPriceCents) / o.originalPriceCents) * 100);
const longDate = (date: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
// rebuild.spec.ts renames an Elite spa while other tests run; names of other spas are stable.
const stableSpa = (o: OfferRow) => o.spaTier !== 'ELITE';

/** What each card on the page says, read in one pass. */
async function readCards(page: Page) {
  return page.locator('[data-offer-card]').evaluateAll((cards) =>
    cards.map((card) => {
      const text = (selector: string) => card.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
      const visibleText = (el: Element | null) =>
        el
          ? [...el.childNodes]
              .filter((n) => n.nodeType === Node.TEXT_NODE)
              .map((n) => n.textContent)
              .join('')
              .trim()
          : null;
      const viewOffer = card.querySelector('[data-view-offer]');
      const viewSpa = card.querySelector('[data-view-spa]');
      return {
        slug: card.getAttribute('data-offer-slug')!,
        section: card.closest('section')?.querySelector('h2')?.textContent?.trim() ?? null,
        title: text('h3'),
        spa: text('[data-offer-spa]'),
        city: text('[data-offer-city]'),
        price: visibleText(card.querySelector('[data-offer-price]')),
        original: text('s'),
        originalLabelled: card.querySelector('[data-offer-prices]')?.textContent?.includes('Original price') ?? false,
        savings: text('[data-offer-savings]'),
        validity: text('[data-offer-validity]'),
        badges: [...card.querySelectorAll('[data-badge]')].map((b) => b.textContent!.trim()),
        viewOffer: { href: viewOffer?.getAttribute('href'), visible: visibleText(viewOffer), name: viewOffer?.textContent?.trim() },
        viewSpa: { href: viewSpa?.getAttribute('href'), visible: visibleText(viewSpa), name: viewSpa?.textContent?.trim() },
      };
    }),
  );
}

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((block) => JSON.parse(block) as Record<string, unknown>);
}

test.describe('/offers', () => {
  test('counts the offers in the spec wording and puts featured ones under Featured Deals, the rest under All Offers', async ({ page }) => {
    const offers = listedOffers();
    expect(offers.length).toBeGreaterThan(0);
    const response = await page.goto('/offers');
    expect(response?.status()).toBe(200);

    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Ended offers are listed, but not counted as available.
    await expect(page.locator('[data-offer-count]')).toHaveText(`${offers.filter((o) => !expired(o)).length} offer(s) available`);
    await expect(page.getByRole('heading', { level: 2, name: 'Featured Deals' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'All Offers' })).toBeVisible();

    const featured = page.getByRole('region', { name: 'Featured Deals' }).locator('[data-offer-card]');
    const rest = page.getByRole('region', { name: 'All Offers' }).locator('[data-offer-card]');
    const slugsOf = (cards: typeof featured) => cards.evaluateAll((list) => list.map((c) => c.getAttribute('data-offer-slug')!));
    expect((await slugsOf(featured)).sort()).toEqual(
      offers
        .filter((o) => o.featured)
        .map((o) => o.slug)
        .sort(),
    );
    expect((await slugsOf(rest)).sort()).toEqual(
      offers
        .filter((o) => !o.featured)
        .map((o) => o.slug)
        .sort(),
    );

    // Within a section, offers that are still on come before ended ones.
    for (const cards of [featured, rest]) {
      const bySlug = new Map(offers.map((o) => [o.slug, o]));
      const ended = (await slugsOf(cards)).map((slug) => expired(bySlug.get(slug)!));
      expect(ended).toEqual([...ended].sort((a, b) => Number(a) - Number(b)));
    }

    await expect(page.getByText('Prices shown are all-in.')).toBeVisible();
    await expect(page.getByRole('main').locator('a[href="/search-results"]').first()).toBeVisible();
    await expect(page.getByText('No offers available')).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(page).toHaveTitle(/offers/i);
  });

  test('each card shows its spa, whole-dollar prices, saving, percent off, badges and validity as stored', async ({ page }) => {
    const offers = new Map(listedOffers().map((o) => [o.slug, o]));
    await page.goto('/offers');
    const cards = await readCards(page);
    expect(cards).toHaveLength(offers.size);

    for (const card of cards) {
      const offer = offers.get(card.slug)!;
      const where = `card ${card.slug}`;
      expect(card.title, where).toBe(offer.title);
      if (stableSpa(offer)) expect(card.spa, where).toBe(offer.spaName);
      expect(card.city, where).toBe(offer.cityName);

      expect(card.price, where).toBe(dollars(offer.offerPriceCents));
      expect(card.price, where).toMatch(/^\$\d{1,3}(,\d{3})*$/);
      if (offer.savingsCents > 0) {
        expect(card.original, where).toBe(dollars(offer.originalPriceCents));
        expect(card.originalLabelled, where).toBe(true);
        expect(card.savings, where).toBe(`Save ${dollars(offer.savingsCents)}`);
      } else {
        expect(card.original, where).toBeNull();
        expect(card.savings, where).toBeNull();
      }

      const percent = percentOff(offer);
      expect(card.badges.includes(`${percent}% Off`), where).toBe(percent > 0);
      expect(
        card.badges.some((b) => /% Off$/.test(b)),
        where,
      ).toBe(percent > 0);
      expect(card.badges.includes('Featured'), where).toBe(offer.featured);
      expect(card.badges.includes('Expired'), where).toBe(expired(offer));

      expect(card.validity, where).toBe(offer.validTo ? `${expired(offer) ? 'Ended' : 'Valid until'} ${longDate(offer.validTo)}` : 'Ongoing offer');

      expect(card.viewOffer, where).toEqual({ href: `/offers/${offer.slug}`, visible: 'View Offer', name: `View Offer: ${offer.title}` });
      expect(card.viewSpa.href, where).toBe(`/spas/${offer.spaSlug}`);
      expect(card.viewSpa.visible, where).toBe('View Spa');
    }

    // The demo data has both kinds; the formats are the spec's.
    expect(cards.some((c) => /^Valid until [A-Z][a-z]+ \d{1,2}, \d{4}$/.test(c.validity ?? ''))).toBe(true);
    expect(cards.some((c) => c.validity === 'Ongoing offer')).toBe(true);
  });

  test('an expired card is marked Expired and its image dimmed, its text not', async ({ page }) => {
    const offers = listedOffers();
    const ended = offers.find(expired);
    const current = offers.find((o) => !expired(o));
    expect(ended, 'the demo data has an expired offer').toBeDefined();
    await page.goto('/offers');

    const endedCard = page.locator(`[data-offer-card][data-offer-slug="${ended!.slug}"]`);
    await expect(endedCard).toHaveAttribute('data-expired', 'true');
    await expect(endedCard.locator('[data-badge="expired"]')).toHaveText('Expired');
    const style = await endedCard.locator('[data-offer-image]').evaluate((img) => getComputedStyle(img));
    expect(Number(style.opacity)).toBeLessThan(0.75);
    expect(style.filter).toContain('grayscale');
    expect(await endedCard.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await expect(endedCard.getByRole('heading', { name: ended!.title })).toBeVisible();

    const currentCard = page.locator(`[data-offer-card][data-offer-slug="${current!.slug}"]`);
    await expect(currentCard).not.toHaveAttribute('data-expired', 'true');
    await expect(currentCard.locator('[data-badge="expired"]')).toHaveCount(0);
    expect(await currentCard.locator('[data-offer-image]').evaluate((img) => getComputedStyle(img).opacity)).toBe('1');
  });

  test('every View Offer and View Spa link resolves', async ({ page, request }) => {
    await page.goto('/offers');
    const cards = await readCards(page);
    const hrefs = new Set(cards.flatMap((c) => [c.viewOffer.href!, c.viewSpa.href!]));
    for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
    expect((await request.get('/search-results')).status()).toBe(200);
  });
});

test.describe('/offers/{slug}', () => {
  test('shows the offer, its spa, services, validity, prices, booking link, breadcrumbs and Offer JSON-LD', async ({ page, request }) => {
    const offer = listedOffers().find((o) => !expired(o) && o.validTo !== null && stableSpa(o) && servicesOfOffer(o.id).length > 0);
    expect(offer, 'the demo data has a current offer with services').toBeDefined();
    const o = offer!;
    const response = await page.goto(`/offers/${o.slug}`);
    expect(response?.status()).toBe(200);

    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(o.title);
    await expect(main.locator('[data-offer-page-spa]')).toContainText(`${o.spaName}, ${o.cityName}`);
    await expect(main.locator('[data-offer-page-spa]').getByRole('link', { name: o.spaName })).toHaveAttribute('href', `/spas/${o.spaSlug}`);
    await expect(main.getByText(o.description)).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(o.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

    const prices = main.locator('aside[data-offer-prices]');
    await expect(prices.locator('[data-offer-price]')).toHaveText(dollars(o.offerPriceCents));
    await expect(prices.locator('s')).toHaveText(dollars(o.originalPriceCents));
    await expect(prices.locator('[data-offer-savings]')).toHaveText(`Save ${dollars(o.savingsCents)}`);
    await expect(main.locator('header [data-badge="percent"]')).toHaveText(`${percentOff(o)}% Off`);
    await expect(main.locator('header [data-badge="expired"]')).toHaveCount(0);
    await expect(prices.locator('[data-valid-until]')).toHaveText(longDate(o.validTo!));
    if (o.validFrom) await expect(prices.locator('[data-valid-from]')).toHaveText(longDate(o.validFrom));

    const book = main.getByRole('link', { name: 'Book This Offer' });
    await expect(book).toHaveAttribute('href', `/booking?spa=${o.spaId}`);
    expect((await request.get(`/booking?spa=${o.spaId}`)).status()).toBe(200);
    await expect(prices.getByRole('link', { name: /^View Spa/ })).toHaveAttribute('href', `/spas/${o.spaSlug}`);

    const services = main.locator('[data-offer-services] li');
    const expected = servicesOfOffer(o.id);
    await expect(services).toHaveCount(expected.length);
    for (const service of expected) {
      const row = services.filter({ has: page.locator('[data-service-name]', { hasText: service.name }) });
      await expect(row.locator('[data-service-duration]')).toHaveText(`${service.duration} minutes`);
      const complimentary = service.priceCents === 0 || service.name.toLowerCase().includes('consultation');
      const label = complimentary ? 'Complimentary' : `From $${decimal(service.priceCents)}${service.priceUnit ? ` ${service.priceUnit}` : ''}`;
      await expect(row.locator('[data-service-price]')).toHaveText(label);
    }

    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Offers' })).toHaveAttribute('href', '/offers');
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText(o.title);

    const data = await jsonLd(page);
    const ld = data.find((d) => d['@type'] === 'Offer');
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      name: o.title,
      price: decimal(o.offerPriceCents),
      priceCurrency: 'USD',
      validThrough: o.validTo,
      availability: 'https://schema.org/InStock',
    });
    expect(ld!['price']).toMatch(/^\d+\.\d{2}$/);
    expect(String(ld!['url'])).toMatch(new RegExp(`/offers/${o.slug}$`));
    const breadcrumb = data.find((d) => d['@type'] === 'BreadcrumbList') as { itemListElement: { name: string }[] } | undefined;
    expect(breadcrumb?.itemListElement.map((item) => item.name).slice(-2)).toEqual(['Offers', o.title]);
  });

  test('an offer without an end date is ongoing and has no validThrough', async ({ page }) => {
    const o = listedOffers().find((offer) => offer.validTo === null);
    expect(o, 'the demo data has an open-ended offer').toBeDefined();
    await page.goto(`/offers/${o!.slug}`);
    await expect(page.locator('[data-valid-until]')).toHaveText('Ongoing offer');
    await expect(page.locator('main header [data-badge="expired"]')).toHaveCount(0);
    const ld = (await jsonLd(page)).find((d) => d['@type'] === 'Offer');
    expect(ld).toBeDefined();
    expect(ld).not.toHaveProperty('validThrough');
  });

  test('an expired offer still renders, marked Expired, and points to current offers instead of booking', async ({ page }) => {
    const o = listedOffers().find(expired);
    expect(o, 'the demo data has an expired offer').toBeDefined();
    const response = await page.goto(`/offers/${o!.slug}`);
    expect(response?.status()).toBe(200);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(o!.title);
    await expect(main.locator('header [data-badge="expired"]')).toHaveText('Expired');
    await expect(main.locator('[data-offer-ended]')).toContainText('This offer has ended');
    await expect(main.getByRole('link', { name: 'Book This Offer' })).toHaveCount(0);
    await expect(main.getByRole('link', { name: 'See current offers' })).toHaveAttribute('href', '/offers');
    await expect(page.locator('[data-valid-until]')).toHaveText(longDate(o!.validTo!));
    const ld = (await jsonLd(page)).find((d) => d['@type'] === 'Offer');
    expect(ld).toMatchObject({ validThrough: o!.validTo, availability: 'https://schema.org/Discontinued' });
  });

  test('an unknown offer is not found', async ({ request }) => {
    expect((await request.get('/offers/no-such-offer')).status()).toBe(404);
  });
});

// Paths are picked inside the tests: the database exists only once the web server has started.
const axePages: Record<string, () => string> = {
  '/offers': () => '/offers',
  'a current offer page': () => `/offers/${listedOffers().find((o) => !expired(o))!.slug}`,
  'an expired offer page': () => `/offers/${listedOffers().find(expired)!.slug}`,
};

for (const width of [375, 1280]) {
  test.describe(`offers at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const [label, path] of Object.entries(axePages)) {
      test(`${label} has no axe violations`, async ({ page }) => {
        // /offers has every card on one page; axe needs a while for it on a busy machine.
        test.setTimeout(60_000);
        await page.goto(path());
        const results = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }
  });
}
