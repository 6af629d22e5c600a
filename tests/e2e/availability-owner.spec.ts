// The owner's side of open times (issue 24) in Chromium, without JavaScript:
// weekly hours and booking rules on /owner/spas/{id}/availability, refusals
// beside their fields with nothing saved, a closed date that would leave a
// booking outside the hours (the owner cancels it, the client is told), the
// hours the spa page derives from the data, and the no-JS booking form post
// (/booking/time): booked, then "That time was just taken" with alternatives.
import { expect, test, type Page } from '@playwright/test';
import { axeViolationIds } from '../support/axe.ts';
import { query, write } from '../support/db.ts';
import { forgetLoopbackLimits } from '../support/limits.ts';
import { createSignedInUser, signIn, type TestUser } from '../support/sessions.ts';

const TAG = `e2e-availability-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
let counter = 0;

/** A listing of the owner's for one test, not active (public pages never show it), with a service and a clinician. */
function makeSpa(owner: TestUser) {
  const slug = `${TAG}-${++counter}`;
  const cityId = query<{ id: number }>("select id from cities where slug = 'irvine'")[0]!.id;
  const spa = write<{ id: number }>(
    'insert into spas (name, slug, city_id, owner_id, active) values (?, ?, ?, ?, 0) returning id',
    `Hours Studio ${counter}`,
    slug,
    cityId,
    owner.id,
  )!;
  const service = write<{ id: number }>(
    "insert into services (spa_id, name, price_cents, duration, category, treatment) values (?, 'Botox', 20000, 30, 'injectable', 'botox') returning id",
    spa.id,
  )!;
  const clinician = write<{ id: number }>(
    "insert into clinicians (spa_id, name, role, license_number, treatments) values (?, 'Ana Ruiz', 'NP', ?, '[\"botox\"]') returning id",
    spa.id,
    `NP${counter}${Date.now() % 100000}`,
  )!;
  return { id: spa.id, serviceId: service.id, clinicianId: clinician.id, path: `/owner/spas/${spa.id}/availability` };
}

const owner = () => {
  const user = createSignedInUser({ role: 'owner', firstName: 'Olivia' });
  return user;
};
const spaRow = (id: number) =>
  query<{ opening_hours: string | null; booking_mode: string; booking_horizon_days: number; treatment_rooms: number | null }>(
    'select * from spas where id = ?',
    id,
  )[0]!;

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
  const everyDay = JSON.stringify(Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['09:00', '17:00']]])));
  write("update spas set opening_hours = ?, booking_mode = 'instant' where id = ?", everyDay, spa.id);
  const date = query<{ d: string }>("select date('now', '+10 days') as d")[0]!.d;
  const start = Date.parse(`${date}T18:00:00Z`);
  const booking = write<{ id: number }>(
    `insert into bookings (spa_id, service_id, name, email, status, scheduled_at, ends_at, clinician_id, booked_via)
     values (?, ?, 'Dana Client', ?, 'confirmed', ?, ?, ?, 'instant') returning id`,
    spa.id,
    spa.serviceId,
    `${TAG}-dana-${counter}@example.com`,
    start,
    start + 30 * 60_000,
    spa.clinicianId,
  )!;
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
  write('delete from bookings where spa_id in (select id from spas where slug like ?)', `${TAG}%`);
  write('delete from spas where slug like ?', `${TAG}%`);
});

test.describe('the availability page, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an owner sets weekly hours and instant booking; a bad value comes back beside its field and nothing is saved', async ({ page }) => {
    const me = owner();
    const spa = makeSpa(me);
    await signIn(page.context(), me);
    await page.goto(spa.path);
    await expect(page.getByRole('heading', { level: 2, name: 'How clients book' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Hours & booking' })).toHaveAttribute('aria-current', 'page');

    // Instant booking before any hours: refused, with the reason beside the mode.
    await page.getByLabel(/Instant booking/).check();
    await page.getByRole('button', { name: 'Save booking settings' }).click();
    await expect(page.locator('[data-field-error="bookingMode"]')).toHaveText('Set your weekly hours before clients can book online');
    expect(spaRow(spa.id).booking_mode).toBe('none');

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
    expect(spaRow(spa.id).opening_hours).toBeNull();

    await hours.getByRole('group', { name: 'Wednesday' }).getByLabel('Closes', { exact: true }).first().fill('16:00');
    await hours.getByRole('button', { name: 'Save weekly hours' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('Weekly hours saved.');
    expect(JSON.parse(spaRow(spa.id).opening_hours!)).toEqual({
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
    expect(spaRow(spa.id)).toMatchObject({ booking_mode: 'none', booking_horizon_days: 60, treatment_rooms: null });
    await page.getByLabel('Bookable up to (days ahead)').fill('30');
    await page.getByRole('button', { name: 'Save booking settings' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('Booking settings saved.');
    expect(spaRow(spa.id)).toMatchObject({ booking_mode: 'instant', booking_horizon_days: 30, treatment_rooms: 3 });
  });

  test('closing a date with a booking on it asks first; the owner cancels it and the client is told', async ({ page }) => {
    const me = owner();
    const { spa, date, booking } = spaWithBooking(me);
    await signIn(page.context(), me);
    await page.goto(spa.path);
    await closeDate(page, date);
    const affected = page.locator('[data-affected-bookings]');
    await expect(affected).toContainText('1 booking falls outside these hours.');
    await expect(affected.locator(`[data-affected-booking="${booking.id}"]`)).toContainText('Dana Client: Botox');
    expect(query('select * from spa_date_hours where spa_id = ?', spa.id)).toEqual([]);
    await affected.getByRole('button', { name: 'Save and cancel these bookings' }).click();
    await expect(page.locator('[data-owner-notice]')).toContainText('The bookings you chose to cancel are cancelled');
    await expect(page.locator(`[data-special-date="${date}"]`)).toContainText('Closed');
    expect(query<{ status: string }>('select status from bookings where id = ?', booking.id)[0]!.status).toBe('cancelled');
    const told = query<{ subject: string }>(
      "select json_extract(message, '$.subject') as subject from mail_queue where json_extract(message, '$.to') = ?",
      `${TAG}-dana-${counter}@example.com`,
    );
    expect(told.map((m) => m.subject)).toEqual([`Cancelled: Botox at Hours Studio ${counter}`]);
  });

  test('old hours that did not read as times: the dashboard asks for them, and setting the hours clears the note', async ({ page }) => {
    const me = owner();
    const spa = makeSpa(me);
    write('update spas set hours_note = ? where id = ?', 'Mon: By appointment; Tue: Closed', spa.id);
    await signIn(page.context(), me);
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
    expect(query<{ note: string | null }>('select hours_note as note from spas where id = ?', spa.id)[0]!.note).toBeNull();
    await page.goto('/owner/dashboard');
    await expect(page.locator(`[data-spa-id="${spa.id}"] [data-hours-note]`)).toHaveCount(0);
  });

  test('someone else’s spa is not found, and a visitor is asked to sign in', async ({ page }) => {
    const stranger = owner();
    const spa = makeSpa(owner());
    await signIn(page.context(), stranger);
    expect((await page.goto(spa.path))!.status()).toBe(404);
    await page.context().clearCookies();
    expect((await page.goto(spa.path))!.status()).toBe(401);
  });
});

test.describe('the availability page, looked at', () => {
  test('its states are accessible at 375 and 1280 px: the page, a refusal, and bookings a change would leave out', async ({ page }) => {
    test.setTimeout(120_000);
    const me = owner();
    const { spa, date } = spaWithBooking(me);
    await signIn(page.context(), me);
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
    forgetLoopbackLimits();
    const spa = query<{ id: number; serviceId: number }>(
      "select p.id, s.id as serviceId from spas p join services s on s.spa_id = p.id where p.slug = 'jacaranda-aesthetic-institute' and s.name = 'Botox Cosmetic'",
    )[0]!;
    const slots = (await (await request.get(`/api/spas/${spa.id}/slots?service=${spa.serviceId}&days=14`)).json()) as {
      dates: { times: { start: string; clinicianIds: number[] }[] }[];
    };
    // A time only one clinician can take: the second try finds it taken.
    const time = slots.dates.flatMap((d) => d.times).find((t) => t.clinicianIds.length === 1)!;
    const submit = async (email: string) => {
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
        { fields: { spaId: String(spa.id), serviceId: String(spa.serviceId), start: time.start, name: 'Form Client', email, consent: 'on' } },
      );
      await page.waitForURL('**/booking/time');
    };
    await submit(`${TAG}-form-1@example.com`);
    await expect(page.locator('[data-confirmation]')).toHaveText(/^Booked: Botox Cosmetic at Jacaranda Aesthetic Institute, .+ Pacific$/);
    await submit(`${TAG}-form-2@example.com`);
    await expect(page.getByRole('heading', { name: 'That time was just taken' })).toBeVisible();
    await screenshots(page, 'booking-taken');
    await page.locator('[data-alternatives] button').first().click();
    await expect(page.locator('[data-confirmation]')).toHaveText(/^Booked: Botox Cosmetic at Jacaranda Aesthetic Institute/);
    expect(query<{ n: number }>('select count(*) as n from bookings where email like ?', `${TAG}-form-%`)[0]!.n).toBe(2);
  });
});
