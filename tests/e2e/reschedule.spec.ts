// Moving and cancelling a booked open time from the manage link (issue 24;
// issue 26 item 7), in Chromium: the same picker as booking (live and without
// JavaScript), the calendar invitation's SEQUENCE and the reminders following
// the new time, a time taken meanwhile refused with its week shown again, and
// a cancellation only after a yes. Harborlight's Dermal Filler, six weeks and
// more out, so no other spec's times are touched.
import type { APIRequestContext, Page } from '@playwright/test';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { bookings, mailQueue, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { axeViolationIds } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { blockSiteScripts } from '../support/islands.ts';
import { decodeQuotedPrintable, messageInOutbox } from '../support/outbox.ts';

const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const spa = () => db.select({ id: spas.id }).from(spas).where(eq(spas.slug, 'harborlight-aesthetics')).get()!.id;
const filler = () =>
  db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.spaId, spa()), eq(services.name, 'Dermal Filler')))
    .get()!.id;
const row = (id: number) =>
  db
    .select({ status: bookings.status, scheduledAt: bookings.scheduledAt, endsAt: bookings.endsAt, calendarSequence: bookings.calendarSequence })
    .from(bookings)
    .where(eq(bookings.id, id))
    .get()!;

/** 'YYYY-MM-DD', Pacific, `days` from today. */
function addDays(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The open times of Harborlight's Dermal Filler in the week from `days` ahead, soonest first. */
async function openTimes(request: APIRequestContext, days: number): Promise<string[]> {
  const answer = await request.get(`/api/spas/${spa()}/slots?service=${filler()}&from=${addDays(days)}&days=7`);
  const week = (await answer.json()) as { dates: { times: { start: string }[] }[] };
  return week.dates.flatMap((d) => d.times.map((t) => t.start));
}

/** Books an open time `days` ahead through the API; its id, manage path and client's address. */
async function bookAhead(request: APIRequestContext, days: number, who: string) {
  const email = uniqueEmail(who);
  const start = (await openTimes(request, days))[0]!;
  const response = await request.post(`/api/spas/${spa()}/bookings`, { data: { serviceId: filler(), start, name: 'Morgan Mover', email } });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { booking: { id: number }; manageUrl: string };
  return { id: body.booking.id, path: new URL(body.manageUrl).pathname, email, start };
}

const reminderAt = (id: number) =>
  db
    .select({ notBefore: mailQueue.notBefore })
    .from(mailQueue)
    .where(and(eq(mailQueue.key, `booking-${id}:reminder-day-before`), isNull(mailQueue.sentAt), isNull(mailQueue.failedAt)))
    .orderBy(desc(mailQueue.id))
    .limit(1)
    .get()
    ?.notBefore?.getTime();

async function expectMoved(page: Page, booking: { id: number; email: string }, sequence: number, to: string) {
  await expect(page.locator('[data-manage-notice]')).toContainText('Moved: your appointment is now');
  const after = row(booking.id);
  expect(after.status).toBe('confirmed');
  expect(after.scheduledAt!.toISOString()).toBe(to);
  expect(after.endsAt!.getTime() - after.scheduledAt!.getTime()).toBe(45 * 60_000);
  expect(after.calendarSequence).toBe(sequence + 1);
  const mail = decodeQuotedPrintable(await messageInOutbox(booking.email, 'New time: Dermal Filler at Harborlight Aesthetics'));
  expect(mail).toMatch(/method=REQUEST/i);
  expect(mail).toContain(`SEQUENCE:${sequence + 1}`);
  expect(mail).toContain(`UID:booking-${booking.id}@`);
  // The day-before reminder moved with it.
  expect(reminderAt(booking.id)).toBe(Date.parse(to) - 24 * 3_600_000);
}

// Whole booking flows, with axe at each step, on a machine shared by parallel runs.
test.describe.configure({ timeout: 90_000 });

// No limits are reset: each test books from an address of its own (../support/fixtures.ts).

test('the client moves their booking with the live picker: the new time, the updated invitation, the reminders', async ({ page, request }, testInfo) => {
  const booking = await bookAhead(request, 42, 'move-live');
  const sequence = row(booking.id).calendarSequence;
  await page.goto(booking.path);
  await expect(page.locator('[data-manage-when]')).toBeVisible();
  expect(await axeViolationIds(page)).toEqual([]);
  await page.locator('summary', { hasText: 'Change the time' }).click();
  const picker = page.locator('#change-time');
  // Wakes the island: the server's week, or the island's day strip when the click above already did.
  await picker.locator('[data-open-week], [data-day-strip]').first().hover();
  await expect(picker.locator('[data-day-strip]')).toBeVisible();
  const firstTime = () =>
    picker
      .locator('[data-day-strip] [data-time]')
      .first()
      .getAttribute('data-time', { timeout: 1_000 })
      .catch(() => null);
  const thisWeek = await firstTime();
  await picker.locator('[data-week="next"]').click();
  // The next week's times, not this week's still on screen while it loads.
  await expect.poll(firstTime).not.toBe(thisWeek);
  await expect(picker.locator('[data-open-times]')).toHaveAttribute('aria-busy', 'false');
  // The day's last time, not its first: the next test books the first open time
  // 49 days out, which is this week's first whenever both fall on the same
  // weekday, and with both tests running at once that time was sometimes taken.
  const lastTime = picker.locator('[data-day-strip] [data-time]').last();
  const target = await lastTime.getAttribute('data-time');
  expect(target).not.toBeNull();
  await lastTime.click();
  await expect(picker.getByRole('heading', { name: 'Move your appointment' })).toBeFocused();
  expect(await axeViolationIds(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('move-details.png') });
  await picker.getByRole('button', { name: /^Move my appointment to / }).click();
  await expectMoved(page, booking, sequence, target!);
  expect(await axeViolationIds(page)).toEqual([]);
});

test('moving a time that was just taken is refused, nothing changes, and its week is shown again', async ({ page, request }) => {
  const booking = await bookAhead(request, 49, 'move-taken');
  const before = row(booking.id);
  await page.goto(booking.path);
  await page.locator('summary', { hasText: 'Change the time' }).click();
  const picker = page.locator('#change-time');
  // Wakes the island: the server's week, or the island's day strip when the click above already did.
  await picker.locator('[data-open-week], [data-day-strip]').first().hover();
  await expect(picker.locator('[data-day-strip]')).toBeVisible();
  // A week after the booking, so the time chosen is clear of its own.
  const firstDay = await picker.locator('[data-day]').first().getAttribute('data-day');
  await picker.locator('[data-week="next"]').click();
  await expect(picker.locator('[data-day]').first()).not.toHaveAttribute('data-day', firstDay!);
  const times = picker.locator('[data-day-strip] [data-time]');
  // Someone else books the time while the client is deciding (both Dermal Filler clinicians, one after the other).
  const target = (await times.nth(3).getAttribute('data-time'))!;
  await times.nth(3).click();
  for (const who of ['first', 'second']) {
    await request.post(`/api/spas/${spa()}/bookings`, { data: { serviceId: filler(), start: target, name: 'Quick', email: uniqueEmail(`taken-${who}`) } });
  }
  await picker.getByRole('button', { name: /^Move my appointment to / }).click();
  await expect(page.locator('[data-manage-notice]')).toHaveText('That time was just taken');
  expect(row(booking.id)).toEqual(before);
  await expect(page.locator('#change-time')).toHaveAttribute('open', '');
  await expect(page.locator('#change-time [data-open-week], #change-time [data-day-strip]').first()).toBeVisible();
  expect(await axeViolationIds(page)).toEqual([]);
});

test('cancel asks for a yes first, then withdraws the invitation', async ({ page, request }) => {
  const booking = await bookAhead(request, 56, 'cancel');
  const sequence = row(booking.id).calendarSequence;
  await page.goto(booking.path);
  await expect(page.getByRole('button', { name: 'Yes, cancel this booking' })).toBeHidden();
  await page.locator('summary', { hasText: 'Cancel this booking' }).click();
  const confirm = page.locator('[data-cancel-confirm]');
  await expect(confirm).toContainText('Cancel your Dermal Filler at Harborlight Aesthetics on');
  expect(row(booking.id).status).toBe('confirmed');
  expect(await axeViolationIds(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Yes, cancel this booking' }).click();
  await expect(page.locator('[data-manage-notice]')).toContainText('Your booking is cancelled');
  expect(row(booking.id).status).toBe('cancelled');
  const mail = decodeQuotedPrintable(await messageInOutbox(booking.email, 'Cancelled:'));
  expect(mail).toMatch(/method=CANCEL/i);
  expect(mail).toContain(`SEQUENCE:${sequence + 1}`);
  await expect(page.locator('summary', { hasText: 'Change the time' })).toHaveCount(0);
});

test('the manage page’s plain states (the week, a chosen time) are axe-clean before the island is live', async ({ page, request }) => {
  await blockSiteScripts(page);
  const booking = await bookAhead(request, 52, 'plain-axe');
  await page.goto(`${booking.path}?from=${addDays(53)}`);
  await expect(page.locator('#change-time [data-open-week]')).toBeVisible();
  expect(await axeViolationIds(page)).toEqual([]);
  const start = (await openTimes(request, 53))[0]!;
  await page.goto(`${booking.path}?service=${filler()}&start=${encodeURIComponent(start)}`);
  await expect(page.getByRole('button', { name: /^Move my appointment to / })).toBeVisible();
  expect(await axeViolationIds(page)).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the manage page moves the booking with plain forms: the week, a time, the move', async ({ page, request }) => {
    const booking = await bookAhead(request, 45, 'move-nojs');
    const sequence = row(booking.id).calendarSequence;
    await page.goto(booking.path);
    await page.locator('summary', { hasText: 'Change the time' }).click();
    const week = page.locator('#change-time [data-open-week]');
    await week.getByRole('link', { name: 'Later week' }).click();
    await expect(page.locator('#change-time')).toHaveAttribute('open', '');
    const time = page.locator('#change-time [data-open-time]').first();
    const target = await time.getAttribute('data-open-time');
    await time.click();
    await expect(page).toHaveURL(/start=/);
    await expect(page.locator('#change-time [data-chosen]')).toHaveAttribute('data-chosen', target!);
    await page.getByRole('button', { name: /^Move my appointment to / }).click();
    await expectMoved(page, booking, sequence, target!);
  });

  test('the manage link of a booking inside the cancellation window offers neither change nor cancel, and refuses a forged move', async ({ page, request }) => {
    // Confirmed for ten hours from now: inside Harborlight's 24 hours.
    const token = `inside${Date.now().toString(36)}`
      .padEnd(32, 'a')
      .slice(0, 32)
      .replace(/[^a-z2-7]/g, 'a');
    // Written as it stands, not booked: no open time need exist ten hours from now.
    const inserted = db
      .insert(bookings)
      .values({
        spaId: spa(),
        serviceId: filler(),
        name: 'Soon',
        email: uniqueEmail('inside'),
        status: 'confirmed',
        scheduledAt: new Date(Date.now() + 10 * 3_600_000),
        endsAt: new Date(Date.now() + 10 * 3_600_000 + 45 * 60_000),
        manageToken: token,
        bookedVia: 'instant',
        calendarSequence: 1,
      })
      .returning({ id: bookings.id })
      .get();
    await page.goto(`/bookings/manage/${token}`);
    await expect(page.locator('[data-manage-call]')).toContainText('can no longer be cancelled online');
    await expect(page.locator('summary')).toHaveCount(0);
    const forged = await request.post(`/bookings/manage/${token}`, {
      form: { intent: 'reschedule', start: (await openTimes(request, 30))[0]! },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(forged.status()).toBe(409);
    expect(await forged.text()).toContain('can no longer be changed online');
    expect(row(inserted.id).calendarSequence).toBe(1);
  });
});
