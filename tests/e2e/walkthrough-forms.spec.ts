// Walk-through items of issue 10: the member home's list follows its form (1),
// the home forms offer a treatment (4), owners ask for links at POST
// /api/auth/request (10), a failed request offers Retry in its toast (11); and
// the sign-in and booking forms work as plain HTML forms without JavaScript.
import type { Page } from '@playwright/test';
import { and, asc, desc, eq } from 'drizzle-orm';
import { bookings, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { expect, test } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';
import { linkIn, messageInOutbox } from '../support/outbox.ts';

const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const bookingsFor = (email: string) =>
  db
    .select({ id: bookings.id, userId: bookings.userId, spaId: bookings.spaId, serviceId: bookings.serviceId })
    .from(bookings)
    .where(eq(bookings.email, email))
    .orderBy(asc(bookings.id))
    .all();
/** Active services of active spas: what the home forms offer. */
const offeredServices = () =>
  db
    .select({ id: services.id, name: services.name, spaId: services.spaId })
    .from(services)
    .innerJoin(spas, eq(spas.id, services.spaId))
    .where(and(eq(services.active, true), eq(spas.active, true)));
/** A service of an active spa, and its spa. */
// The seeded service with the lowest id: the home page was built before the
// tests ran, so a service another test adds meanwhile is not among its options.
const someService = () => offeredServices().orderBy(asc(services.id)).limit(1).get()!;

async function homeForm(page: Page) {
  await page.goto('/#contact');
  await hydrated(page, 'BookingForm');
  return page.locator('#contact form[data-booking-form]');
}

test.describe('(1) the member home', () => {
  test('a request from its form shows in "Your bookings" without a reload', async ({ page, signedIn }) => {
    await signedIn('client', { firstName: 'Ines', lastName: 'Moreau' });
    const form = await homeForm(page);
    await expect(page.getByRole('heading', { name: 'Begin Your Wellness Journey' })).toBeVisible();
    // A marker that a reload would wipe.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Request Appointment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Booking Request Submitted!' })).toBeVisible();
    await expect(page.locator('#member-bookings [data-booking-card]')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Begin Your Wellness Journey' })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the post returns to the member home, whose list shows the request', async ({ page, signedIn }) => {
      const user = await signedIn('client', { firstName: 'Theo' });
      await page.goto('/#contact');
      const form = page.locator('#contact form[data-booking-form]');
      await expect(form.getByLabel('Email')).toHaveValue(user.email);
      await form.getByRole('checkbox').check();
      await form.getByRole('button', { name: 'Request Appointment' }).click();
      await expect(page).toHaveURL(/\/\?requested=1#bookings-heading$/);
      await expect(page.getByRole('status').filter({ hasText: 'Booking Request Submitted!' })).toBeVisible();
      await expect(page.locator('#member-bookings [data-booking-card]')).toHaveCount(1);
      expect(bookingsFor(user.email)).toMatchObject([{ userId: user.id }]);
    });
  });
});

test.describe('(4) a treatment on the home forms', () => {
  test('the home form lets the visitor choose a treatment, and the request carries it', async ({ page }) => {
    const service = someService();
    const email = uniqueEmail('treatment');
    const form = await homeForm(page);
    const treatment = form.getByLabel('Treatment');
    await expect(treatment).toHaveValue('');
    await treatment.selectOption(String(service.id));
    await form.getByLabel('Full name').fill('Rae Lindqvist');
    await form.getByLabel('Email').fill(email);
    await form.getByRole('checkbox').check();
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/bookings'));
    await form.getByRole('button', { name: 'Request Appointment' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ serviceId: service.id });
    await expect(page.getByRole('status').filter({ hasText: 'Booking Request Submitted!' })).toBeVisible();
    expect(bookingsFor(email)[0]).toMatchObject({ serviceId: service.id, spaId: service.spaId });
    // The form resets to "not sure yet".
    await expect(treatment).toHaveValue('');
  });

  test("the member home's form has the choice too", async ({ page, signedIn }) => {
    await signedIn('client');
    const form = await homeForm(page);
    const treatment = form.getByLabel('Treatment');
    await expect(treatment).toBeVisible();
    await expect(treatment).toHaveValue('');
    // "Not sure yet" and every service in the directory.
    const offered = offeredServices().all().length;
    await expect(treatment.locator('option')).toHaveCount(offered + 1);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the plain form carries the chosen treatment', async ({ page }) => {
      const service = someService();
      const email = uniqueEmail('treatment-nojs');
      await page.goto('/#contact');
      const form = page.locator('#contact form[data-booking-form]');
      await form.getByLabel('Treatment').selectOption(String(service.id));
      await form.getByLabel('Full name').fill('Ola Berg');
      await form.getByLabel('Email').fill(email);
      await form.getByRole('checkbox').check();
      await form.getByRole('button', { name: 'Request Appointment' }).click();
      await expect(page.getByRole('heading', { name: 'Booking Request Submitted!' })).toBeVisible();
      expect(bookingsFor(email)[0]).toMatchObject({ serviceId: service.id, spaId: service.spaId });
    });

    test('/booking?spa={id} addresses the plain form to that spa', async ({ page }) => {
      const spa = db.select({ id: spas.id }).from(spas).where(eq(spas.active, true)).orderBy(desc(spas.id)).limit(1).get()!;
      const email = uniqueEmail('booking-nojs');
      await page.goto(`/booking?spa=${spa.id}`);
      const form = page.locator('#request form[data-booking-form]');
      await form.getByLabel('Full name').fill('Kai Dubois');
      await form.getByLabel('Email').fill(email);
      await form.getByRole('checkbox').check();
      await form.getByRole('button', { name: 'Request Appointment' }).click();
      await expect(page.getByRole('heading', { name: 'Booking Request Submitted!' })).toBeVisible();
      expect(bookingsFor(email)[0]).toMatchObject({ spaId: spa.id });
    });
  });
});

