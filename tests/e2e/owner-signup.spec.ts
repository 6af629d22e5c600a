// /spa-owners and /owner/signup on the site without Stripe keys: the plans and
// their switch, the paid buttons' fallback to the signup form, the form's
// messages, the free path end to end (listing awaiting review, sign-in link,
// the listing handed over on confirmation), the same without JavaScript, and
// accessibility at both widths. The paid path runs in tests/e2e-payments.
import type { Page } from '@playwright/test';
import { asc, eq } from 'drizzle-orm';
import { cities, spas, users } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { axeBuilder } from '../support/axe.ts';
import { holdRequests, submitForm } from '../support/e2e-steps.ts';
import { expect, test } from '../support/fixtures.ts';
import { hydrated } from '../support/islands.ts';
import { linkIn, messageInOutbox } from '../support/outbox.ts';
import { AXE_TAGS } from '#tests/support/axe.ts';

const uniqueEmail = (who = 'signup') => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const firstCity = () => db.select({ id: cities.id, name: cities.name }).from(cities).where(eq(cities.active, true)).orderBy(asc(cities.name)).limit(1).get()!;
const spaNamed = (name: string) =>
  db
    .select({ id: spas.id, tier: spas.tier, active: spas.active, reviewStatus: spas.reviewStatus, ownerId: spas.ownerId, claimEmail: spas.claimEmail })
    .from(spas)
    .where(eq(spas.name, name))
    .all();
// No limits are reset here: every test signs up from an address of its own (../support/fixtures.ts), the no-script context's too.

async function fillRequired(page: Page, values: { spaName: string; ownerEmail: string; city: string }) {
  await page.getByLabel('Spa name *').fill(values.spaName);
  await page.getByLabel('Your e-mail (owner) *').fill(values.ownerEmail);
  await page.getByLabel('City *').selectOption({ label: values.city });
}

test.describe('/spa-owners', () => {
  test('shows the three plans with the monthly/annual switch and says payments are not configured', async ({ page }) => {
    await page.goto('/spa-owners');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const name of ['Essential Partnership', 'Premium', 'Elite']) await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page.getByText('$97', { exact: true })).toBeVisible();
    await expect(page.getByText('$197', { exact: true })).toBeVisible();
    await expect(page.getByText('$970', { exact: true })).toBeHidden();
    await page.getByText('Annual').click();
    await expect(page.getByText('$970', { exact: true })).toBeVisible();
    await expect(page.getByText('$1,970', { exact: true })).toBeVisible();
    await expect(page.getByText('Save 20%')).toBeVisible();
    await expect(page.getByText('Homepage Elite carousel')).toBeVisible();
    await expect(page.getByRole('note')).toContainText('Payments are not configured yet');
    await expect(page.getByRole('link', { name: 'Start Essential Partnership' })).toHaveAttribute('href', '/owner/signup');
  });

  test('Premium falls back to the signup form for that tier, which lists for free and says why', async ({ page }) => {
    await page.goto('/spa-owners');
    await page.getByText('Annual').click();
    await page.getByRole('link', { name: 'Choose Premium' }).click();
    await expect(page).toHaveURL(/\/owner\/signup\?tier=PREMIUM&billing=annual$/);
    await expect(page.getByRole('note')).toContainText('Payments are not configured yet');
    // Only Essential can be chosen while payments are off.
    await expect(page.getByLabel('Plan')).toHaveCount(0);
  });
});

