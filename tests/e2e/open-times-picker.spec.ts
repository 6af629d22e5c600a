// The open-time picker in Chromium (issue 24): a client books an instant
// spa's time with the keyboard alone at 375 and 1280 px; a request spa holds
// the chosen time until its owner confirms it from the dashboard (or declines
// it, with a reason the client's mail carries); the whole way without
// JavaScript; a choice made before the island is live is kept; no picker
// script loads before the visitor does anything; search's "available this
// week" and "next available first"; every new page and state axe-clean.
// Also issue 26's booking and search items (2, 5, 6, 8, 18, 20).
//
// Other specs book Harborlight's and Jacaranda's first days (open-times-api);
// these tests book two weeks out and later, each in a week of its own.
import type { Page } from '@playwright/test';
import { axeViolationIds } from '../support/axe.ts';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { bookings, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { expect, signIn, test } from '../support/fixtures.ts';
import { blockSiteScripts, holdSiteScripts } from '../support/islands.ts';
import { decodeQuotedPrintable, messageInOutbox } from '../support/outbox.ts';

const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function spaBySlug(slug: string) {
  return db.select({ id: spas.id, name: spas.name, ownerId: spas.ownerId }).from(spas).where(eq(spas.slug, slug)).get()!;
}
function serviceOf(spaId: number, name: string) {
  return db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.spaId, spaId), eq(services.name, name)))
    .get()!.id;
}
/** The latest booking made with this address. */
const bookingOf = (email: string) =>
  db
    .select({
      id: bookings.id,
      status: bookings.status,
      scheduledAt: bookings.scheduledAt,
      bookedVia: bookings.bookedVia,
      calendarSequence: bookings.calendarSequence,
    })
    .from(bookings)
    .where(eq(bookings.email, email))
    .orderBy(desc(bookings.id))
    .limit(1)
    .get();
const lendSpa = (spaId: number, ownerId: number | null) => db.update(spas).set({ ownerId }).where(eq(spas.id, spaId)).run();

const HARBORLIGHT = 'harborlight-aesthetics';
const GOLDENWEST = 'goldenwest-medical-aesthetics';

// Whole booking flows, with axe at each step, on a machine shared by parallel runs.
test.describe.configure({ timeout: 90_000 });

// No limits are reset: each test books from an address of its own (../support/fixtures.ts).

/** Presses Tab until the focused element matches `selector` (at most `max` times); fails otherwise. */
async function tabTo(page: Page, selector: string, max = 30) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? '');

