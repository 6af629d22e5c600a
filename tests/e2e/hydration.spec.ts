// Input typed before an island hydrates is never lost (docs/decisions/0016).
// Each test slows the page the way a cheap phone on a slow network would: the
// CPU throttled 6x (Chrome DevTools Protocol) and every /_astro/*.js held back
// until the visitor has finished typing into the server-rendered form. Then the
// scripts load, the island hydrates, and the test submits: the values must be
// the ones typed, and the request must go through the island (JSON) and succeed.
import type { Page } from '@playwright/test';
import { and, asc, eq } from 'drizzle-orm';
import { bookings, cities, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { expect, test } from '../support/fixtures.ts';
import { siteScript } from '../support/islands.ts';
import { linkIn, messageInOutbox } from '../support/outbox.ts';
import { firstSpaOfTier } from '../support/spas.ts';

const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const bookingsFor = (email: string) =>
  db
    .select({ spaId: bookings.spaId, serviceId: bookings.serviceId, name: bookings.name, phone: bookings.phone, message: bookings.message })
    .from(bookings)
    .where(eq(bookings.email, email))
    .orderBy(asc(bookings.id))
    .all();
const activeCities = () => db.select({ id: cities.id, slug: cities.slug, name: cities.name }).from(cities).where(eq(cities.active, true));
const island = (page: Page, component: string) => page.locator(`astro-island[component-url*="/${component}."]`).first();

// Slowed on purpose: 6x CPU on a machine shared by parallel workers.
test.describe.configure({ timeout: 120_000 });

/** Throttles the CPU and holds every /_astro/*.js until `release()`. */
async function slowPage(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(siteScript, async (route) => {
    held++;
    await gate;
    await route.continue();
  });
  return {
    release: () => release(),
    held: () => held,
    // Once the island has hydrated and kept the values, the rest (submitting,
    // reading the answer on a long page) need not crawl.
    unthrottle: () => cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 }),
  };
}

/** Opens a page without waiting for its (held) scripts. */
async function open(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'commit' });
}

async function expectHydrated(page: Page, component: string) {
  await expect(page.locator(`astro-island[component-url*="/${component}."]:not([ssr])`).first()).toBeAttached({ timeout: 60_000 });
}

test.describe('sign-in forms', () => {
  // No limit is reset: each test asks for its link from an address of its own (../support/fixtures.ts).

  for (const { path, purpose } of [
    { path: '/owner/login', purpose: 'owner' },
    { path: '/api/login', purpose: 'client' },
  ] as const) {
    test(`${path}: an address typed before hydration is kept, the button works, and the link is sent`, async ({ page }) => {
      const email = uniqueEmail(purpose);
      const slow = await slowPage(page);
      await open(page, path);
      const field = page.getByLabel('Email address');
      await field.fill(email);
      // Nothing has hydrated yet: the field is the server's.
      await expect(island(page, 'MagicLinkForm')).toHaveAttribute('ssr', '');
      expect(slow.held()).toBeGreaterThan(0);

      slow.release();
      await expectHydrated(page, 'MagicLinkForm');
      await expect(field).toHaveValue(email);
      const send = page.getByRole('button', { name: 'Send Magic Link' });
      await expect(send).toBeEnabled();
      await slow.unthrottle();

      const request = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/auth/request');
      await send.click();
      expect((await request).postDataJSON()).toMatchObject({ email });
      await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
      const link = linkIn(await messageInOutbox(email), '/auth/confirm?');
      expect(link.searchParams.get('for')).toBe(purpose);
    });
  }
});

