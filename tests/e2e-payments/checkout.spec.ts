// /checkout and /subscription with Stripe configured (against the local
// stand-in) in Chromium. Stripe.js cannot load here: page.route answers its
// URL with a small test double exposing Stripe(), elements() and
// confirmPayment(), so the island's states and toasts run for real.
import { expect, test, type Page } from '@playwright/test';
import Stripe from 'stripe';
import { and, count, eq, isNotNull, isNull, notLike, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { bookings, checkoutHolds, services, spas } from '#db/schema.ts';
import { invalidateUserSessions } from '#lib/server/auth/sessions.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { createSignedInUser, signIn } from '../support/sessions.ts';
import { makeEvent, sendWebhook } from '../support/stripe-webhooks.ts';
import { stripeEnv } from '../../playwright.payments.config.ts';
import { firstPricedService, ownerWithSpaInNewCity } from '../support/spas.ts';
import { withStripeDouble } from '../support/stripe-double.ts';

const stripe = new Stripe(stripeEnv.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: Number(stripeEnv.STRIPE_API_PORT), protocol: 'http', maxNetworkRetries: 0 });

/** A priced service to pay for, not a consultation. */
const pricedService = () => firstPricedService(notLike(sql`lower(${services.name})`, '%consultation%'));
/** How many rows of `table` match `where`. */
const countOf = (table: SQLiteTable, where: SQL | undefined) => db.select({ n: count() }).from(table).where(where).get()!.n;
const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

/** Opens the checkout of the service; its Pay button, named with the price. */
async function openCheckout(page: Page, service: { id: number; priceCents: number }) {
  await page.goto(`/checkout?service=${service.id}`);
  return page.getByRole('button', { name: `Pay ${dollars(service.priceCents)}` });
}

test('card payment: loading, ready, paying, success; paid only after the webhook', async ({ page, context }) => {
  const user = createSignedInUser({ firstName: 'Pay' });
  await signIn(context, user);
  await withStripeDouble(page);
  await page.addInitScript(() => Object.assign(window, { __holdConfirm: true }));
  const service = pricedService();
  const pay = await openCheckout(page, service);
  await expect(pay).toBeVisible();
  await expect(page.locator('[data-test-payment-element]')).toBeVisible();
  await expect(pay).toBeEnabled();

  const [booking] = db
    .select({
      id: bookings.id,
      paymentStatus: bookings.paymentStatus,
      stripePaymentIntentId: bookings.stripePaymentIntentId,
      paymentAmountCents: bookings.paymentAmountCents,
    })
    .from(bookings)
    .where(eq(bookings.userId, user.id))
    .all();
  expect(booking).toMatchObject({ paymentStatus: 'unpaid', paymentAmountCents: service.priceCents });

  await pay.click();
  await expect(page.getByRole('button', { name: 'Processing…' })).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { __confirmed: { return_url: string } }).__confirmed.return_url)).toBe(
    `${baseURL}/checkout?success=true`,
  );
  await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
  await expect(page.getByText('Payment Successful', { exact: true })).toBeVisible();
  await expect(page.getByText('Thank you for your purchase!')).toBeVisible();
  await page.waitForURL(/\/\?payment=success$/);

  // The browser's word is not enough: still unpaid until Stripe's signed webhook arrives.
  const payment = () => db.select({ paymentStatus: bookings.paymentStatus, paidAt: bookings.paidAt }).from(bookings).where(eq(bookings.id, booking!.id)).get()!;
  expect(payment().paymentStatus).toBe('unpaid');
  const intent = await stripe.paymentIntents.retrieve(booking!.stripePaymentIntentId!);
  const bad = await sendWebhook(
    baseURL,
    makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded' } as unknown as Record<string, unknown>),
    'whsec_wrong',
  );
  expect(bad.status).toBe(400);
  const good = await sendWebhook(
    baseURL,
    makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded' } as unknown as Record<string, unknown>),
    stripeEnv.STRIPE_WEBHOOK_SECRET,
  );
  expect(good.status).toBe(200);
  expect(payment()).toMatchObject({ paymentStatus: 'paid' });
});

// Stripe.js answers the payment with an error (`confirmResult`), or fails itself (`confirmThrows`, a network error).
const failedPayments = [
  {
    name: 'a declined card shows "Payment Failed" with Stripe’s message and the button again',
    confirmResult: { error: { type: 'card_error', message: 'Your card was declined.' } },
    toast: 'Payment Failed',
    message: 'Your card was declined.',
  },
  {
    name: 'an unexpected error while paying shows "Payment Error" and the button again',
    confirmThrows: true,
    toast: 'Payment Error',
    message: 'An unexpected error occurred',
  },
];
for (const c of failedPayments) {
  test(c.name, async ({ page, context }) => {
    await signIn(context, createSignedInUser());
    await withStripeDouble(page, c.confirmResult);
    if (c.confirmThrows) await page.addInitScript(() => Object.assign(window, { __confirmThrows: true }));
    const pay = await openCheckout(page, pricedService());
    await expect(pay).toBeEnabled();
    await pay.click();
    await expect(page.getByText(c.toast, { exact: true })).toBeVisible();
    await expect(page.getByText(c.message)).toBeVisible();
    await expect(pay).toBeEnabled();
  });
}

