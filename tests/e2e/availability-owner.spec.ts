// The owner's side of open times (issue 24) in Chromium, without JavaScript:
// weekly hours and booking rules on /owner/spas/{id}/availability, refusals
// beside their fields with nothing saved, a closed date that would leave a
// booking outside the hours (the owner cancels it, the client is told), the
// hours the spa page derives from the data, and the no-JS booking form post
// (/booking/time): booked, then "That time was just taken" with alternatives.
import type { Page } from '@playwright/test';
import { axeViolationIds } from '../support/axe.ts';
import { and, count, eq, inArray, like, sql } from 'drizzle-orm';
import { bookings, cities, clinicians, mailQueue, services, spaDateHours, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import type { MailMessage } from '#lib/server/mail/mailer.ts';
import type { WeeklyHours } from '#lib/opening-hours.ts';
import { expect, test, type TestUser } from '../support/fixtures.ts';

const TAG = `e2e-availability-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
let counter = 0;

/** A listing of the owner's for one test, not active (public pages never show it), with a service and a clinician. */
function makeSpa(owner: TestUser) {
  const slug = `${TAG}-${++counter}`;
  const cityId = db.select({ id: cities.id }).from(cities).where(eq(cities.slug, 'irvine')).get()!.id;
  const spa = db
    .insert(spas)
    .values({ name: `Hours Studio ${counter}`, slug, cityId, ownerId: owner.id, active: false })
    .returning({ id: spas.id })
    .get();
  const service = db
    .insert(services)
    .values({ spaId: spa.id, name: 'Botox', priceCents: 20000, duration: 30, category: 'injectable', treatment: 'botox' })
    .returning({ id: services.id })
    .get();
  const clinician = db
    .insert(clinicians)
    .values({ spaId: spa.id, name: 'Ana Ruiz', role: 'NP', licenseNumber: `NP${counter}${Date.now() % 100000}`, treatments: ['botox'] })
    .returning({ id: clinicians.id })
    .get();
  return { id: spa.id, serviceId: service.id, clinicianId: clinician.id, path: `/owner/spas/${spa.id}/availability` };
}

/** The first name of the owners these tests make. */
const OLIVIA = { firstName: 'Olivia' };
const spaRow = (id: number) =>
  db
    .select({
      openingHours: spas.openingHours,
      bookingMode: spas.bookingMode,
      bookingHorizonDays: spas.bookingHorizonDays,
      treatmentRooms: spas.treatmentRooms,
    })
    .from(spas)
    .where(eq(spas.id, id))
    .get()!;

async function screenshots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    expect(await axeViolationIds(page), `${name} at ${width} px`).toEqual([]);
  }
}

/** A spa open 9 to 5 every day, taking instant bookings, with a confirmed booking ten days out at 10:00 or 11:00 AM Pacific. */
function spaWithBooking(me: TestUser) {
  const spa = makeSpa(me);
  const nineToFive: WeeklyHours['mon'] = [['09:00', '17:00']];
  const everyDay: WeeklyHours = { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive, sat: nineToFive, sun: nineToFive };
  db.update(spas).set({ openingHours: everyDay, bookingMode: 'instant' }).where(eq(spas.id, spa.id)).run();
  // Ten days from today in UTC, as SQLite's date('now', '+10 days').
  const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const start = Date.parse(`${date}T18:00:00Z`);
  const booking = db
    .insert(bookings)
    .values({
      spaId: spa.id,
      serviceId: spa.serviceId,
      name: 'Dana Client',
      email: `${TAG}-dana-${counter}@example.com`,
      status: 'confirmed',
      scheduledAt: new Date(start),
      endsAt: new Date(start + 30 * 60_000),
      clinicianId: spa.clinicianId,
      bookedVia: 'instant',
    })
    .returning({ id: bookings.id })
    .get();
  return { spa, date, booking };
}

async function closeDate(page: Page, date: string) {
  const form = page.locator('form[data-form="date"]');
  await form.getByLabel('Date', { exact: true }).fill(date);
  await form.getByLabel('Note for clients (optional)').fill('Staff training');
  await form.getByLabel('Closed all day').check();
  await form.getByRole('button', { name: 'Save date' }).click();
}

test.afterAll(() => {
  db.delete(bookings)
    .where(
      inArray(
        bookings.spaId,
        db
          .select({ id: spas.id })
          .from(spas)
          .where(like(spas.slug, `${TAG}%`)),
      ),
    )
    .run();
  db.delete(spas)
    .where(like(spas.slug, `${TAG}%`))
    .run();
});

test.describe('the availability page, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an owner sets weekly hours and instant booking; a bad value comes back beside its field and nothing is saved', async ({ page, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const spa = makeSpa(me);
    await page.goto(spa.path);
    await expect(page.getByRole('heading', { level: 2, name: 'How clients book' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Hours & booking' })).toHaveAttribute('aria-current', 'page');

    // Instant booking before any hours: refused, with the reason beside the mode.
    await page.getByLabel(/Instant booking/).check();
    await page.getByRole('button', { name: 'Save booking settings' }).click();
    await expect(page.locator('[data-field-error="bookingMode"]')).toHaveText('Set your weekly hours before clients can book online');
    expect(spaRow(spa.id).bookingMode).toBe('none');

    const hours = page.locator('form[data-form="hours"]');
    for (const day of ['Monday', 'Tuesday']) {
      const row = hours.getByRole('group', { name: day });
      await row.getByLabel('Opens', { exact: true }).fill('09:00');
      await row.getByLabel('Closes', { exact: true }).first().fill('13:00');
      await row.getByLabel('Reopens', { exact: true }).fill('14:00');
      await row.getByLabel('Closes', { exact: true }).nth(1).fill('18:00');
    }
    await hours.getByRole('group', { name: 'Wednesday' }).getByLabel('Opens', { exact: true }).fill('10:00');
    await hours.getByRole('button', { name: 'Save weekly hours' }).click();
    // Wednesday has an opening without a closing: refused beside Wednesday, typed values kept.
    await expect(page.locator('[data-field-error="wed.open1"]')).toHaveText('Give both the opening and the closing time, or neither');
    await expect(hours.getByRole('group', { name: 'Monday' }).getByLabel('Reopens', { exact: true })).toHaveValue('14:00');
    expect(spaRow(spa.id).openingHours).toBeNull();

    await hours.getByRole('group', { name: 'Wednesday' }).getByLabel('Closes', { exact: true }).first().fill('16:00');
    await hours.getByRole('button', { name: 'Save weekly hours' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('Weekly hours saved.');
    expect(spaRow(spa.id).openingHours).toEqual({
      mon: [
        ['09:00', '13:00'],
        ['14:00', '18:00'],
      ],
      tue: [
        ['09:00', '13:00'],
        ['14:00', '18:00'],
      ],
      wed: [['10:00', '16:00']],
      thu: [],
      fri: [],
      sat: [],
      sun: [],
    });

    await page.getByLabel(/Instant booking/).check();
    await page.getByLabel('Bookable up to (days ahead)').fill('0');
    await page.getByLabel('Treatment rooms').fill('3');
    await page.getByRole('button', { name: 'Save booking settings' }).click();
    await expect(page.locator('[data-field-error="bookingHorizonDays"]')).toHaveText('Enter a whole number of days (1 to 365)');
    // The first field in error takes the focus when the page comes back (autofocus).
    await expect(page.getByLabel('Bookable up to (days ahead)')).toHaveAttribute('autofocus', '');
    expect(spaRow(spa.id)).toMatchObject({ bookingMode: 'none', bookingHorizonDays: 60, treatmentRooms: null });
    await page.getByLabel('Bookable up to (days ahead)').fill('30');
    await page.getByRole('button', { name: 'Save booking settings' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('Booking settings saved.');
    expect(spaRow(spa.id)).toMatchObject({ bookingMode: 'instant', bookingHorizonDays: 30, treatmentRooms: 3 });
  });

  test('closing a date with a booking on it asks first; the owner cancels it and the client is told', async ({ page, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const { spa, date, booking } = spaWithBooking(me);
    await page.goto(spa.path);
    await closeDate(page, date);
    const affected = page.locator('[data-affected-bookings]');
    await expect(affected).toContainText('1 booking falls outside these hours.');
    await expect(affected.locator(`[data-affected-booking="${booking.id}"]`)).toContainText('Dana Client: Botox');
    expect(db.select().from(spaDateHours).where(eq(spaDateHours.spaId, spa.id)).all()).toEqual([]);
    await affected.getByRole('button', { name: 'Save and cancel these bookings' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('The bookings you chose to cancel are cancelled');
    await expect(page.locator(`[data-special-date="${date}"]`)).toContainText('Closed');
    expect(db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, booking.id)).get()!.status).toBe('cancelled');
    const told = db
      .select({ message: mailQueue.message })
      .from(mailQueue)
      .where(eq(sql`json_extract(${mailQueue.message}, '$.to')`, `${TAG}-dana-${counter}@example.com`))
      .all();
    expect(told.map((m) => (m.message as MailMessage).subject)).toEqual([`Cancelled: Botox at Hours Studio ${counter}`]);
  });

  test('old hours that did not read as times: the dashboard asks for them, and setting the hours clears the note', async ({ page, signedIn }) => {
    const me = await signedIn('owner', OLIVIA);
    const spa = makeSpa(me);
    db.update(spas).set({ hoursNote: 'Mon: By appointment; Tue: Closed' }).where(eq(spas.id, spa.id)).run();
    await page.goto('/owner/dashboard');
    const note = page.locator(`[data-spa-id="${spa.id}"] [data-hours-note]`);
    await expect(note).toContainText('“Mon: By appointment; Tue: Closed”');
    await note.getByRole('link', { name: /Set your hours/ }).click();
    await expect(page.locator('[data-availability-page] [data-hours-note]')).toContainText('Mon: By appointment');
    const monday = page.locator('form[data-form="hours"]').getByRole('group', { name: 'Monday' });
    await monday.getByLabel('Opens', { exact: true }).fill('10:00');
    await monday.getByLabel('Closes', { exact: true }).first().fill('16:00');
    await page.getByRole('button', { name: 'Save weekly hours' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('Weekly hours saved.');
    await expect(page.locator('[data-hours-note]')).toHaveCount(0);
    expect(db.select({ note: spas.hoursNote }).from(spas).where(eq(spas.id, spa.id)).get()!.note).toBeNull();
    await page.goto('/owner/dashboard');
    await expect(page.locator(`[data-spa-id="${spa.id}"] [data-hours-note]`)).toHaveCount(0);
  });

  test('someone else’s spa is not found, and a visitor is asked to sign in', async ({ page, signedIn, person }) => {
    await signedIn('owner', OLIVIA); // a stranger to the spa
    const spa = makeSpa(person('owner', OLIVIA));
    expect((await page.goto(spa.path))!.status()).toBe(404);
    await page.context().clearCookies();
    expect((await page.goto(spa.path))!.status()).toBe(401);
  });
});

test.describe('the availability page, looked at', () => {
  test('its states are accessible at 375 and 1280 px: the page, a refusal, and bookings a change would leave out', async ({ page, signedIn }) => {
    test.setTimeout(120_000);
    const me = await signedIn('owner', OLIVIA);
    const { spa, date } = spaWithBooking(me);
    await page.goto(spa.path);
    await screenshots(page, 'availability');
    await page.getByLabel('Bookable up to (days ahead)').fill('999');
    await page.getByRole('button', { name: 'Save booking settings' }).click();
    await expect(page.locator('[data-field-error="bookingHorizonDays"]')).toBeVisible();
    await screenshots(page, 'availability-refused');
    await closeDate(page, date);
    await expect(page.locator('[data-affected-bookings]')).toBeVisible();
    await screenshots(page, 'availability-affected');
  });
});

test.describe('what clients see', () => {
  test('the spa page shows its hours from the data, and JSON-LD publishes them', async ({ page }) => {
    await page.goto('/spas/harborlight-aesthetics');
    const table = page.locator('[data-opening-hours]');
    await expect(table.getByRole('row', { name: /Monday/ })).toContainText('8:30 AM – 6:00 PM');
    await expect(table.getByRole('row', { name: /Sunday/ })).toContainText('Closed');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!) as { openingHoursSpecification?: unknown[] };
    expect(ld.openingHoursSpecification).toContainEqual({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday'],
      opens: '08:30',
      closes: '18:00',
    });
  });

  test('an open time booked with a plain form: booked; the same time again is taken, and an alternative books', async ({ page, request }) => {
    test.setTimeout(90_000);
    // No limit is reset: this test books from an address of its own (../support/fixtures.ts).
    const spa = db
      .select({ id: spas.id, serviceId: services.id })
      .from(spas)
      .innerJoin(services, eq(services.spaId, spas.id))
      .where(and(eq(spas.slug, 'jacaranda-aesthetic-institute'), eq(services.name, 'Botox Cosmetic')))
      .get()!;
    const slots = (await (await request.get(`/api/spas/${spa.id}/slots?service=${spa.serviceId}&days=14`)).json()) as {
      dates: { times: { start: string; clinicianIds: number[] }[] }[];
    };
    // A time only one clinician can take, so the second try finds it taken. The demo has
    // such times only when Marisol Vega's day off (the day after seeding) is open: seeded
    // on a Saturday it is the closed Sunday. So the time with the fewest clinicians is
    // taken, and every clinician but one is booked at it first, by name.
    const time = slots.dates.flatMap((d) => d.times).sort((a, b) => a.clinicianIds.length - b.clinicianIds.length)[0]!;
    const submit = async (email: string, clinicianId?: number) => {
      await page.goto('/booking');
      await page.evaluate(
        ({ fields }) => {
          const form = document.createElement('form');
          form.method = 'post';
          form.action = '/booking/time';
          for (const [name, value] of Object.entries(fields)) {
            const input = document.createElement('input');
            input.type = 'hidden';
            input.name = name;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        },
        {
          fields: {
            spaId: String(spa.id),
            serviceId: String(spa.serviceId),
            start: time.start,
            ...(clinicianId ? { clinicianId: String(clinicianId) } : {}),
            name: 'Form Client',
            email,
            consent: 'on',
          },
        },
      );
      await page.waitForURL('**/booking/time');
    };
    for (const clinicianId of time.clinicianIds.slice(1)) {
      await submit(`${TAG}-other-${clinicianId}@example.com`, clinicianId);
      await expect(page.locator('[data-confirmation]')).toHaveText(/^Booked: Botox Cosmetic at Jacaranda Aesthetic Institute/);
    }
    await submit(`${TAG}-form-1@example.com`);
    await expect(page.locator('[data-confirmation]')).toHaveText(/^Booked: Botox Cosmetic at Jacaranda Aesthetic Institute, .+ Pacific$/);
    await submit(`${TAG}-form-2@example.com`);
    await expect(page.getByRole('heading', { name: 'That time was just taken' })).toBeVisible();
    await screenshots(page, 'booking-taken');
    await page.locator('[data-alternatives] button').first().click();
    await expect(page.locator('[data-confirmation]')).toHaveText(/^Booked: Botox Cosmetic at Jacaranda Aesthetic Institute/);
    expect(
      db
        .select({ n: count() })
        .from(bookings)
        .where(like(bookings.email, `${TAG}-form-%`))
        .get()!.n,
    ).toBe(2);
  });
});
