// Who treats you and verified reviews (issue 14): the spa page's trust
// sections, the marks and the filter in search, the review form with and
// without JavaScript, and the bars as raw requests (each refused, 0 rows).
import type { APIRequestContext, Page } from '@playwright/test';
import { axeBuilder } from '../support/axe.ts';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, exists, inArray, isNotNull, isNull, notExists } from 'drizzle-orm';
import { bookings, cities, clinicians, reviewInvitations, reviewReports, reviews as reviewRows, spas } from '#db/schema.ts';
import { hashToken } from '#lib/server/auth/tokens.ts';
import { db } from '#lib/server/db.ts';
import { signedInContext } from '../support/e2e-steps.ts';
import { baseURL } from '../support/env.ts';
import { expect, test, type TestUser } from '../support/fixtures.ts';
import { htmlErrors } from '../support/html-checker.ts';
import { linkIn, messageInOutbox } from '../support/outbox.ts';

const base32 = (bytes: Buffer) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
};
const uniqueEmail = (who: string) => `trust-${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const spaId = (slug: string) => db.select({ id: spas.id }).from(spas).where(eq(spas.slug, slug)).get()!.id;
/**
 * The reviews of these listings. Specs run side by side and write reviews of
 * their own, so a test that says "nothing changed" looks at the listings it made
 * (and any it names in a request), not at the whole table.
 */
const reviewsSnapshot = (spaIds: number[]) => db.select().from(reviewRows).where(inArray(reviewRows.spaId, spaIds)).orderBy(asc(reviewRows.id)).all();
const reviewsOf = (bookingId: number) => db.select().from(reviewRows).where(eq(reviewRows.bookingId, bookingId)).all();
const checkedAt = (clinicianId: number) => db.select({ at: clinicians.licenseCheckedAt }).from(clinicians).where(eq(clinicians.id, clinicianId)).get()!.at;

/** A review link for the booking, valid until `expiresAt`, stored as the completion mail's is (by its hash); its token. */
function reviewLink(bookingId: number, expiresAt: number): string {
  const token = base32(randomBytes(20));
  db.insert(reviewInvitations)
    .values({ bookingId, tokenHash: hashToken(token), expiresAt: new Date(expiresAt) })
    .run();
  return token;
}

/** A completed booking of the spa and its review link (as the completion mail would carry it). */
function completedVisit(spa: number = spaId('bayfront-glow-studio')): { bookingId: number; token: string } {
  const visit = Date.now() - 3 * 86_400_000;
  // Written as it stands: the lifecycle completes a visit only after it, and this one was three days ago.
  const booking = db
    .insert(bookings)
    .values({
      spaId: spa,
      name: 'Lena Park',
      email: uniqueEmail('client'),
      status: 'completed',
      scheduledAt: new Date(visit),
      updatedAt: new Date(visit),
    })
    .returning({ id: bookings.id })
    .get();
  return { bookingId: booking.id, token: reviewLink(booking.id, Date.now() + 30 * 86_400_000) };
}

const post = (request: APIRequestContext, path: string, form: Record<string, string>) =>
  request.post(path, { form, headers: { Origin: baseURL }, maxRedirects: 0 });
const goodReview = {
  rating: '5',
  body: 'A careful exam first, then a gentle treatment. I would come back.',
  authorName: 'Lena',
  treatment: 'HydraFacial',
  visited: 'yes',
};

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test.describe('the spa page', () => {
  for (const width of [375, 1280]) {
    test(`shows who treats you and verified reviews at ${width}px, axe clean`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/spas/harborlight-aesthetics');
      const who = page.getByRole('region', { name: 'Who treats you' });
      await expect(who.getByRole('heading', { name: 'Dr. Elena Marsh' })).toBeVisible();
      await expect(who.locator('[data-clinician]').first()).toContainText('Medical director');
      await expect(who.locator('[data-clinician]').first()).toContainText('Licence checked');
      await expect(who.locator('[data-supervision-note]')).toContainText('a physician, NP or PA examines you before your first treatment');
      const reviews = page.getByRole('region', { name: 'Client reviews' });
      const published = db
        .select({ verifiedVisit: reviewRows.verifiedVisit, paymentStatus: bookings.paymentStatus })
        .from(reviewRows)
        .innerJoin(spas, eq(spas.id, reviewRows.spaId))
        .innerJoin(bookings, eq(bookings.id, reviewRows.bookingId))
        .where(and(eq(spas.slug, 'harborlight-aesthetics'), eq(reviewRows.state, 'published')))
        .all();
      const count = published.length;
      // Verified: the client said so, and the visit was paid through the site.
      const verified = published.filter((r) => r.verifiedVisit && r.paymentStatus === 'paid').length;
      expect(verified).toBeGreaterThan(0);
      await expect(reviews.locator('[data-review-count]')).toHaveText(`${count} reviews, ${verified} verified visits`);
      await expect(reviews.locator('[data-review]').first()).toContainText('Verified visit');
      await expect(reviews.locator('[data-review-reply]')).toContainText('Reply from Harborlight Aesthetics');
      await who.screenshot({ path: test.info().outputPath(`who-treats-you-${width}.png`) });
      await reviews.screenshot({ path: test.info().outputPath(`reviews-${width}.png`) });
      const results = await axeBuilder(page)
        .include('#who-treats-you')
        .include('#reviews')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }

  test('publishes employees, the aggregate rating and reviews as JSON-LD', async ({ page }) => {
    await page.goto('/spas/harborlight-aesthetics');
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const spa = blocks.map((text) => JSON.parse(text) as Record<string, unknown>).find((data) => Array.isArray(data['@type']));
    expect(spa).toMatchObject({
      employee: expect.arrayContaining([expect.objectContaining({ '@type': 'Person', name: 'Dr. Elena Marsh', jobTitle: 'Medical Director (MD)' })]),
      aggregateRating: { '@type': 'AggregateRating', bestRating: 5, worstRating: 1 },
      review: expect.arrayContaining([expect.objectContaining({ '@type': 'Review' })]),
    });
  });

  test('a spa without clinicians says so and has no rating markup', async ({ page }) => {
    await page.goto('/spas/tidewater-facial-bar');
    await expect(page.getByRole('region', { name: 'Who treats you' })).toContainText('has not listed its medical director');
    await expect(page.locator('[data-reviews-empty]')).toHaveText('No reviews yet.');
    expect((await page.locator('script[type="application/ld+json"]').allTextContents()).join('')).not.toContain('AggregateRating');
  });
});

test.describe('search', () => {
  test.use({ javaScriptEnabled: false });

  test('cards carry the mark and the rating; the plain form filters on licences checked', async ({ page }) => {
    await page.goto('/search-results?city=newport-beach');
    const harbor = page.locator('[data-spa-card]', { has: page.getByRole('link', { name: 'Harborlight Aesthetics', exact: true }) });
    await expect(harbor.locator('[data-trust-mark]')).toHaveText('Licences checked');
    await expect(harbor.locator('[data-card-rating]')).toContainText('reviews');
    const saltwater = page.locator('[data-spa-card]', { has: page.getByRole('link', { name: 'Saltwater Skin Atelier', exact: true }) });
    await expect(saltwater.locator('[data-trust-mark]')).toHaveText('Medical director listed');

    await page.getByLabel('Who treats you').selectOption('checked');
    await page.getByRole('button', { name: 'Update Results' }).click();
    await expect(page).toHaveURL(/trust=checked/);
    const staff = (...conditions: Parameters<typeof and>) =>
      db
        .select({ id: clinicians.id })
        .from(clinicians)
        .where(and(eq(clinicians.spaId, spas.id), ...conditions));
    const expected = db
      .select({ slug: spas.slug })
      .from(spas)
      .innerJoin(cities, eq(cities.id, spas.cityId))
      .where(
        and(
          eq(spas.active, true),
          eq(cities.slug, 'newport-beach'),
          exists(staff(eq(clinicians.isMedicalDirector, true), isNotNull(clinicians.licenseCheckedAt))),
          notExists(staff(isNull(clinicians.licenseCheckedAt))),
        ),
      )
      .all()
      .map((r) => r.slug);
    expect(expected.length).toBeGreaterThan(0);
    await expect(page.locator('[data-spa-card]')).toHaveCount(expected.length);
    await expect(page.locator('[data-trust-mark]')).toHaveText(expected.map(() => 'Licences checked'));
  });
});

for (const js of [false, true]) {
  test.describe(`the review form ${js ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled: js });

    test('explains what is missing, publishes once, then says it is done', async ({ page }) => {
      test.setTimeout(60_000);
      const { bookingId, token } = completedVisit();
      const response = await page.goto(`/reviews/write/${token}`);
      expect(response?.headers()['cache-control']).toContain('no-store');
      expect(response?.headers()['referrer-policy']).toBe('no-referrer');
      await expect(page.getByRole('heading', { name: 'How was your visit to Bayfront Glow Studio?' })).toBeVisible();
      await expect(page.getByLabel('Name shown with your review')).toHaveValue('Lena');
      await screenshot(page, `review-form-${js ? 'js' : 'nojs'}`);
      // axe runs in the page, so only where scripts run.
      if (js) expect((await axeBuilder(page).analyze()).violations.map((v) => v.id)).toEqual([]);

      await page.getByLabel('Your review', { exact: true }).fill('Too short');
      await page.getByRole('button', { name: 'Publish review' }).click();
      await expect(page.locator('[data-review-error]')).toHaveText('Some fields need your attention.');
      await expect(page.getByText('Choose a rating from 1 to 5 stars')).toBeVisible();
      await expect(page.getByText('Tell others a little more: at least 20 characters')).toBeVisible();
      // The client confirms the visit themselves (decision 0029).
      await expect(page.locator('[data-field-error="visited"]')).toHaveText('Confirm that you visited to publish a review');
      await expect(page.getByLabel('Your review', { exact: true })).toHaveValue('Too short');
      expect(reviewsOf(bookingId)).toEqual([]);

      await page.getByLabel('4 stars').check();
      await page.getByLabel(/I visited Bayfront Glow Studio in .*, and this review is my own\./).check();
      await page.getByLabel('Your review', { exact: true }).fill('Kind staff. <a href="https://spam.example">click</a> https://spam.example stays text.');
      await page.getByRole('button', { name: 'Publish review' }).click();
      await expect(page.locator('[data-review-thanks]')).toContainText('Your review is published');
      const rows = reviewsOf(bookingId).map(({ rating, body, authorName }) => ({ rating, body, authorName }));
      expect(rows).toEqual([{ rating: 4, body: 'Kind staff. <a href="https://spam.example">click</a> https://spam.example stays text.', authorName: 'Lena' }]);

      await page.goto(`/reviews/write/${token}`);
      await expect(page.getByRole('heading', { name: 'You have already reviewed this visit' })).toBeVisible();
    });
  });
}

