// No-show protection (issue 25) in Chromium, with Stripe configured against
// the local stand-in (real SDK, real signed webhooks) and the Stripe.js test
// double: the owner sets a policy; clients book with a card on file and with
// a deposit (the card step's island; secured only by Stripe's webhook); a
// cancellation in time refunds the deposit; a late one is offered to the
// owner as a fee; the owner marks a no-show and the fee is charged once (two
// tabs); a bank that asks for authentication reaches the client by mail and
// the client completes it. Other owners and forged amounts change nothing.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import Stripe from 'stripe';
import { stripeEnv } from '../../playwright.payments.config.ts';
import { axeViolationIds } from '../support/axe.ts';
import { watchViolations } from '../support/csp.ts';
import { asc, desc, eq } from 'drizzle-orm';
import { bookingPayments, bookings, services } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { hydrated } from '../support/islands.ts';
import { forgetLoopbackLimits } from '../support/limits.ts';
import { linkIn, messageInOutbox } from '../support/outbox.ts';
import { createSignedInUser, signIn, type TestUser } from '../support/sessions.ts';
import { insertCity, insertSpa } from '../support/spas.ts';
import { makeEvent, sendWebhook } from '../support/stripe-webhooks.ts';
import { withStripeDouble } from '../support/stripe-double.ts';

const standIn = `http://127.0.0.1:${stripeEnv.STRIPE_API_PORT}`;
const stripe = new Stripe(stripeEnv.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: Number(stripeEnv.STRIPE_API_PORT), protocol: 'http', maxNetworkRetries: 0 });
const HOUR = 3_600_000;

const control = async (path: string, body: Record<string, string> = {}) => {
  const response = await fetch(`${standIn}${path}`, { method: 'POST', body: new URLSearchParams(body) });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};
/** Stripe tells the site, signed, as it would (`stripe listen` in development). */
const deliver = async (type: string, object: unknown) => {
  const answer = await sendWebhook(baseURL, makeEvent(type, object as Record<string, unknown>), stripeEnv.STRIPE_WEBHOOK_SECRET);
  expect(answer.status).toBe(200);
};

const bookingOf = (email: string) => db.select().from(bookings).where(eq(bookings.email, email)).orderBy(desc(bookings.id)).get()!;
const ledger = (bookingId: number) => db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, bookingId)).orderBy(asc(bookingPayments.id)).all();
/** The appointment's time passes: the API takes only future times, so the row is written as it stands. */
const moveIntoPast = (bookingId: number) =>
  db
    .update(bookings)
    .set({ scheduledAt: new Date(Date.now() - 2 * HOUR) })
    .where(eq(bookings.id, bookingId))
    .run();

// Each test walks a whole story (policy, booking, card step, webhooks, the
// owner's act, mail): 18-25 s on a quiet machine, past one page's 30 s default beside another suite.
test.describe.configure({ timeout: 90_000 });

test.beforeEach(() => forgetLoopbackLimits());

