// Issue 14, reminders and response time, as a client and an owner see them:
// the cancellation window on the manage page (and the server behind it), the
// owner's policies form, and the spa page's two trust lines. Axe on each page.
import type { Page } from '@playwright/test';
import { axeBuilder } from '../support/axe.ts';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNotNull, ne, notExists } from 'drizzle-orm';
import { bookings, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { lendListing } from '../support/spas.ts';
import { AXE_TAGS } from '#tests/support/axe.ts';

const HOUR = 3_600_000;
const ANSWERING_SPA = 'saltwater-skin-atelier';

async function expectNoAxeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(AXE_TAGS).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const token = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(32)].map((byte) => alphabet[byte & 31]).join('');
};

/**
 * A confirmed booking written as it stands: the lifecycle would not confirm
 * one already inside its spa's cancellation window, which is what these tests need.
 */
const writeBooking = (fields: { spaId: number; userId?: number | null; name: string; email: string; scheduledAt: Date; manageToken: string }) =>
  db
    .insert(bookings)
    .values({ ...fields, status: 'confirmed', calendarSequence: 1 })
    .returning({ id: bookings.id })
    .get();
const windowOf = (spaId: number) => db.select({ hours: spas.cancellationWindowHours }).from(spas).where(eq(spas.id, spaId)).get()!.hours;

/** A booking confirmed at `hoursAhead` from now at the answering spa, with its manage token. */
function confirmedBooking(hoursAhead: number, userId: number | null = null) {
  const spa = db.select({ id: spas.id, phone: spas.phone, name: spas.name }).from(spas).where(eq(spas.slug, ANSWERING_SPA)).get()!;
  const manageToken = token();
  const email = `client-${manageToken.slice(0, 10)}@example.com`;
  const booking = writeBooking({ spaId: spa.id, userId, name: 'Late Client', email, scheduledAt: new Date(Date.now() + hoursAhead * HOUR), manageToken });
  const status = () => db.select({ status: bookings.status, updatedAt: bookings.updatedAt }).from(bookings).where(eq(bookings.id, booking.id)).get()!;
  return { id: booking.id, manageToken, spa, status };
}