test.describe('/owner/signup', () => {
  test('an empty form says "Missing Information" and names each required field', async ({ page }) => {
    await page.goto('/owner/signup');
    await hydrated(page, 'OwnerSignupForm');
    await page.getByRole('button', { name: 'Submit Listing' }).click();
    await expect(page.getByText('Missing Information', { exact: true })).toBeVisible();
    await expect(page.getByText('Please fill in all required fields.')).toBeVisible();
    await expect(page.getByText('Spa name is required')).toBeVisible();
    await expect(page.getByText('Valid email is required')).toBeVisible();
    await expect(page.getByText('Choose a city', { exact: true }).last()).toBeVisible();
    await expect(page.getByLabel('Spa name *')).toBeFocused();

    const spaName = `Bad Link Spa ${Date.now()}`;
    await fillRequired(page, { spaName, ownerEmail: uniqueEmail(), city: firstCity().name });
    await page.getByLabel('Website (optional)').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Submit Listing' }).click();
    await expect(page.getByText('Enter a web address starting with http:// or https://')).toBeVisible();
    expect(spaNamed(spaName)).toHaveLength(0);
  });

  test('free path: Success!, then /owner/login; the listing awaits review and is the owner’s once the link is confirmed', async ({ page }) => {
    const ownerEmail = uniqueEmail();
    const spaName = `Signup Spa ${Date.now()}`;
    await page.goto('/owner/signup?tier=platinum');
    await hydrated(page, 'OwnerSignupForm');
    await fillRequired(page, { spaName, ownerEmail, city: firstCity().name });
    await page.getByLabel('Website (optional)').fill('https://signup-spa.example');
    // Hold the answer to see the processing state.
    const release = await holdRequests(page, '**/api/owner/create-spa');
    await page.getByRole('button', { name: 'Submit Listing' }).click();
    await expect(page.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    release();
    await expect(page.getByText('Success!', { exact: true })).toBeVisible();
    await page.waitForURL(/\/owner\/login\?link=sent$/);

    const [spa] = spaNamed(spaName);
    expect(spa).toMatchObject({ tier: 'FREE', active: false, reviewStatus: 'pending', ownerId: null, claimEmail: ownerEmail });
    // Not public while it awaits review.
    expect((await page.request.get(`/api/spas`).then((r) => r.json())) as { name: string }[]).not.toContainEqual(expect.objectContaining({ name: spaName }));

    const link = linkIn(await messageInOutbox(ownerEmail, 'sign-in link'), '/auth/confirm?');
    await page.goto(link.pathname + link.search);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/owner\/dashboard$/);
    const owner = db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, ownerEmail)).get()!;
    expect(owner.role).toBe('owner');
    expect(spaNamed(spaName)[0]).toMatchObject({ ownerId: owner.id, claimEmail: null, active: false, reviewStatus: 'pending' });
  });

  test('a failure says "Error: Failed to create spa listing. Please try again." and the button comes back', async ({ page }) => {
    await page.goto('/owner/signup');
    await hydrated(page, 'OwnerSignupForm');
    await fillRequired(page, { spaName: 'Unlucky Spa', ownerEmail: uniqueEmail(), city: firstCity().name });
    await page.route('**/api/owner/create-spa', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"boom","message":"boom"}}' }),
    );
    await page.getByRole('button', { name: 'Submit Listing' }).click();
    await expect(page.getByText('Error', { exact: true })).toBeVisible();
    await expect(page.getByText('Failed to create spa listing. Please try again.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit Listing' })).toBeEnabled();
  });

  test('without JavaScript: errors in place with 422, then the listing is created and the page says what happened', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/owner/signup');
    const empty = await submitForm(page, 'Submit Listing');
    expect(empty.status()).toBe(422);
    await expect(page.getByRole('alert')).toContainText('Missing Information');
    await expect(page.getByRole('alert')).toContainText('Please fill in all required fields.');
    await expect(page.getByText('Spa name is required')).toBeVisible();

    const ownerEmail = uniqueEmail('nojs');
    const spaName = `No Script Spa ${Date.now()}`;
    await page.getByLabel('Spa name *').fill(spaName);
    await page.getByLabel('Your e-mail (owner) *').fill(ownerEmail);
    await page.getByLabel('Website (optional)').fill('ftp://nope.example');
    const invalid = await submitForm(page, 'Submit Listing');
    expect(invalid.status()).toBe(422);
    // What was typed is kept to correct.
    await expect(page.getByLabel('Spa name *')).toHaveValue(spaName);
    await expect(page.getByText('Enter a web address starting with http:// or https://')).toBeVisible();
    await page.getByLabel('Website (optional)').fill('https://no-script.example');
    await page.getByLabel('City *').selectOption({ label: firstCity().name });
    const created = await submitForm(page, 'Submit Listing');
    expect(created.status()).toBe(201);
    await expect(page.getByRole('status')).toContainText('Success!');
    await expect(page.getByRole('status')).toContainText('We sent a sign-in link');
    expect(spaNamed(spaName)).toHaveLength(1);
    await messageInOutbox(ownerEmail, 'sign-in link');
    await context.close();
  });
});

for (const width of [375, 1280]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const path of ['/spa-owners', '/owner/signup']) {
      test(`${path} has no axe violations`, async ({ page }, testInfo) => {
        await page.goto(path);
        const results = await axeBuilder(page).withTags(AXE_TAGS).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        await page.screenshot({ path: testInfo.outputPath(`${path.replaceAll('/', '_')}-${width}.png`), fullPage: true });
      });
    }
  });
}