test.describe('an instant spa, with the keyboard alone', () => {
  for (const [width, weeksAhead] of [
    [375, 2],
    [1280, 3],
  ] as const) {
    test(`on the spa page: treatment, a later week, a day, a time, the details, booked at once (${width}px)`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      const email = uniqueEmail(`keyboard-${width}`);
      await page.goto(`/spas/${HARBORLIGHT}`);
      const picker = page.locator('#book');
      await expect(picker.getByRole('heading', { name: 'Book a time online' })).toBeVisible();
      // From the top of the page, keys only.
      await tabTo(page, '#book select[name="service"]', 200);
      // Down the list to HydraFacial MD (each key a change: the island may wake up in the middle of it).
      const hydrafacial = String(serviceOf(spaBySlug(HARBORLIGHT).id, 'HydraFacial MD'));
      for (let i = 0; i < 8 && (await picker.getByLabel('Treatment').inputValue()) !== hydrafacial; i++) await page.keyboard.press('ArrowDown');
      await expect(picker.getByLabel('Treatment')).toHaveValue(hydrafacial);
      const strip = picker.locator('[data-day-strip]');
      await expect(strip).toBeVisible();
      await expect(strip.locator('[data-next-available]')).toContainText('Next available:');
      expect(await axeViolationIds(page, '#book')).toEqual([]);

      await tabTo(page, '[data-week="next"]');
      for (let week = 0; week < weeksAhead; week++) {
        const before = await strip.locator('[data-day]').first().getAttribute('data-day');
        await page.keyboard.press('Enter');
        await expect(strip.locator('[data-day]').first()).not.toHaveAttribute('data-day', before!);
      }
      // Focus stays on "Later" while the week changes; a day with times is chosen.
      expect(await focused(page)).toContain('data-week="next"');
      await tabTo(page, '[data-day][aria-pressed="false"]');
      await page.keyboard.press('Enter');
      await expect(page.locator(':focus')).toHaveAttribute('aria-pressed', 'true');
      const day = await page.locator(':focus').getAttribute('data-day');
      // A closed day: take the next one with times. HydraFacial's only clinician works
      // Tuesday to Saturday, so Sunday and Monday are closed two in a row.
      for (let next = 0; next < 6 && (await strip.locator('[data-time]').count()) === 0; next++) {
        await tabTo(page, '[data-day][aria-pressed="false"]');
        await page.keyboard.press('Enter');
        await expect(page.locator(':focus')).toHaveAttribute('aria-pressed', 'true');
      }
      await tabTo(page, '[data-time]');
      const start = await page.locator(':focus').getAttribute('data-time');
      await page.keyboard.press('Enter');
      // The details step, with the focus on its heading.
      await expect(page.locator(':focus')).toHaveText('Book HydraFacial MD');
      await expect(picker.locator('[data-chosen]')).toHaveAttribute('data-chosen', start!);
      expect(day).toBeTruthy();

      // Sending it empty shows each message under its field, and the focus goes to the first.
      await tabTo(page, 'button[type="submit"]');
      await page.keyboard.press('Enter');
      await expect(picker.locator('[data-error-for="name"]')).toHaveText('Name is required');
      await expect(picker.locator('[data-error-for="email"]')).toHaveText('Valid email is required');
      await expect(picker.locator('[data-error-for="consent"]')).toHaveText('You must agree to continue');
      await expect(page.locator(':focus')).toHaveAttribute('name', 'name');
      expect(await axeViolationIds(page, '#book')).toEqual([]);

      await page.keyboard.type('Kim Keyboard');
      await page.keyboard.press('Tab');
      await page.keyboard.type(email);
      await tabTo(page, 'input[name="consent"]');
      await page.keyboard.press('Space');
      await tabTo(page, 'button[type="submit"]');
      await page.keyboard.press('Enter');

      const booked = picker.locator('[data-booked]').or(page.locator('[data-booked]'));
      await expect(page.locator('[data-confirmation]')).toHaveText(
        /^Booked: HydraFacial MD at Harborlight Aesthetics, \w+day, \w+ \d+, \d{4}, \d+:\d\d [AP]M Pacific$/,
      );
      await expect(booked.first()).toBeFocused();
      await page.screenshot({ path: testInfo.outputPath(`booked-${width}.png`) });
      expect(await axeViolationIds(page)).toEqual([]);

      const row = bookingOf(email)!;
      expect(row).toMatchObject({ status: 'confirmed', bookedVia: 'instant' });
      expect(row.scheduledAt!.toISOString()).toBe(start);
      const mail = decodeQuotedPrintable(await messageInOutbox(email, 'Confirmed: HydraFacial MD at Harborlight Aesthetics'));
      expect(mail).toMatch(/method=REQUEST/i);
      expect(mail).toContain('/bookings/manage/');
    });
  }
});