test.describe('the cancellation window on the manage page', () => {
  for (const width of [375, 1280]) {
    test(`inside the window: no Cancel button, the call-the-spa text with a tel: link (${width}px)`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      const booking = confirmedBooking(10);
      await page.goto(`/bookings/manage/${booking.manageToken}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('summary', { hasText: 'Cancel this booking' })).toHaveCount(0);
      const call = page.locator('[data-manage-call]');
      await expect(call).toContainText('Your appointment is less than 24 hours away, so it can no longer be cancelled online.');
      await expect(call).toContainText(`call ${booking.spa.name} at`);
      await expect(call.getByRole('link', { name: booking.spa.phone! })).toHaveAttribute('href', /^tel:\+1\d{10}$/);
      await page.screenshot({ path: testInfo.outputPath(`manage-inside-window-${width}.png`), fullPage: true });
      await expectNoAxeViolations(page);
    });
  }

  test('outside the window the client still cancels online', async ({ page }) => {
    const booking = confirmedBooking(30);
    await page.goto(`/bookings/manage/${booking.manageToken}`);
    await page.locator('summary', { hasText: 'Cancel this booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
    await expect(page.locator('[data-manage-notice]')).toContainText('Your booking is cancelled');
    expect(booking.status().status).toBe('cancelled');
  });

  test('a raw form POST to cancel inside the window is refused (409) and changes nothing', async ({ request }) => {
    const booking = confirmedBooking(5);
    const before = booking.status();
    const response = await request.post(`/bookings/manage/${booking.manageToken}`, { form: { intent: 'cancel' }, headers: { Origin: baseURL } });
    expect(response.status()).toBe(409);
    expect(await response.text()).toContain('it can no longer be cancelled online');
    expect(booking.status()).toEqual(before);
  });

  test('a raw PATCH by the signed-in client is refused (409 inside_cancellation_window) and changes nothing', async ({ playwright, person }) => {
    const client = person();
    const booking = confirmedBooking(5, client.id);
    const before = booking.status();
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `session=${client.token}`, Origin: baseURL } });
    const response = await api.patch(`/api/bookings/${booking.id}`, { data: { status: 'cancelled' } });
    expect(response.status()).toBe(409);
    expect(await response.json()).toEqual({
      error: {
        code: 'inside_cancellation_window',
        message: 'Your appointment is less than 24 hours away, so it can no longer be cancelled online. Call the spa to cancel or change it.',
      },
    });
    expect(booking.status()).toEqual(before);
    await api.dispose();
  });
});

test.describe('the owner sets the window on /owner/spas/{id}/policies', () => {
  test('saves a valid window (post/redirect/get), refuses a bad one in place, and the manage page follows it', async ({ page, signedIn }, testInfo) => {
    const owner = await signedIn('owner');
    const spa = lendListing(owner.id, and(ne(spas.slug, ANSWERING_SPA), isNotNull(spas.phone)))!;
    try {
      await page.goto(`/owner/spas/${spa.id}/policies`);
      await expect(page.getByRole('heading', { name: spa.name })).toBeVisible();
      const field = page.getByLabel('Cancellation window (hours)');
      await expect(field).toHaveValue('24');
      await expectNoAxeViolations(page);

      await field.fill('500');
      const refused = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save policies' }).click();
      expect((await refused).status()).toBe(422);
      await expect(page.getByText('Enter a whole number of hours from 0 to 168')).toBeVisible();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveValue('500');
      await page.screenshot({ path: testInfo.outputPath('policies-refused.png'), fullPage: true });
      expect(windowOf(spa.id)).toBe(24);
      await expectNoAxeViolations(page);

      await field.fill('48');
      await page.getByRole('button', { name: 'Save policies' }).click();
      await expect(page).toHaveURL(`/owner/spas/${spa.id}/policies?saved=1`);
      await expect(page.locator('[data-policy-saved]')).toContainText('Free cancellation up to 48 hours before');
      await expect(field).toHaveValue('48');
      expect(windowOf(spa.id)).toBe(48);

      // A booking 30 hours ahead is now inside the spa's window.
      const manageToken = token();
      writeBooking({
        spaId: spa.id,
        name: 'Client',
        email: `policy-${manageToken.slice(0, 8)}@example.com`,
        scheduledAt: new Date(Date.now() + 30 * HOUR),
        manageToken,
      });
      await page.goto(`/bookings/manage/${manageToken}`);
      await expect(page.locator('[data-manage-call]')).toContainText('less than 48 hours away');
      await expect(page.locator('summary', { hasText: 'Cancel this booking' })).toHaveCount(0);
    } finally {
      db.update(spas).set({ ownerId: null, cancellationWindowHours: 24 }).where(eq(spas.id, spa.id)).run();
    }
  });

  test('signed out: 401 and the sign-in screen; another owner’s listing or a bad id: 404', async ({ page, request, signedIn }) => {
    const spaId = db.select({ id: spas.id }).from(spas).where(eq(spas.slug, ANSWERING_SPA)).get()!.id;
    const signedOut = await request.get(`/owner/spas/${spaId}/policies`, { maxRedirects: 0 });
    expect(signedOut.status()).toBe(401);
    expect(await signedOut.text()).toContain('Sign in to manage your listing.');

    await signedIn('owner'); // an owner, not this listing's
    for (const id of [String(spaId), 'abc', '999999999']) {
      const response = await page.goto(`/owner/spas/${id}/policies`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Listing not found' })).toBeVisible();
    }
    const posted = await page.request.post(`/owner/spas/${spaId}/policies`, { form: { cancellationWindowHours: '0' }, headers: { Origin: baseURL } });
    expect(posted.status()).toBe(404);
    expect(windowOf(spaId)).toBe(24);
  });
});

test.describe('the spa page’s booking area', () => {
  for (const width of [375, 1280]) {
    test(`says how fast the spa answers and its cancellation window (${width}px)`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/spas/${ANSWERING_SPA}`);
      const area = page.locator('#request');
      // The demo data: answers after 0.5, 1.5, 2, 3, 4, 6 and 26 hours.
      await expect(area.locator('[data-response-time]')).toHaveText('Usually answers within 3 hours');
      await expect(area.locator('[data-cancellation-policy]')).toHaveText('Free cancellation up to 24 hours before');
      await area.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`spa-booking-area-${width}.png`) });
      await expectNoAxeViolations(page);
    });
  }

  test('a spa with too few requests shows no response time', async ({ page }) => {
    const { slug } = db
      .select({ slug: spas.slug })
      .from(spas)
      .where(
        and(eq(spas.active, true), ne(spas.slug, ANSWERING_SPA), notExists(db.select({ id: bookings.id }).from(bookings).where(eq(bookings.spaId, spas.id)))),
      )
      .orderBy(asc(spas.id))
      .limit(1)
      .get()!;
    await page.goto(`/spas/${slug}`);
    await expect(page.locator('#request [data-cancellation-policy]')).toBeVisible();
    await expect(page.locator('[data-response-time]')).toHaveCount(0);
  });
});
