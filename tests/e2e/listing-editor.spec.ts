// The owner's tools of issue 13: the listing editor (/owner/spas/{id}), its
// services and offers, with and without JavaScript; the tier rules through the
// raw form post; who may use these routes; the 301 from a retired slug.
import type { APIRequestContext, Page } from '@playwright/test';
import { axeBuilder } from '../support/axe.ts';
import { baseURL } from '../support/env.ts';
import { and, eq, like } from 'drizzle-orm';
import { cities, offerServices, offers, services, spas, users } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { expect, signIn, test, type TestUser } from '../support/fixtures.ts';
import { htmlErrors } from '../support/html-checker.ts';
import { submitForm } from '../support/e2e-steps.ts';
import { hydrated } from '../support/islands.ts';

const TAG = `e2e-editor-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
let counter = 0;

const spaRow = (id: number) => db.select().from(spas).where(eq(spas.id, id)).get()!;
type SpaRow = ReturnType<typeof spaRow>;
const cityId = () => db.select({ id: cities.id }).from(cities).where(eq(cities.slug, 'irvine')).get()!.id;
const servicesOf = (spaId: number) => db.select().from(services).where(eq(services.spaId, spaId)).all();
const offersOf = (spaId: number) => db.select().from(offers).where(eq(offers.spaId, spaId)).all();
/** A service of the spa's, written straight in. */
const addService = (spaId: number, fields: { name: string; priceCents: number; priceUnit?: string; duration: number; category: string }) =>
  db
    .insert(services)
    .values({ spaId, ...fields })
    .returning({ id: services.id })
    .get();

/**
 * A listing of the owner's, made for one test. Not active unless asked: public
 * pages and other tests never see it.
 */
function makeSpa(owner: TestUser, tier: 'FREE' | 'PREMIUM' | 'ELITE', extra: { active?: boolean } = {}): SpaRow {
  const slug = `${TAG}-${++counter}`;
  db.update(users)
    .set({ role: 'owner' })
    .where(and(eq(users.id, owner.id), eq(users.role, 'client')))
    .run();
  const row = db
    .insert(spas)
    .values({ name: `Glow Studio ${counter}`, slug, tier, cityId: cityId(), ownerId: owner.id, active: extra.active === true, description: 'A calm studio.' })
    .returning({ id: spas.id })
    .get();
  return spaRow(row.id);
}

/** The first name of the owners these tests make. */
const OLIVIA = { firstName: 'Olivia' };
const session = (user: TestUser) => ({ Cookie: `session=${user.token}`, Origin: baseURL });
const post = (request: APIRequestContext, path: string, user: TestUser | null, form: Record<string, string>) =>
  request.post(path, { form, headers: user ? session(user) : { Origin: baseURL }, maxRedirects: 0 });

async function noAxeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.afterAll(() => {
  db.delete(spas)
    .where(like(spas.slug, `${TAG}%`))
    .run();
});

test.describe('the listing editor', () => {
  test('an owner renames the spa and rewrites its description; the address stays', async ({ page, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const spa = makeSpa(me, 'PREMIUM');
    await page.goto(`/owner/spas/${spa.id}`);
    await expect(page.getByRole('heading', { level: 1, name: spa.name })).toBeVisible();
    await hydrated(page, 'CharacterCount');
    await page.getByLabel('Spa name').fill('Glow Studio Irvine Spectrum');
    const description = 'Physician-led injectables and HydraFacials, five minutes from the Spectrum.';
    await page.getByLabel('Description').fill(description);
    await expect(page.locator('[data-character-count]')).toContainText(`${description.length} / 5,000 characters`);
    await page.getByLabel('Booking link').fill('https://glow.example/book');
    await page.getByRole('button', { name: 'Save listing' }).click();
    // Not listed (inactive), so nothing public changes yet (issue 26).
    await expect(page.getByRole('status')).toHaveText('Listing saved. It shows on your public page once your listing is listed.');
    await expect(page).toHaveURL(new RegExp(`/owner/spas/${spa.id}\\?saved=1$`));
    const saved = spaRow(spa.id);
    expect(saved).toMatchObject({ name: 'Glow Studio Irvine Spectrum', slug: spa.slug, description, bookingLink: 'https://glow.example/book' });
    // The owner sees the address but cannot change it.
    await expect(page.locator('[data-spa-address]')).toHaveText(`/spas/${spa.slug}`);
    await expect(page.getByLabel('Address (slug)')).toHaveCount(0);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('errors come back beside their fields with the spec’s words, the typed values kept, nothing saved', async ({ page, signedIn }) => {
      const me = await signedIn('owner', OLIVIA);
      const spa = makeSpa(me, 'FREE');
      await page.goto(`/owner/spas/${spa.id}`);
      await page.getByLabel('Spa name').fill('');
      await page.getByLabel('Description').fill('Typed, and kept.');
      await page.getByLabel('Website').fill('javascript:alert(1)');
      const response = await submitForm(page, 'Save listing');
      expect(response.status()).toBe(422);
      await expect(page.getByRole('alert')).toContainText('Nothing was saved');
      await expect(page.locator('[data-field-error="name"]')).toHaveText('Spa name is required');
      await expect(page.locator('[data-field-error="website"]')).toHaveText('Valid URL is required');
      await expect(page.getByLabel('Spa name')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByLabel('Spa name')).toBeFocused();
      await expect(page.getByLabel('Description')).toHaveValue('Typed, and kept.');
      await expect(page.getByLabel('Website')).toHaveValue('javascript:alert(1)');
      expect(spaRow(spa.id)).toMatchObject({ name: spa.name, description: 'A calm studio.', website: null });

      await page.getByLabel('Spa name').fill('Glow Without Scripts');
      await page.getByLabel('Website').fill('https://glow.example');
      await page.getByRole('button', { name: 'Save listing' }).click();
      await expect(page.getByRole('status')).toContainText('Listing saved');
      expect(spaRow(spa.id)).toMatchObject({ name: 'Glow Without Scripts', description: 'Typed, and kept.', website: 'https://glow.example', slug: spa.slug });
    });
  });

  test('a Free listing shows the paid fields locked, and the raw post of each is refused with nothing changed', async ({ page, request, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const spa = makeSpa(me, 'FREE');
    await page.goto(`/owner/spas/${spa.id}`);
    await expect(page.getByLabel('Booking link')).toBeDisabled();
    await expect(page.getByLabel('Video')).toBeDisabled();
    await expect(page.locator('#listing-bookingLink-hint')).toHaveText('Part of the Premium and Elite plans.');

    for (const [field, value, column] of [
      ['bookingLink', 'https://glow.example/book', 'bookingLink'],
      ['socialFeedUrl', 'https://www.instagram.com/glow', 'socialFeedUrl'],
      ['videoUrl', 'https://youtu.be/glow', 'videoUrl'],
    ] as const) {
      const response = await post(request, `/owner/spas/${spa.id}`, me, { name: 'Sneaky rename', [field]: value });
      expect(response.status(), field).toBe(403);
      expect(await response.text()).toContain(field === 'videoUrl' ? 'part of the Elite plan' : 'part of the Premium and Elite plans');
      expect(spaRow(spa.id)).toMatchObject({ name: spa.name, [column]: null });
    }
    // Premium has the booking link but not the video.
    const premium = makeSpa(me, 'PREMIUM');
    expect((await post(request, `/owner/spas/${premium.id}`, me, { videoUrl: 'https://youtu.be/glow' })).status()).toBe(403);
    expect((await post(request, `/owner/spas/${premium.id}`, me, { bookingLink: 'https://glow.example/book' })).status()).toBe(303);
    expect(spaRow(premium.id)).toMatchObject({ bookingLink: 'https://glow.example/book', videoUrl: null });
  });

  test('an editor moves a listing to a new slug: the old address answers 301 to the new one', async ({ page, request, person }) => {
    const me = person('owner', OLIVIA);
    const admin = person('admin');
    const spa = makeSpa(me, 'FREE', { active: true });
    try {
      // The owner may not move it.
      expect((await post(request, `/owner/spas/${spa.id}`, me, { slug: `${spa.slug}-moved` })).status()).toBe(403);
      expect(spaRow(spa.id).slug).toBe(spa.slug);

      await signIn(page.context(), admin);
      await page.goto(`/owner/spas/${spa.id}`);
      await page.getByLabel('Address (slug)').fill(`${spa.slug}-moved`);
      await page.getByRole('button', { name: 'Save listing' }).click();
      await expect(page.getByRole('status')).toHaveText(`Listing saved. Its address is now /spas/${spa.slug}-moved; the old address sends visitors there.`);
      const moved = await request.get(`/spas/${spa.slug}`, { maxRedirects: 0 });
      expect(moved.status()).toBe(301);
      expect(moved.headers().location).toBe(`/spas/${spa.slug}-moved`);
      const old = await request.get(`/spa/${spa.slug}`, { maxRedirects: 0 });
      expect(old.headers().location).toBe(`/spas/${spa.slug}-moved`);
      // An address nobody ever had is still the not-found page.
      const unknown = await request.get(`/spas/${TAG}-never-was`);
      expect(unknown.status()).toBe(404);
      expect(await unknown.text()).toContain('This Page Has Wandered Away');
    } finally {
      db.update(spas).set({ active: false }).where(eq(spas.id, spa.id)).run();
    }
  });
});

test.describe('services', () => {
  test('an owner adds, edits, deactivates and reactivates a service', async ({ page, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const spa = makeSpa(me, 'FREE');
    await page.goto(`/owner/spas/${spa.id}/services`);
    await expect(page.locator('[data-empty-state]')).toBeVisible();
    const form = page.locator('[data-service-form]');
    await form.getByRole('button', { name: 'Add service' }).click();
    await expect(form.locator('[data-field-error="name"]')).toHaveText('Service name is required');

    await form.getByLabel('Service name').fill('Botox Cosmetic');
    await form.getByLabel('All-in price').fill('14');
    await form.getByLabel('Price unit').selectOption('per unit');
    await form.getByLabel('Duration').fill('30');
    await form.getByLabel('Category').selectOption('injectable');
    await form.getByLabel('Treatment type').selectOption('botox');
    await form.getByRole('button', { name: 'Add service' }).click();
    await expect(page.getByRole('status')).toContainText('Service added');
    const item = page.locator('[data-owner-services] li').filter({ hasText: 'Botox Cosmetic' });
    await expect(item).toContainText('From $14.00 per unit');

    await item.getByRole('link', { name: 'Edit Botox Cosmetic' }).click();
    await expect(form.getByRole('heading', { name: 'Edit Botox Cosmetic' })).toBeVisible();
    await expect(form.getByLabel('All-in price')).toHaveValue('14.00');
    await form.getByLabel('All-in price').fill('12.50');
    await form.getByRole('button', { name: 'Save service' }).click();
    await expect(page.getByRole('status')).toContainText('Service saved');
    await expect(item).toContainText('From $12.50 per unit');
    expect(servicesOf(spa.id).map(({ priceCents, priceUnit, treatment, active }) => ({ priceCents, priceUnit, treatment, active }))).toEqual([
      { priceCents: 1250, priceUnit: 'per unit', treatment: 'botox', active: true },
    ]);

    await item.getByRole('button', { name: 'Deactivate Botox Cosmetic' }).click();
    await expect(page.getByRole('status')).toContainText('Service deactivated');
    await expect(item).toContainText('Inactive');
    expect(servicesOf(spa.id)[0]!.active).toBe(false);
    await item.getByRole('button', { name: 'Reactivate Botox Cosmetic' }).click();
    await expect(page.getByRole('status')).toContainText('Service active again');
    expect(servicesOf(spa.id)[0]!.active).toBe(true);
  });
});

test.describe('offers', () => {
  test('an owner of a Free spa lists, edits and ends an offer; featuring is refused', async ({ page, request, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const spa = makeSpa(me, 'FREE');
    addService(spa.id, { name: 'HydraFacial', priceCents: 27500, duration: 60, category: 'facial' });
    await page.goto(`/owner/spas/${spa.id}/offers`);
    const form = page.locator('[data-offer-form]');
    await expect(form.getByLabel('Feature this offer')).toBeDisabled();

    await form.getByRole('button', { name: 'Add offer' }).click();
    await expect(form.locator('[data-field-error="title"]')).toHaveText('Offer title is required');
    await expect(form.locator('[data-field-error="description"]')).toHaveText('Description is required');
    await expect(form.getByLabel('Offer title')).toBeFocused();

    await form.getByLabel('Offer title').fill(`Spring glow ${TAG}`);
    await form.getByLabel('Description').fill('Two HydraFacials for the price of one and a half.');
    await form.getByLabel('Original price').fill('550');
    await form.getByLabel('Offer price').fill('412.50');
    await form.getByLabel('Valid until').fill('2099-06-30');
    await form.getByLabel('HydraFacial').check();
    await form.getByRole('button', { name: 'Add offer' }).click();
    await expect(page.getByRole('status')).toContainText('Offer added');
    const offer = offersOf(spa.id)[0]!;
    expect(offer).toMatchObject({ slug: `spring-glow-${TAG}`, savingsCents: 13750, featured: false });
    expect(db.select({ serviceId: offerServices.serviceId }).from(offerServices).where(eq(offerServices.offerId, offer.id)).all()).toHaveLength(1);

    // The raw post cannot feature it either.
    const featured = await post(request, `/owner/spas/${spa.id}/offers`, me, {
      id: String(offer.id),
      title: 'Featured anyway',
      description: 'x',
      originalPrice: '550',
      offerPrice: '400',
      featured: 'on',
    });
    expect(featured.status()).toBe(403);
    expect(await featured.text()).toContain('Featuring an offer is part of the Premium and Elite plans.');
    expect(db.select({ title: offers.title, featured: offers.featured }).from(offers).where(eq(offers.id, offer.id)).all()).toEqual([
      { title: `Spring glow ${TAG}`, featured: false },
    ]);

    const item = page.locator('[data-owner-offers] li').filter({ hasText: `Spring glow ${TAG}` });
    await expect(item).toHaveAttribute('data-status', 'Current');
    await item.getByRole('link', { name: /^Edit/ }).click();
    await form.getByLabel('Offer title').fill(`Spring glow, extended ${TAG}`);
    await form.getByRole('button', { name: 'Save offer' }).click();
    await expect(page.getByRole('status')).toContainText('Offer saved');
    expect(db.select({ title: offers.title, slug: offers.slug }).from(offers).where(eq(offers.id, offer.id)).all()).toEqual([
      { title: `Spring glow, extended ${TAG}`, slug: offer.slug },
    ]);

    await page
      .locator(`[data-offer-id="${offer.id}"]`)
      .getByRole('button', { name: /^End offer/ })
      .click();
    await expect(page.getByRole('status')).toContainText('Offer ended');
    await expect(page.locator(`[data-offer-id="${offer.id}"]`)).toHaveAttribute('data-status', 'Ended');
  });
});

test.describe('who may use these pages', () => {
  test('signed out 401, a client and another owner 404, and nothing changes; the owner and an editor get in', async ({ playwright, person }) => {
    const me = person('owner', OLIVIA);
    const spa = makeSpa(me, 'PREMIUM');
    const service = addService(spa.id, { name: 'Peel', priceCents: 15000, duration: 45, category: 'facial' });
    const client = person();
    const stranger = person('owner', OLIVIA);
    makeSpa(stranger, 'PREMIUM');
    const admin = person('admin');
    const routes: { path: string; form: Record<string, string> }[] = [
      { path: `/owner/spas/${spa.id}`, form: { name: 'Taken over' } },
      { path: `/owner/spas/${spa.id}/services`, form: { id: String(service.id), intent: 'deactivate' } },
      { path: `/owner/spas/${spa.id}/offers`, form: { title: 'Hijack', description: 'x', originalPrice: '10', offerPrice: '5' } },
    ];
    // One request context per person: a context keeps the cookies it is sent
    // back (a session's sliding refresh), which must not leak into the next person's requests.
    const as = (user: TestUser | null) => playwright.request.newContext({ baseURL, extraHTTPHeaders: user ? session(user) : { Origin: baseURL } });
    const snapshot = () => JSON.stringify([spaRow(spa.id), servicesOf(spa.id), offersOf(spa.id)]);
    const before = snapshot();
    for (const { path, form } of routes) {
      for (const [who, user, status] of [
        ['signed out', null, 401],
        ['client', client, 404],
        ['other owner', stranger, 404],
      ] as const) {
        const request = await as(user);
        const get = await request.get(path, { maxRedirects: 0 });
        expect(get.status(), `GET ${path} as ${who}`).toBe(status);
        expect((await request.post(path, { form, maxRedirects: 0 })).status(), `POST ${path} as ${who}`).toBe(status);
        await request.dispose();
      }
      for (const [who, user] of [
        ['owner', me],
        ['admin', admin],
      ] as const) {
        const request = await as(user);
        expect((await request.get(path)).status(), `GET ${path} as ${who}`).toBe(200);
        await request.dispose();
      }
    }
    expect(snapshot()).toBe(before);
    // A bad id is the same not-found page.
    const mine = await as(me);
    expect((await mine.get('/owner/spas/0')).status()).toBe(404);
    expect((await mine.get('/owner/spas/abc/services')).status()).toBe(404);
    await mine.dispose();
    // The editor can change it.
    const editor = await as(admin);
    expect((await editor.post(`/owner/spas/${spa.id}`, { form: { name: 'Edited by the editor' }, maxRedirects: 0 })).status()).toBe(303);
    await editor.dispose();
    expect(spaRow(spa.id).name).toBe('Edited by the editor');
  });
});

test.describe('accessibility and layout', () => {
  for (const width of [375, 1280]) {
    test(`the three pages have no axe violations at ${width}px`, async ({ page, signedIn }, testInfo) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      const me = await signedIn('owner', OLIVIA);
      const spa = makeSpa(me, 'FREE');
      addService(spa.id, { name: 'Dermal Filler', priceCents: 75000, priceUnit: 'per syringe', duration: 45, category: 'injectable' });
      for (const [name, path] of [
        ['listing', `/owner/spas/${spa.id}`],
        ['services', `/owner/spas/${spa.id}/services`],
        ['offers', `/owner/spas/${spa.id}/offers`],
      ] as const) {
        await page.goto(path);
        await noAxeViolations(page);
        await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
      }
      // With errors shown, too.
      await page.goto(`/owner/spas/${spa.id}`);
      await page.getByLabel('Spa name').fill('');
      await page.getByRole('button', { name: 'Save listing' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await noAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`listing-errors-${width}.png`), fullPage: true });
    });
  }
});

test('the pages, and a refused form, are valid HTML (Nu checker)', async ({ playwright, person }) => {
  test.setTimeout(90_000);
  const me = person('owner', OLIVIA);
  const spa = makeSpa(me, 'FREE');
  addService(spa.id, { name: 'Peel', priceCents: 15000, duration: 45, category: 'facial' });
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: session(me) });
  const documents: { name: string; html: string }[] = [];
  const pages: [string, Promise<import('@playwright/test').APIResponse>, number][] = [
    ['listing', request.get(`/owner/spas/${spa.id}`), 200],
    ['services', request.get(`/owner/spas/${spa.id}/services`), 200],
    ['offers', request.get(`/owner/spas/${spa.id}/offers`), 200],
    ['listing-refused', request.post(`/owner/spas/${spa.id}`, { form: { name: '', website: 'ftp://x' } }), 422],
    ['services-refused', request.post(`/owner/spas/${spa.id}/services`, { form: { name: '', price: 'x', duration: '0', category: '' } }), 422],
    ['offers-refused', request.post(`/owner/spas/${spa.id}/offers`, { form: { title: '', description: '', originalPrice: '5', offerPrice: '9' } }), 422],
  ];
  for (const [name, pending, status] of pages) {
    const response = await pending;
    expect(response.status(), name).toBe(status);
    documents.push({ name, html: await response.text() });
  }
  await request.dispose();
  expect(htmlErrors(documents)).toEqual([]);
});