test.describe('the booking form', () => {
  async function typeAndSubmit(page: Page, form: ReturnType<Page['locator']>, slow: Awaited<ReturnType<typeof slowPage>>, email: string) {
    await form.getByLabel('Full name').fill('Early Typist');
    await form.getByLabel('Email').fill(email);
    await form.getByRole('textbox', { name: /^Phone/ }).fill('(949) 555-0199');
    await form.getByLabel('Message').fill('Typed before the page was ready.');
    await form.getByRole('checkbox').check();
    await expect(island(page, 'BookingForm')).toHaveAttribute('ssr', '');

    slow.release();
    await expectHydrated(page, 'BookingForm');
    await expect(form.getByLabel('Full name')).toHaveValue('Early Typist');
    await expect(form.getByLabel('Email')).toHaveValue(email);
    await expect(form.getByRole('textbox', { name: /^Phone/ })).toHaveValue('(949) 555-0199');
    await expect(form.getByLabel('Message')).toHaveValue('Typed before the page was ready.');
    await expect(form.getByRole('checkbox')).toBeChecked();
    await slow.unthrottle();

    const response = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/bookings');
    await form.getByRole('button', { name: 'Request Appointment' }).click();
    expect((await response).status()).toBe(201);
    await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('status').filter({ hasText: 'Booking Request Submitted!' })).toBeVisible();
    const [booking] = bookingsFor(email);
    expect(booking).toMatchObject({ name: 'Early Typist', phone: '(949) 555-0199', message: 'Typed before the page was ready.' });
    return booking!;
  }

  test('/booking?spa={id}: what was typed is kept and the request goes to that spa', async ({ page }) => {
    const spa = firstSpaOfTier();
    const email = uniqueEmail('booking-page');
    const slow = await slowPage(page);
    await open(page, `/booking?spa=${spa.id}`);
    const form = page.locator('#request form[data-booking-form]');
    const booking = await typeAndSubmit(page, form, slow, email);
    expect(booking.spaId).toBe(spa.id);
  });

  test('home #contact: what was typed is kept', async ({ page }) => {
    const email = uniqueEmail('home');
    const slow = await slowPage(page);
    await open(page, '/#contact');
    const form = page.locator('#contact form[data-booking-form]');
    await typeAndSubmit(page, form, slow, email);
  });

  test("a spa's page: what was typed is kept and the request goes to the spa", async ({ page }) => {
    const spa = firstSpaOfTier('FREE');
    const email = uniqueEmail('spa-page');
    const slow = await slowPage(page);
    await open(page, `/spas/${spa.slug}`);
    const form = page.locator('#request form[data-booking-form]');
    const booking = await typeAndSubmit(page, form, slow, email);
    expect(booking.spaId).toBe(spa.id);
  });
});

test('the search filters: choices made before hydration are the ones Update Results sends', async ({ page }) => {
  const city = activeCities().orderBy(asc(cities.id)).limit(1).get()!;
  const slow = await slowPage(page);
  await open(page, '/search-results');
  await page.getByLabel('Treatment').selectOption('botox');
  await page.getByLabel('Location').selectOption(city.slug);
  await expect(island(page, 'SearchFilters')).toHaveAttribute('ssr', '');

  slow.release();
  await expectHydrated(page, 'SearchFilters');
  await expect(page.getByLabel('Treatment')).toHaveValue('botox');
  await expect(page.getByLabel('Location')).toHaveValue(city.slug);
  await slow.unthrottle();

  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/search-results' && r.request().resourceType() === 'fetch');
  await page.getByRole('button', { name: 'Update Results' }).click();
  expect((await response).status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/search-results\\?service=botox&city=${city.slug}$`));
  await expect(page.locator('#search-results [data-results-heading]')).toHaveText(/^\d+ Distinguished Providers? Found$/);
});

test('the spa signup form: what was typed before hydration is what create-spa receives', async ({ page }) => {
  const ownerEmail = uniqueEmail('early-owner');
  const spaName = `Early Spa ${Date.now()}`;
  const city = activeCities().orderBy(asc(cities.name)).limit(1).get()!;
  const slow = await slowPage(page);
  await open(page, '/owner/signup');
  await page.getByLabel('Spa name *').fill(spaName);
  await page.getByLabel('Your e-mail (owner) *').fill(ownerEmail);
  await page.getByLabel('City *').selectOption({ label: city.name });
  await page.getByLabel('Website (optional)').fill('https://early.example');
  await expect(island(page, 'OwnerSignupForm')).toHaveAttribute('ssr', '');

  slow.release();
  await expectHydrated(page, 'OwnerSignupForm');
  await expect(page.getByLabel('Spa name *')).toHaveValue(spaName);
  await expect(page.getByLabel('City *')).toHaveValue(String(city.id));
  await slow.unthrottle();

  const request = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/owner/create-spa');
  await page.getByRole('button', { name: 'Submit Listing' }).click();
  expect((await request).postDataJSON()).toMatchObject({ spaName, ownerEmail, cityId: city.id, website: 'https://early.example' });
  await expect(page.getByText('Success!', { exact: true })).toBeVisible();
  expect(
    db
      .select({ id: spas.id })
      .from(spas)
      .where(and(eq(spas.name, spaName), eq(spas.reviewStatus, 'pending')))
      .all(),
  ).toHaveLength(1);
});