test.describe('a request spa holds the chosen time', () => {
  test('the client requests a time; the owner sees it held and confirms it; another is declined with a reason', async ({ browser, page, person }) => {
    const spa = spaBySlug(GOLDENWEST);
    const serviceId = db
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.spaId, spa.id), eq(services.active, true), eq(services.bookableOnline, true)))
      .orderBy(asc(services.name))
      .limit(1)
      .get()!.id;
    const owner = person('owner', { firstName: 'Gale' });
    lendSpa(spa.id, owner.id);
    try {
      const email = uniqueEmail('held');
      await page.goto(`/booking?spa=${spa.id}&service=${serviceId}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Book at ${spa.name}`);
      const picker = page.locator('#open-times');
      await expect(picker).toContainText(`${spa.name} holds the time you choose and confirms it by e-mail.`);
      await picker.locator('[data-week-link="next"]').hover();
      await expect(picker.locator('[data-day-strip]')).toBeVisible();
      await picker.locator('[data-week="next"]').click();
      await picker.locator('[data-week="next"]').click();
      await picker.locator('[data-day-strip] [data-time]').first().click();
      await expect(picker.getByRole('heading', { name: /^Request / })).toBeVisible();
      await expect(picker).toContainText('holds this time for you and confirms it by e-mail');
      await picker.getByLabel(/Full name/).fill('Hana Held');
      await picker.getByLabel(/Email/).fill(email);
      await picker.getByLabel(/I agree/).check();
      await picker.getByRole('button', { name: 'Request this time' }).click();
      await expect(page.locator('[data-booked]')).toContainText('Your time is held');
      await expect(page.locator('[data-confirmation]')).toHaveText(/^Requested: .+ at Goldenwest Medical Aesthetics, .+ Pacific\. The spa will confirm\.$/);
      expect(await axeViolationIds(page)).toEqual([]);
      const held = bookingOf(email)!;
      expect(held).toMatchObject({ status: 'pending', bookedVia: 'hold' });
      await messageInOutbox(email, 'Requested:');

      // The owner's dashboard offers the held time as the time to confirm.
      const ownerContext = await browser.newContext();
      await signIn(ownerContext, owner);
      const dashboard = await ownerContext.newPage();
      await dashboard.goto('/owner/dashboard');
      const card = dashboard.locator(`[data-booking-id="${held.id}"]`);
      await expect(card.locator('[data-confirm-held]')).toContainText('it is held until you answer');
      expect(await axeViolationIds(dashboard, `[data-booking-id="${held.id}"]`)).toEqual([]);
      await card
        .locator('[data-confirm-held]')
        .getByRole('button', { name: /^Confirm this time/ })
        .click();
      await expect(dashboard.locator('[data-dashboard-notice]')).toContainText('Booking confirmed');
      expect(bookingOf(email)).toMatchObject({ status: 'confirmed', scheduledAt: held.scheduledAt });
      const confirmation = decodeQuotedPrintable(await messageInOutbox(email, 'Confirmed:'));
      expect(confirmation).toMatch(/method=REQUEST/i);

      // Another held time, declined after a yes, with a reason the client reads.
      const other = uniqueEmail('declined');
      const slots = (await (await page.request.get(`/api/spas/${spa.id}/slots?service=${serviceId}&from=${addDays(21)}&days=7`)).json()) as {
        dates: { times: { start: string }[] }[];
      };
      const start = slots.dates.flatMap((d) => d.times)[0]!.start;
      const made = await page.request.post(`/api/spas/${spa.id}/bookings`, { data: { serviceId, start, name: 'Dee Clined', email: other } });
      expect(made.status()).toBe(201);
      const declined = bookingOf(other)!;
      await dashboard.reload();
      const otherCard = dashboard.locator(`[data-booking-id="${declined.id}"]`);
      await otherCard.locator('summary', { hasText: 'Decline request' }).click();
      await otherCard.getByLabel(/Reason/).fill('Tessa is away that week; please pick another day.');
      expect(await axeViolationIds(dashboard, `[data-booking-id="${declined.id}"]`)).toEqual([]);
      await otherCard.getByRole('button', { name: /^Yes, decline/ }).click();
      await expect(dashboard.locator('[data-dashboard-notice]')).toContainText('Request declined');
      expect(bookingOf(other)!.status).toBe('cancelled');
      const mail = decodeQuotedPrintable(await messageInOutbox(other, 'Cancelled:'));
      expect(mail).toContain('Goldenwest Medical Aesthetics wrote:');
      expect(mail).toContain('Tessa is away that week; please pick another day.');
      await ownerContext.close();
    } finally {
      lendSpa(spa.id, spa.ownerId);
    }
  });
});