/** An owner, signed in to `context`, whose new spa ($200 facial) asks for `policy` (set through the policies form). */
async function spaWithPolicy(page: Page, context: BrowserContext, policy: Record<string, string>) {
  const owner = createSignedInUser({ role: 'owner', firstName: 'Owner' });
  await signIn(context, owner);
  const cityId = insertCity(`Protect City ${owner.id}`);
  const spa = insertSpa({ name: `Protect Spa ${owner.id}`, cityId, ownerId: owner.id });
  const serviceName = `Glow Facial ${owner.id}`;
  db.insert(services).values({ spaId: spa.id, name: serviceName, priceCents: 20000, duration: 60, category: 'facial' }).run();
  await page.goto(`/owner/spas/${spa.id}/policies`);
  const form = page.locator('form', { has: page.getByLabel('What clients give when they book') });
  await form.getByLabel('What clients give when they book').selectOption(policy.protection!);
  for (const [label, value] of Object.entries(policy)) {
    if (label === 'protection') continue;
    const field = form.getByLabel(label, { exact: true });
    if ((await field.evaluate((node) => node.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  await form.getByRole('button', { name: 'Save protection' }).click();
  await expect(page.locator('[data-protection-saved]')).toBeVisible();
  return { owner, spaId: spa.id, spaName: `Protect Spa ${owner.id}`, serviceName };
}

/** A client requests the treatment on /booking?spa= (the request form island) and lands on the card step. */
async function book(page: Page, spaId: number, serviceName: string, email: string) {
  await page.goto(`/booking?spa=${spaId}`);
  await hydrated(page, 'BookingForm');
  const form = page.locator('form[data-booking-form]');
  await form.getByLabel('Full name').fill('Nia Park');
  await form.getByLabel('Email').fill(email);
  const serviceId = db.select({ id: services.id }).from(services).where(eq(services.name, serviceName)).get()!.id;
  await form.getByLabel('Treatment').selectOption(String(serviceId));
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Request Appointment' }).click();
  await page.waitForURL(/\/bookings\/secure\/[a-z2-7]{32}$/);
  await hydrated(page, 'SecureBooking');
}

/** The owner confirms the booking for `at` through the API the dashboard's forms share. */
async function confirm(request: APIRequestContext, owner: TestUser, bookingId: number, at: Date) {
  const answer = await request.patch(`/api/bookings/${bookingId}`, {
    headers: { Origin: baseURL, Cookie: `session=${owner.token}` },
    data: { status: 'confirmed', scheduledAt: at.toISOString() },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** A client whose card was saved (card step, Stripe's webhook) for a booking of this spa, confirmed by the owner for `at`. */
async function securedCardBooking(page: Page, request: APIRequestContext, setup: Awaited<ReturnType<typeof spaWithPolicy>>, card: string, at: Date) {
  const email = `client-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await book(page, setup.spaId, setup.serviceName, email);
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.waitForFunction(() => Boolean((window as unknown as { __confirmedSetup?: unknown }).__confirmedSetup));
  const booking = bookingOf(email);
  await deliver('setup_intent.succeeded', await control(`/test/setup_intents/${booking.stripeSetupIntentId}/succeed`, { card }));
  await expect(page.locator('[data-secure-phase="done"]')).toBeVisible();
  await confirm(request, setup.owner, booking.id, at);
  return { email, booking: bookingOf(email) };
}

const CARD_POLICY = {
  protection: 'card',
  'Late-cancellation fee is': 'percent',
  'Late-cancellation fee amount': '50',
  'No-show fee is': 'fixed',
  'No-show fee amount': '150',
};

test('a card on file: the policy in dollars before booking, the card saved with Stripe Elements, secured only by the webhook', async ({ page, context }) => {
  await withStripeDouble(page);
  const setup = await spaWithPolicy(page, context, CARD_POLICY);
  await expect(page.locator('[data-protection-example]')).toContainText('the spa may charge a $150.00 no-show fee to your saved card');
  const email = `card-${Date.now()}@example.com`;
  // Stripe.js (its double, at Stripe's address) runs under the site's Content-Security-Policy.
  const violations = await watchViolations(page);
  await book(page, setup.spaId, setup.serviceName, email);
  await expect(page.getByRole('heading', { name: 'Save your card to finish booking' })).toBeVisible();
  const policy = page.locator('[data-policy-summary]');
  await expect(policy).toContainText('Cancelling later than that: the spa may charge a $100.00 late-cancellation fee to your saved card.');
  await expect(policy).toContainText('Missing your appointment: the spa may charge a $150.00 no-show fee to your saved card.');
  await expect(page.locator('[data-test-payment-element]')).toBeVisible();
  expect(await axeViolationIds(page)).toEqual([]);
  const booking = bookingOf(email);
  expect(booking).toMatchObject({ status: 'pending', secureStatus: 'awaiting' });
  expect((await stripe.setupIntents.retrieve(booking.stripeSetupIntentId!)).usage).toBe('off_session');

  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('button', { name: 'Confirming with Stripe…' })).toBeDisabled();
  // Stripe.js said yes; the booking is not secured until Stripe's webhook arrives.
  expect(bookingOf(email).secureStatus).toBe('awaiting');
  await deliver('setup_intent.succeeded', await control(`/test/setup_intents/${booking.stripeSetupIntentId}/succeed`, { card: 'pm_card_visa' }));
  await expect(page.locator('[data-secure-phase="done"]')).toContainText('All set.');
  expect(bookingOf(email).secureStatus).toBe('secured');
  const mail = await messageInOutbox(email, 'We received your request');
  expect(mail).toContain('Booking policy:');
  expect(await violations()).toEqual([]);
});

test('without JavaScript the request form’s post leads to the card step (303), which says it needs JavaScript', async ({ page, context, browser }) => {
  const setup = await spaWithPolicy(page, context, CARD_POLICY);
  const serviceId = db.select({ id: services.id }).from(services).where(eq(services.spaId, setup.spaId)).get()!.id;
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const answer = await noJs.request.post('/booking/request', {
    headers: { Origin: baseURL },
    form: { name: 'Lee Park', email: `nojs-${Date.now()}@example.com`, serviceId: String(serviceId), spaId: String(setup.spaId), consent: 'on' },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(303);
  const next = answer.headers().location!;
  expect(next).toMatch(/^\/bookings\/secure\/[a-z2-7]{32}$/);
  const card = await noJs.newPage();
  await card.goto(next);
  // (Chromium keeps parsing <noscript> as if scripts ran when a context turns them off, so its words are read from the page's HTML.)
  expect(await card.locator('noscript').first().innerHTML()).toContain('The card form needs JavaScript.');
  await expect(card.locator('[data-policy-summary]')).toContainText('$150.00 no-show fee');
  await noJs.close();
});

test('a deposit: paid on the card step, refunded in full at once when the client cancels in time', async ({ page, context, request }) => {
  await withStripeDouble(page);
  const setup = await spaWithPolicy(page, context, { protection: 'deposit', 'Deposit is': 'fixed', 'Deposit amount': '40' });
  const email = `deposit-${Date.now()}@example.com`;
  await book(page, setup.spaId, setup.serviceName, email);
  await expect(page.getByRole('heading', { name: 'Pay the deposit to finish booking' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay $40.00 deposit' }).click();
  await page.waitForFunction(() => Boolean((window as unknown as { __confirmed?: unknown }).__confirmed));
  const booking = bookingOf(email);
  const [deposit] = ledger(booking.id);
  expect(deposit).toMatchObject({ kind: 'deposit', amountCents: 4_000, status: 'pending' });
  await deliver('payment_intent.succeeded', await control(`/test/payment_intents/${deposit!.stripePaymentIntentId}/succeed`, { card: 'pm_card_visa' }));
  await expect(page.locator('[data-secure-phase="done"]')).toBeVisible();
  await messageInOutbox(email, 'Receipt: $40.00 deposit');

  await confirm(request, setup.owner, booking.id, new Date(Date.now() + 5 * 24 * HOUR));
  await page.goto(`/bookings/manage/${booking.manageToken}`);
  await expect(page.locator('[data-booking-money]')).toContainText('Deposit $40.00: done');
  await page.locator('summary', { hasText: 'Cancel this booking' }).click();
  await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
  await expect(page.locator('[data-manage-notice]')).toContainText('Your booking is cancelled.');
  await expect.poll(() => ledger(booking.id).map((r) => `${r.kind}:${r.amountCents}:${r.status}`)).toEqual(['deposit:4000:succeeded', 'refund:4000:succeeded']);
  const refund = ledger(booking.id)[1]!;
  expect((await stripe.refunds.retrieve(refund.stripeRefundId!)).amount).toBe(4_000);
  await messageInOutbox(email, 'Refunded: $40.00');
  await page.reload();
  await expect(page.locator('[data-booking-money]')).toContainText('Refund $40.00: done');
});

test('a late cancellation: the manage page names the fee before the client confirms; the owner is offered it and charges it once from two tabs', async ({
  page,
  context,
  request,
  browser,
}) => {
  await withStripeDouble(page);
  const setup = await spaWithPolicy(page, context, CARD_POLICY);
  const { email, booking } = await securedCardBooking(page, request, setup, 'pm_card_visa', new Date(Date.now() + 5 * HOUR));
  await page.goto(`/bookings/manage/${booking.manageToken}`);
  const late = page.locator('[data-late-cancel]');
  await expect(late).toContainText(`${setup.spaName} may charge a $100.00 late-cancellation fee to your saved card`);
  await expect(page.locator('summary', { hasText: 'Cancel this booking' })).toHaveCount(0);
  await late.getByRole('button', { name: 'Cancel and accept the $100.00 fee' }).click();
  await expect(page.locator('[data-late-cancelled]')).toContainText('they may charge $100.00 to your saved card');
  expect(bookingOf(email)).toMatchObject({ status: 'cancelled', feeDecision: null });
  expect(ledger(booking.id)).toEqual([]);

  // The owner, in two tabs at once.
  const tabs = await Promise.all([context.newPage(), context.newPage()]);
  for (const tab of tabs) await tab.goto(`/owner/bookings/${booking.id}`);
  await expect(tabs[0]!.locator('[data-fee-offer]')).toContainText('a $100.00 late-cancellation fee, charged to their saved card');
  expect(await axeViolationIds(tabs[0]!)).toEqual([]);
  await Promise.all(tabs.map((tab) => tab.getByRole('button', { name: 'Charge $100.00 late-cancellation fee' }).click()));
  for (const tab of tabs) await expect(tab.locator('[data-money-notice]')).toBeVisible();
  const fees = ledger(booking.id);
  expect(fees).toMatchObject([{ kind: 'late_cancel_fee', amountCents: 10_000, status: 'succeeded' }]);
  expect((await stripe.paymentIntents.retrieve(fees[0]!.stripePaymentIntentId!)).amount).toBe(10_000);
  await messageInOutbox(email, 'Receipt: $100.00 late-cancellation fee');
  await tabs[0]!.reload();
  await expect(tabs[0]!.locator('[data-booking-ledger]')).toContainText(fees[0]!.stripePaymentIntentId!);
  void browser;
});

test('a no-show: the owner marks it and the fee is charged once; another owner and a forged amount change nothing', async ({ page, context, request }) => {
  await withStripeDouble(page);
  const setup = await spaWithPolicy(page, context, CARD_POLICY);
  const { email, booking } = await securedCardBooking(page, request, setup, 'pm_card_visa', new Date(Date.now() + 30 * HOUR));
  moveIntoPast(booking.id);
  await page.goto(`/owner/bookings/${booking.id}`);
  await page.getByRole('button', { name: 'Mark no-show' }).click();
  await expect(page.locator('[data-money-notice]')).toContainText('Marked as a no-show.');
  await expect(page.locator('[data-no-show-badge]')).toBeVisible();

  const before = { booking: bookingOf(email), ledger: ledger(booking.id) };
  const other = createSignedInUser({ role: 'owner' });
  const post = (user: TestUser, form: Record<string, string>) =>
    request.post(`/owner/bookings/${booking.id}`, { headers: { Origin: baseURL, Cookie: `session=${user.token}` }, form, maxRedirects: 0 });
  expect((await post(other, { intent: 'charge', kind: 'no_show_fee', amountCents: '15000' })).status()).toBe(404);
  expect((await post(other, { intent: 'waive' })).status()).toBe(404);
  expect((await post(setup.owner, { intent: 'charge', kind: 'no_show_fee', amountCents: '1500000' })).status()).toBe(422);
  expect((await post(setup.owner, { intent: 'charge', kind: 'late_cancel_fee', amountCents: '10000' })).status()).toBe(422);
  expect({ booking: bookingOf(email), ledger: ledger(booking.id) }).toEqual(before);

  const charge = page.getByRole('button', { name: 'Charge $150.00 no-show fee' });
  await charge.dblclick();
  await expect(page.locator('[data-money-notice]')).toBeVisible();
  await expect.poll(() => ledger(booking.id).map((r) => `${r.kind}:${r.amountCents}:${r.status}`)).toEqual(['no_show_fee:15000:succeeded']);
  await messageInOutbox(email, 'Receipt: $150.00 no-show fee');
  await page.goto('/owner/payments');
  await expect(page.locator('[data-ledger]')).toContainText(ledger(booking.id)[0]!.stripePaymentIntentId!);
});

test('a bank that asks for authentication: the client gets the link by mail, confirms, and the fee completes once', async ({ page, context, request }) => {
  await withStripeDouble(page);
  const setup = await spaWithPolicy(page, context, CARD_POLICY);
  const { email, booking } = await securedCardBooking(page, request, setup, 'pm_card_authenticationRequired', new Date(Date.now() + 30 * HOUR));
  moveIntoPast(booking.id);
  await page.goto(`/owner/bookings/${booking.id}`);
  await page.getByRole('button', { name: 'Mark no-show' }).click();
  await page.getByRole('button', { name: 'Charge $150.00 no-show fee' }).click();
  await expect(page.locator('[data-money-notice]')).toContainText('asks them to confirm the fee');
  await expect(page.locator('[data-fee-waiting]')).toBeVisible();
  const [fee] = ledger(booking.id);
  expect(fee).toMatchObject({ status: 'requires_action' });

  // The client opens the mail's link (a browser of their own) and confirms with their bank.
  const link = linkIn(await messageInOutbox(email, 'Action needed'), '/bookings/secure/');
  const client = await context.browser()!.newContext();
  const clientPage = await client.newPage();
  await withStripeDouble(clientPage);
  await clientPage.goto(new URL(link.pathname, baseURL).href);
  await expect(clientPage.getByRole('heading', { name: 'Confirm a payment with your bank' })).toBeVisible();
  await hydrated(clientPage, 'SecureBooking');
  await clientPage.getByRole('button', { name: 'Confirm $150.00' }).click();
  await clientPage.waitForFunction(() => Boolean((window as unknown as { __confirmedSecret?: string }).__confirmedSecret));
  expect(await clientPage.evaluate(() => (window as unknown as { __confirmedSecret: string }).__confirmedSecret)).toMatch(
    new RegExp(`^${fee!.stripePaymentIntentId}_secret_`),
  );
  const paid = await control(`/test/payment_intents/${fee!.stripePaymentIntentId}/succeed`);
  await deliver('payment_intent.succeeded', paid);
  await deliver('payment_intent.succeeded', paid);
  await expect(clientPage.locator('[data-secure-phase="done"]')).toBeVisible();
  expect(ledger(booking.id)).toMatchObject([{ kind: 'no_show_fee', status: 'succeeded', amountCents: 15_000 }]);
  await messageInOutbox(email, 'Receipt: $150.00 no-show fee');
  await client.close();
});