test.describe('(10) owner sign-in', () => {
  // No sign-in limits are reset: each test asks for its link from an address of its own (../support/fixtures.ts).
  test('/owner/login asks POST /api/auth/request, and the link still lands owners on the dashboard', async ({ page }) => {
    const email = uniqueEmail('owner');
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
    await page.goto('/owner/login');
    await hydrated(page, 'MagicLinkForm');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
    expect(posts.filter((path) => path.startsWith('/api/'))).toEqual(['/api/auth/request']);
    const link = linkIn(await messageInOutbox(email), '/auth/confirm?');
    expect(link.searchParams.get('for')).toBe('owner');
    await page.goto(link.href);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/owner\/dashboard$/);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    for (const { path, purpose } of [
      { path: '/owner/login', purpose: 'owner' },
      { path: '/api/login?next=/checkout', purpose: 'client' },
    ] as const) {
      test(`${path} is a plain form: a wrong address is answered beside the field, a right one is sent`, async ({ page }) => {
        const email = uniqueEmail(`nojs-${purpose}`);
        await page.goto(path);
        await page.getByLabel('Email address').fill('not-an-address');
        await page.getByRole('button', { name: 'Send Magic Link' }).click();
        const field = page.getByLabel('Email address');
        await expect(field).toHaveValue('not-an-address');
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`)).toHaveText('Valid email is required');

        await field.fill(email);
        await page.getByRole('button', { name: 'Send Magic Link' }).click();
        await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
        await expect(page.locator('[data-magic-link-sent]')).toContainText(email);
        const link = linkIn(await messageInOutbox(email), '/auth/confirm?');
        expect(link.searchParams.get('for')).toBe(purpose);
        if (purpose === 'client') expect(link.searchParams.get('next')).toBe('/checkout');
        await page.getByRole('link', { name: 'Send Another Link' }).click();
        await expect(page.getByLabel('Email address')).toHaveValue('');
      });
    }
  });
});

test('(11) "Booking Failed" offers Retry, by keyboard too, and Retry sends the request again', async ({ page }) => {
  const email = uniqueEmail('retry');
  const form = await homeForm(page);
  await form.getByLabel('Full name').fill('Mina Sato');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('checkbox').check();
  let attempts = 0;
  await page.route('**/api/bookings', (route) =>
    ++attempts === 1 ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'busy' }) : route.continue(),
  );

  await form.getByRole('button', { name: 'Request Appointment' }).click();
  const region = page.getByRole('region', { name: 'Notifications (F8)' });
  const failed = region.locator('li[data-variant="destructive"]').filter({ hasText: 'Booking Failed' });
  await expect(failed).toBeVisible();
  const retry = failed.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();

  // F8 focuses the notifications; Tab reaches Retry before Close; Enter presses it.
  await page.keyboard.press('F8');
  await expect(region).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(retry).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(failed.getByRole('button', { name: 'Close notification' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');

  await expect(region.getByRole('status').filter({ hasText: 'Booking Request Submitted!' })).toBeVisible();
  expect(attempts).toBe(2);
  expect(bookingsFor(email)).toHaveLength(1);
});