test.describe('the bars, as raw requests', () => {
  test('a link that is not a completed visit’s is refused and changes nothing', async ({ request, listing }) => {
    const spa = listing(null, { name: 'Refused Link Spa' });
    const before = reviewsSnapshot([spa.id]);
    const guessed = await post(request, `/reviews/write/${base32(randomBytes(20))}`, goodReview);
    expect(guessed.status()).toBe(404);
    // A booking that is not completed has no link; a link row for one does not open.
    const pending = db
      .insert(bookings)
      .values({ spaId: spa.id, name: 'P', email: uniqueEmail('pending'), status: 'pending' })
      .returning({ id: bookings.id })
      .get();
    const token = reviewLink(pending.id, Date.now() + 86_400_000);
    expect((await post(request, `/reviews/write/${token}`, goodReview)).status()).toBe(404);
    expect(reviewsSnapshot([spa.id])).toEqual(before);
    expect(reviewsOf(pending.id)).toEqual([]);
  });

  test('a second review of the same booking, or naming another booking, is refused', async ({ request, listing }) => {
    const spa = listing(null, { name: 'Second Review Spa' });
    const named = listing(null, { name: 'Named Spa' });
    const mine = completedVisit(spa.id);
    const other = completedVisit(spa.id);
    // Fields naming another booking or spa are not read: the link alone decides.
    const first = await post(request, `/reviews/write/${mine.token}`, {
      ...goodReview,
      bookingId: String(other.bookingId),
      spaId: String(named.id),
    });
    expect(first.status()).toBe(303);
    expect(
      db
        .select({ bookingId: reviewRows.bookingId })
        .from(reviewRows)
        .where(inArray(reviewRows.bookingId, [mine.bookingId, other.bookingId]))
        .all(),
    ).toEqual([{ bookingId: mine.bookingId }]);
    const before = reviewsSnapshot([spa.id, named.id]);
    expect(before.map((review) => review.bookingId)).toEqual([mine.bookingId]);
    const second = await post(request, `/reviews/write/${mine.token}`, { ...goodReview, rating: '1' });
    expect(second.status()).toBe(409);
    expect(reviewsSnapshot([spa.id, named.id])).toEqual(before);
  });

  test('an owner can reply once and cannot edit, hide or delete', async ({ browser, person, listing }) => {
    const owner = person('owner');
    const spa = listing(owner, { name: 'Reply Spa' });
    const visit = Date.now() - 86_400_000;
    const booking = db
      .insert(bookings)
      .values({ spaId: spa.id, name: 'R', email: uniqueEmail('reply'), status: 'completed', scheduledAt: new Date(visit) })
      .returning({ id: bookings.id })
      .get();
    const review = db
      .insert(reviewRows)
      .values({ bookingId: booking.id, spaId: spa.id, rating: 2, body: 'Waited forty minutes past my time.', authorName: 'R', visitMonth: '2026-11' })
      .returning({ id: reviewRows.id })
      .get();
    const context = await signedInContext(browser, owner);
    const path = `/owner/spas/${spa.id}/reviews`;
    const before = reviewsSnapshot([spa.id]);
    for (const intent of ['edit', 'hide', 'delete']) {
      const refused = await post(context.request, path, { intent, reviewId: String(review.id), body: 'Great!', rating: '5' });
      expect(refused.status()).toBe(400);
    }
    expect(reviewsSnapshot([spa.id])).toEqual(before);
    expect(
      (await post(context.request, path, { intent: 'reply', reviewId: String(review.id), reply: 'We are sorry; we have changed our schedule.' })).status(),
    ).toBe(303);
    const replied = reviewsSnapshot([spa.id]);
    expect((await post(context.request, path, { intent: 'reply', reviewId: String(review.id), reply: 'Second try' })).status()).toBe(409);
    expect(reviewsSnapshot([spa.id])).toEqual(replied);
    // Another owner's spa: nothing to see or do.
    const other = await signedInContext(browser, person('owner'));
    expect((await other.request.get(path)).status()).toBe(404);
    expect((await post(other.request, path, { intent: 'reply', reviewId: String(review.id), reply: 'Hijack' })).status()).toBe(404);
    expect(reviewsSnapshot([spa.id])).toEqual(replied);
    await context.close();
    await other.close();
  });
});