test('signed out by the time the form asks for a payment: "Unauthorized", then the sign-in page', async ({ page, context }) => {
  const user = createSignedInUser();
  await signIn(context, user);
  await withStripeDouble(page);
  // The session ends between the page and the island's request (it expired, or the person signed out in another tab).
  await page.route('**/api/create-payment-intent', async (route) => {
    invalidateUserSessions(user.id);
    await route.continue();
  });
  // The toast is up for the half second before the sign-in page: each page notes it, the next one reads it.
  await page.addInitScript(() => {
    const look = setInterval(() => {
      const text = document.body?.textContent ?? '';
      if (text.includes('Unauthorized') && text.includes('You are logged out. Logging in again...')) {
        sessionStorage.setItem('unauthorized-toast', 'seen');
        clearInterval(look);
      }
    }, 25);
  });
  await page.goto(`/checkout?service=${pricedService().id}`);
  await page.waitForURL(/\/api\/login\?next=%2Fcheckout/);
  expect(await page.evaluate(() => sessionStorage.getItem('unauthorized-toast'))).toBe('seen');
});

test('a refused payment request (here a tampered amount) shows "Booking Error" and goes back to the services', async ({ page, context }) => {
  const user = createSignedInUser();
  await signIn(context, user);
  await withStripeDouble(page);
  await page.route('**/api/create-payment-intent', (route) =>
    route.continue({ postData: JSON.stringify({ ...JSON.parse(route.request().postData() ?? '{}'), amount: 1 }) }),
  );
  await page.goto(`/checkout?service=${pricedService().id}`);
  await expect(page.getByText('Booking Error', { exact: true })).toBeVisible();
  await expect(page.getByText('Failed to initialize payment. Please try again.')).toBeVisible();
  await page.waitForURL(/\/services$/);
  // Nothing was charged or stored for the tampered request.
  expect(countOf(bookings, and(eq(bookings.userId, user.id), isNotNull(bookings.stripePaymentIntentId)))).toBe(0);
});

test('Stripe’s return with success=true shows the confirmation and goes home', async ({ page, context }) => {
  await signIn(context, createSignedInUser());
  await page.goto('/checkout?success=true&payment_intent=pi_x&redirect_status=succeeded');
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await page.waitForURL(/\/\?payment=success$/, { timeout: 10_000 });
});

test('subscription: the billing switch works without JavaScript and the plan form reaches Stripe Checkout', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const { spa } = await ownerWithSpaInNewCity(context, { city: 'Plan City', spa: 'Plan Spa' });
  const page = await context.newPage();
  await page.goto(`/subscription?spaId=${spa.id}`);
  await expect(page.getByRole('heading', { name: 'Premium', exact: true })).toBeVisible();
  await expect(page.getByText('$97', { exact: true })).toBeVisible();
  await expect(page.getByText('$970', { exact: true })).toBeHidden();
  await page.getByText('Annual').click();
  await expect(page.getByText('$970', { exact: true })).toBeVisible();
  await expect(page.getByText('Save 20%')).toBeVisible();
  await expect(page.getByRole('table')).toContainText('Video spotlight');
  // Choosing a plan posts the form and is redirected to the (stand-in's) Checkout page.
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/pay/cs_test_')),
    page.getByRole('button', { name: 'Choose Elite' }).click(),
  ]);
  expect(request.url()).toContain(`127.0.0.1:${stripeEnv.STRIPE_API_PORT}/pay/cs_test_`);
  expect(countOf(checkoutHolds, and(eq(checkoutHolds.spaId, spa.id), isNull(checkoutHolds.releasedAt)))).toBe(1);
  await context.close();
});

test('subscription with JavaScript: a full city shows "Elite Tier Unavailable"', async ({ page, context }) => {
  const { owner, cityId, spa } = await ownerWithSpaInNewCity(context, { city: 'Full City', spa: 'Hopeful' });
  for (let i = 0; i < 3; i++)
    db.insert(spas)
      .values({ name: `Elite ${owner.id}-${i}`, slug: `elite-${owner.id}-${i}`, cityId, tier: 'ELITE' })
      .run();
  await page.goto(`/subscription?spaId=${spa.id}`);
  await expect(page.locator('[data-plans]')).toBeVisible();
  await page.waitForFunction(() => document.querySelector('astro-island[ssr]') === null);
  await page.getByRole('button', { name: 'Choose Elite' }).click();
  await expect(page.getByText('Elite Tier Unavailable')).toBeVisible();
  await expect(page.getByText('The maximum of 3 Elite spas per city has been reached. Please try Premium instead.')).toBeVisible();
  expect(page.url()).toContain('/subscription');
});

test('subscription with JavaScript: a failed or empty answer shows "Subscription Error" with what went wrong', async ({ page, context }) => {
  const { spa } = await ownerWithSpaInNewCity(context, { city: 'Error City', spa: 'Unlucky' });
  // Stripe's answers the server cannot give on demand here: an error without a message, then a success without a URL.
  const answers = [
    { status: 502, body: JSON.stringify({ error: { code: 'stripe_error', message: '' } }) },
    { status: 200, body: JSON.stringify({}) },
  ];
  await page.route('**/api/stripe/checkout', (route) => route.fulfill({ contentType: 'application/json', ...answers.shift()! }));
  await page.goto(`/subscription?spaId=${spa.id}`);
  await page.waitForFunction(() => document.querySelector('astro-island[ssr]') === null);

  await page.getByRole('button', { name: 'Choose Premium' }).click();
  await expect(page.getByText('Subscription Error', { exact: true })).toBeVisible();
  await expect(page.getByText('Failed to start subscription process')).toBeVisible();
  expect(page.url()).toContain('/subscription');

  await page.getByRole('button', { name: 'Choose Premium' }).click();
  await expect(page.getByText('No checkout URL returned')).toBeVisible();
  expect(page.url()).toContain('/subscription');
});