/** 'YYYY-MM-DD', Pacific, `days` from today. */
function addDays(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the spa page leads to the week; weeks are links, each time a form; the details; refused in place, then booked', async ({ page }, testInfo) => {
    const spa = spaBySlug(HARBORLIGHT);
    const serviceId = serviceOf(spa.id, 'HydraFacial MD');
    const email = uniqueEmail('nojs');
    await page.goto(`/spas/${HARBORLIGHT}`);
    await page.locator('#book').getByLabel('Treatment').selectOption(String(serviceId));
    await page.locator('#book').getByRole('button', { name: 'See open times' }).click();
    await expect(page).toHaveURL(new RegExp(`/booking\\?spa=${spa.id}&service=${serviceId}#open-times$`));
    const week = page.locator('[data-open-week]');
    await expect(week.locator('[data-next-available]')).toContainText('Next available:');
    for (let i = 0; i < 4; i++) await week.getByRole('link', { name: 'Later week' }).click();
    await expect(week.getByRole('link', { name: 'Earlier week' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('week-no-js.png'), fullPage: true });
    const time = week.locator('[data-open-time]').first();
    const start = await time.getAttribute('data-open-time');
    await time.click();
    await expect(page).toHaveURL(/&start=/);
    await expect(page.locator('[data-chosen]')).toHaveAttribute('data-chosen', start!);

    // Sent empty: the same step again, with each message under its field, nothing booked.
    await page.getByRole('button', { name: 'Book this time' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your booking');
    await expect(page.locator('[data-error-for="name"]')).toHaveText('Name is required');
    await expect(page.locator('[data-error-for="consent"]')).toHaveText('You must agree to continue');
    await page.getByLabel(/Full name/).fill('Nora Nojs');
    await page.getByLabel(/Email/).fill(email);
    await page.getByLabel(/I agree/).check();
    await page.getByRole('button', { name: 'Book this time' }).click();
    await expect(page.locator('[data-confirmation]')).toHaveText(/^Booked: HydraFacial MD at Harborlight Aesthetics, .+ Pacific$/);
    expect(bookingOf(email)!.scheduledAt!.toISOString()).toBe(start);

    // The same time again (only Jordan gives HydraFacial there) is refused, with its week shown.
    await page.goto(`/booking?spa=${spa.id}&service=${serviceId}&start=${encodeURIComponent(start!)}`);
    await expect(page.locator('[data-refused]')).toHaveText('That time was just taken. Choose another.');
    await expect(page.locator('[data-open-week]')).toBeVisible();
    await expect(page.locator(`[data-open-time="${start}"]`)).toHaveCount(0);
  });

  test('/booking?spa= names the spa and lists its treatments in the server’s HTML (issue 26, item 6)', async ({ request }) => {
    const spa = spaBySlug(GOLDENWEST);
    const html = await (await request.get(`/booking?spa=${spa.id}`)).text();
    expect(html).toContain(`Ask ${spa.name} for a time`);
    expect(html).toMatch(/Your request goes to <strong[^>]*>Goldenwest Medical Aesthetics<\/strong>/);
    expect(html).toMatch(/<select[^>]*name="serviceId"/);
    // A spa that takes no online bookings has no picker, only the request.
    const plain = db
      .select({ id: spas.id, name: spas.name })
      .from(spas)
      .where(and(eq(spas.active, true), eq(spas.bookingMode, 'none')))
      .orderBy(asc(spas.id))
      .limit(1)
      .get()!;
    const plainHtml = await (await request.get(`/booking?spa=${plain.id}`)).text();
    expect(plainHtml).not.toContain('id="open-times"');
    expect(plainHtml).toContain(`Ask ${plain.name.replace(/'/g, '&#39;')} for a time`);
  });
});