test('a completed booking mails the review link, which opens the form', async ({ browser, person, listing }) => {
  const owner = person('owner');
  const spa = listing(owner, { name: 'Mail Spa' });
  const email = uniqueEmail('mail');
  // Confirmed for an hour ago, written as it stands: the lifecycle would not confirm a time already past.
  const booking = db
    .insert(bookings)
    .values({
      spaId: spa.id,
      name: 'Mia Stone',
      email,
      status: 'confirmed',
      scheduledAt: new Date(Date.now() - 3_600_000),
      manageToken: base32(randomBytes(20)),
    })
    .returning({ id: bookings.id })
    .get();
  const context = await signedInContext(browser, owner);
  const done = await post(context.request, '/owner/dashboard', { intent: 'booking', id: String(booking.id), status: 'completed' });
  expect(done.status()).toBe(303);
  const link = linkIn(await messageInOutbox(email, 'How was your visit to Mail Spa?'), '/reviews/write/');
  const page = await context.newPage();
  await page.goto(link.pathname);
  await expect(page.getByRole('heading', { name: 'How was your visit to Mail Spa?' })).toBeVisible();
  await context.close();
});

test.describe('owner and editor pages', () => {
  test('the owner lists a clinician; a wrong licence format is explained in place', async ({ browser, person, listing }) => {
    test.setTimeout(90_000);
    const owner = person('owner');
    const spa = listing(owner, { name: 'Clinician Spa' });
    const context = await signedInContext(browser, owner, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/owner/spas/${spa.id}/clinicians`);
    const add = page.locator('[data-add-clinician]');
    await add.getByLabel('Full name').fill('Dr. Ivy Lane');
    await add.getByLabel('Role').selectOption('MD');
    await add.getByLabel('California licence number').fill('123456');
    await add.getByLabel('Medical director (MD or DO)').check();
    await add.getByLabel('Botox').check();
    await add.getByRole('button', { name: 'Add clinician' }).click();
    await expect(page.getByText('Enter the Medical Board of California licence number, for example A123456')).toBeVisible();
    expect(db.select({ id: clinicians.id }).from(clinicians).where(eq(clinicians.spaId, spa.id)).all()).toEqual([]);
    await page.locator('[data-add-clinician]').getByLabel('California licence number').fill('a 123-456');
    await page.locator('[data-add-clinician]').getByRole('button', { name: 'Add clinician' }).click();
    await expect(page.locator('[data-notice]')).toContainText('Clinician added');
    expect(
      db
        .select({
          name: clinicians.name,
          role: clinicians.role,
          licenseNumber: clinicians.licenseNumber,
          isMedicalDirector: clinicians.isMedicalDirector,
          treatments: clinicians.treatments,
        })
        .from(clinicians)
        .where(eq(clinicians.spaId, spa.id))
        .all(),
    ).toEqual([{ name: 'Dr. Ivy Lane', role: 'MD', licenseNumber: 'A123456', isMedicalDirector: true, treatments: ['botox'] }]);
    await screenshot(page, 'owner-clinicians');
    await context.close();
    // axe runs in the page, so in a browser with scripts.
    const withScripts = await signedInContext(browser, owner);
    const checked = await withScripts.newPage();
    await checked.goto(`/owner/spas/${spa.id}/clinicians`);
    expect((await axeBuilder(checked).analyze()).violations.map((v) => v.id)).toEqual([]);
    await withScripts.close();

    const signedOut = await browser.newContext();
    expect((await signedOut.request.get(`/owner/spas/${spa.id}/clinicians`)).status()).toBe(401);
    await signedOut.close();
  });

  test('only editors check licences; the check is dated and shown', async ({ browser, person, listing }) => {
    const spa = listing(null, { name: 'Check Spa' });
    const clinician = db
      .insert(clinicians)
      .values({ spaId: spa.id, name: 'Noa Check', role: 'RN', licenseNumber: '95000123' })
      .returning({ id: clinicians.id, licenseNumber: clinicians.licenseNumber })
      .get();
    const owner = await signedInContext(browser, person('owner'));
    expect((await owner.request.get('/admin/clinicians')).status()).toBe(404);
    expect((await post(owner.request, '/admin/clinicians', { id: String(clinician.id), licence: clinician.licenseNumber, intent: 'check' })).status()).toBe(
      404,
    );
    expect(checkedAt(clinician.id)).toBeNull();
    await owner.close();

    const editor = await signedInContext(browser, person('admin'));
    const page = await editor.newPage();
    await page.goto('/admin/clinicians');
    await expect(page.locator(`[data-admin-clinician="${clinician.id}"]`).getByRole('link', { name: /Look it up/ })).toHaveAttribute(
      'href',
      'https://search.dca.ca.gov/',
    );
    await page
      .locator(`[data-admin-clinician="${clinician.id}"]`)
      .getByRole('button', { name: /Mark checked today/ })
      .click();
    await expect(page.locator('[data-admin-notice]')).toHaveText('Licence marked checked today.');
    await expect(page.locator(`[data-admin-clinician="${clinician.id}"]`)).toContainText('Checked');
    expect(checkedAt(clinician.id)).not.toBeNull();
    await editor.close();
  });
});

test('the new pages are valid HTML (Nu HTML checker)', async ({ browser, person, listing }) => {
  test.setTimeout(120_000);
  const owner = person('owner');
  const editor = person('admin');
  const spa = listing(owner, { name: 'Valid Spa' });
  db.insert(clinicians).values({ spaId: spa.id, name: 'Dr. Val', role: 'MD', licenseNumber: 'A777777', isMedicalDirector: true }).run();
  const { token } = completedVisit();
  const reviewId = db.select({ id: reviewRows.id }).from(reviewRows).where(eq(reviewRows.state, 'published')).orderBy(asc(reviewRows.id)).limit(1).get()!.id;
  db.insert(reviewReports).values({ reviewId, reason: 'other: checking the page' }).run();
  const pages: [string, TestUser][] = [
    [`/reviews/write/${token}`, owner],
    [`/reviews/report/${reviewId}`, owner],
    [`/owner/spas/${spa.id}/clinicians`, owner],
    [`/owner/spas/${spa.id}/reviews`, owner],
    ['/admin/clinicians', editor],
    ['/admin/reviews', editor],
  ];
  const documents: { name: string; html: string }[] = [];
  for (const [path, user] of pages) {
    const context = await signedInContext(browser, user);
    const response = await context.request.get(path);
    expect(response.status(), path).toBe(200);
    documents.push({ name: path, html: await response.text() });
    await context.close();
  }
  expect(htmlErrors(documents)).toEqual([]);
});