test('the plain pages, as they are before the island is live and without JavaScript, are axe-clean', async ({ page, request }) => {
  // Scripts blocked: what a visitor without JavaScript gets (axe itself needs the page's JavaScript on).
  await blockSiteScripts(page);
  const spa = spaBySlug(HARBORLIGHT);
  const serviceId = serviceOf(spa.id, 'HydraFacial MD');
  const week = (await (await request.get(`/api/spas/${spa.id}/slots?service=${serviceId}&from=${addDays(40)}&days=7`)).json()) as {
    dates: { times: { start: string }[] }[];
  };
  const start = week.dates.flatMap((d) => d.times)[0]!.start;
  for (const path of [
    `/spas/${HARBORLIGHT}`,
    `/booking?spa=${spa.id}`,
    `/booking?spa=${spaBySlug(GOLDENWEST).id}`,
    `/booking?spa=${spa.id}&service=${serviceId}&from=${addDays(40)}`,
    // Last: the details of a chosen time, whose form is sent empty below.
    `/booking?spa=${spa.id}&service=${serviceId}&start=${encodeURIComponent(start)}`,
  ]) {
    await page.goto(path);
    expect(await axeViolationIds(page), path).toEqual([]);
  }
  // A refused booking and a refused request, each shown again in place.
  await page.getByRole('button', { name: 'Book this time' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your booking');
  expect(await axeViolationIds(page)).toEqual([]);
  await page.goto(`/booking?spa=${spa.id}#request`);
  await page.locator('#request').getByRole('button', { name: 'Request Appointment' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your request');
  expect(await axeViolationIds(page)).toEqual([]);
});

test('/services in booking mode offers "Pick a time" for the treatments a spa books online, to their open times', async ({ page }) => {
  const spa = spaBySlug(HARBORLIGHT);
  const hydrafacial = serviceOf(spa.id, 'HydraFacial MD');
  const laser = serviceOf(spa.id, 'Fraxel Dual Laser Resurfacing');
  await page.goto('/services');
  const card = page.locator(`[data-service-card][data-service-id="${hydrafacial}"]`);
  await expect(card.getByRole('link', { name: 'Pick a time for HydraFacial MD at Harborlight Aesthetics' })).toHaveAttribute(
    'href',
    `/booking?spa=${spa.id}&service=${hydrafacial}#open-times`,
  );
  // Resurfacing is booked by request only there, and a spa that publishes no availability offers none.
  await expect(page.locator(`[data-service-card][data-service-id="${laser}"] [data-open-times-link]`)).toHaveCount(0);
  const plain = db
    .select({ id: services.id })
    .from(services)
    .innerJoin(spas, eq(spas.id, services.spaId))
    .where(and(eq(spas.active, true), eq(spas.bookingMode, 'none'), eq(services.active, true)))
    .orderBy(asc(services.id))
    .limit(1)
    .get()!.id;
  await expect(page.locator(`[data-service-card][data-service-id="${plain}"] [data-open-times-link]`)).toHaveCount(0);
  await card.getByRole('link', { name: /^Pick a time/ }).click();
  await expect(page.locator('#open-times [data-open-week], #open-times [data-day-strip]').first()).toBeVisible();
});

test.describe('before the island is live', () => {
  test('no picker script loads until the visitor does something; a treatment chosen meanwhile is the one shown', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`/spas/${HARBORLIGHT}`);
    await expect(page.locator('#book')).toBeVisible();
    // Read the page for a moment: nothing of the picker arrives.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(scripts.filter((s) => /OpenTimesPicker|client\.[\w-]+\.js/.test(s))).toEqual([]);

    // Now the scripts are slow: the visitor chooses a treatment before React is there.
    const release = await holdSiteScripts(page);
    const serviceId = serviceOf(spaBySlug(HARBORLIGHT).id, 'Dermal Filler');
    await page.locator('#book').getByLabel('Treatment').selectOption(String(serviceId));
    // The choice wakes the island: its script is asked for (the request reaches us a moment after the choice).
    await expect.poll(() => scripts.some((s) => /OpenTimesPicker/.test(s))).toBe(true);
    release();
    await expect(page.locator('#book [data-day-strip]')).toBeVisible();
    await expect(page.locator('#book').getByLabel('Treatment')).toHaveValue(String(serviceId));
    const answer = await page.request.get(`/api/spas/${spaBySlug(HARBORLIGHT).id}/slots?service=${serviceId}&days=7`);
    const first = ((await answer.json()) as { nextAvailable: { label: string } }).nextAvailable.label;
    await expect(page.locator('#book [data-next-available]')).toContainText(first);
  });

  test('a time pressed while the island loads is taken in place, not posted', async ({ page }) => {
    const spa = spaBySlug(HARBORLIGHT);
    const serviceId = serviceOf(spa.id, 'HydraFacial MD');
    const release = await holdSiteScripts(page);
    await page.goto(`/booking?spa=${spa.id}&service=${serviceId}&from=${addDays(35)}`, { waitUntil: 'commit' });
    // The page is parsed and its own inline code (the island element, client:intent) has run; React has not arrived.
    await page.waitForFunction(() => document.readyState !== 'loading' && typeof (window as { Astro?: { intent?: unknown } }).Astro?.intent === 'function');
    const time = page.locator('[data-open-week] [data-open-time]').first();
    const start = await time.getAttribute('data-open-time');
    await time.click();
    const url = page.url();
    release();
    await expect(page.locator('#open-times [data-chosen]')).toHaveAttribute('data-chosen', start!);
    await expect(page.locator('#open-times [data-details-form]')).toBeVisible();
    expect(page.url()).toBe(url);
  });
});

test.describe('search by open times', () => {
  test('filters on "available this week", sorts by the next open time, and the cards say it', async ({ page }) => {
    await page.goto('/search-results');
    const filters = page.getByRole('search', { name: 'Filter providers' });
    await filters.getByLabel('Sort by').selectOption('next');
    await filters.getByLabel('Available this week').check();
    await filters.getByRole('button', { name: 'Update Results' }).click();
    await expect(page).toHaveURL(/\/search-results\?available=week&sort=next$/);
    const cards = page.locator('#search-results [data-spa-card]');
    await expect(cards.first()).toBeVisible();
    // Only spas that book online, each with its next open time.
    const bookable = db
      .select({ id: spas.id })
      .from(spas)
      .where(and(eq(spas.active, true), ne(spas.bookingMode, 'none')))
      .all()
      .map((r) => String(r.id));
    const shown = await cards.evaluateAll((list) => list.map((card) => (card as HTMLElement).dataset.spaId!));
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(bookable).toContain(id);
    await expect(cards.locator('[data-next-open]')).toHaveCount(shown.length);
    await expect(page.locator('#search-results [data-results-heading]')).toHaveText(new RegExp(`^${shown.length} Distinguished Provider`));
    expect(await axeViolationIds(page)).toEqual([]);
    // Without the filter, sorted: those with a time first, then the rest.
    const filteredHeading = (await page.locator('#search-results [data-results-heading]').textContent())!;
    await filters.getByLabel('Available this week').uncheck();
    await filters.getByRole('button', { name: 'Update Results' }).click();
    await expect(page).toHaveURL(/\/search-results\?sort=next$/);
    // The unfiltered results are on screen (every listed spa, not only the bookable ones) before they are read.
    await expect(page.locator('#search-results [data-results-heading]')).not.toHaveText(filteredHeading);
    await expect(page.locator('#search-results [data-spa-card]').first()).toBeVisible();
    const withTime = await page
      .locator('#search-results [data-spa-card]')
      .evaluateAll((list) => list.map((card) => card.querySelector('[data-next-open]') !== null));
    // Other tests add bookable spas as they run, so the first page may hold
    // only spas with a time; whatever it holds, none with a time follows one without.
    expect(withTime[0]).toBe(true);
    const firstWithout = withTime.indexOf(false);
    expect(firstWithout === -1 ? [] : withTime.slice(firstWithout)).not.toContain(true);
  });

  test('the heading and the tab title follow Update Results (issue 26, item 2), and only known treatments are echoed (item 18)', async ({ page }) => {
    await page.goto('/search-results?service=botox&city=irvine');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Botox providers in Irvine');
    const filters = page.getByRole('search', { name: 'Filter providers' });
    await filters.getByLabel('Treatment').selectOption('laser');
    await filters.getByLabel('Location').selectOption('dana-point');
    await filters.getByRole('button', { name: 'Update Results' }).click();
    await expect(page).toHaveURL(/service=laser&city=dana-point/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Laser Treatments providers in Dana Point');
    await expect(page).toHaveTitle(/^Laser Treatments providers in Dana Point/);

    await page.goto(`/search-results?service=${encodeURIComponent('call 555-0000 for free botox -')}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Medical spas in Orange County');
    await expect(page).not.toHaveTitle(/555/);
  });

  test('the search page loads no React until the filters are used; the results are in the HTML', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/search-results?city=irvine');
    await expect(page.locator('#search-results [data-spa-card]').first()).toBeVisible();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(scripts.filter((s) => /SearchFilters|client\.[\w-]+\.js/.test(s))).toEqual([]);
    await page.getByRole('search', { name: 'Filter providers' }).getByLabel('Treatment').focus();
    await expect.poll(() => scripts.some((s) => /SearchFilters/.test(s))).toBe(true);
  });
});

test.describe('the request form (issue 26)', () => {
  test('Submit pressed before the form is live shows the messages in place, not a "Booking Failed" page (item 5)', async ({ page }) => {
    const release = await holdSiteScripts(page);
    await page.goto('/#contact', { waitUntil: 'commit' });
    const form = page.locator('#contact [data-booking-form]');
    await form.getByRole('button', { name: 'Request Appointment' }).click();
    release();
    await expect(form.locator('[data-error-for="name"]')).toHaveText('Name is required');
    await expect(form.locator('[data-error-for="consent"]')).toHaveText('You must agree to continue');
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.getByText('Booking Failed')).toHaveCount(0);
  });

  test('without JavaScript a refused request comes back as the form with its messages (item 5)', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const spa = spaBySlug(GOLDENWEST);
    await page.goto(`/booking?spa=${spa.id}#request`);
    await page
      .locator('#request')
      .getByLabel(/Full name/)
      .fill('Only Name');
    await page.locator('#request').getByRole('button', { name: 'Request Appointment' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your request');
    await expect(page.locator('[data-error-for="email"]')).toHaveText('Valid email is required');
    await expect(page.getByLabel(/Full name/)).toHaveValue('Only Name');
    await expect(page.locator('[data-booking-spa]')).toContainText(spa.name);
    await context.close();
  });

  test('a signed-in client finds their name and address filled in (item 8), and the focus stays on the form after sending (item 20)', async ({
    browser,
    signedIn,
  }) => {
    const context = await browser.newContext();
    const user = await signedIn('client', { firstName: 'Pria', lastName: 'Filled' }, context);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`/spas/${HARBORLIGHT}`);
    const form = page.locator('#request [data-booking-form]');
    await expect(form.getByLabel(/Full name/)).toHaveValue('Pria Filled');
    await expect(form.getByLabel(/Email/)).toHaveValue(user.email);
    // The request form woke for the member; the picker still waits for use.
    expect(scripts.filter((s) => /OpenTimesPicker/.test(s))).toEqual([]);
    // On a page rendered for them, from the server.
    await page.goto(`/booking?spa=${spaBySlug(GOLDENWEST).id}`);
    await expect(page.locator('#request').getByLabel(/Full name/)).toHaveValue('Pria Filled');

    await page
      .locator('#request')
      .getByLabel(/I agree/)
      .check();
    await page.locator('#request').getByRole('button', { name: 'Request Appointment' }).click();
    await expect(page.getByText('Booking Request Submitted!')).toBeVisible();
    const active = await page.evaluate(() => document.activeElement?.tagName);
    expect(active).not.toBe('BODY');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-booking-form], [role="region"], [role="status"]') !== null)).toBe(true);
    await context.close();
  });
});
