// Plans for spa owners with Stripe configured (against the local stand-in):
// the landing's paid buttons ask POST /api/stripe/checkout and fall back to
// /owner/signup?tier= when it refuses; the signup form's paid path opens
// Stripe Checkout for a signed-in owner, and the listing goes live at the
// tier only when the signed checkout.session.completed webhook arrives.
import { expect, test } from '@playwright/test';
import Stripe from 'stripe';
import { asc, eq } from 'drizzle-orm';
import { cities, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { hydrated } from '../support/islands.ts';
import { forgetLoopbackLimits } from '../support/limits.ts';
import { createSignedInUser, signIn } from '../support/sessions.ts';
import { ownerWithSpaInNewCity } from '../support/spas.ts';
import { makeEvent, sendWebhook } from '../support/stripe-webhooks.ts';
import { stripeEnv } from '../../playwright.payments.config.ts';

const standInUrl = `http://127.0.0.1:${stripeEnv.STRIPE_API_PORT}`;
const stripe = new Stripe(stripeEnv.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: Number(stripeEnv.STRIPE_API_PORT), protocol: 'http', maxNetworkRetries: 0 });

test.beforeEach(() => forgetLoopbackLimits());

/** The first active city by name, the one both signups choose. */
const firstCity = () => db.select({ name: cities.name }).from(cities).where(eq(cities.active, true)).orderBy(asc(cities.name)).limit(1).get()!;

test('the landing’s Premium button asks for checkout and, signed out, falls back to /owner/signup?tier=PREMIUM', async ({ page }) => {
  await page.goto('/spa-owners');
  await expect(page.locator('[data-payments-not-configured]')).toHaveCount(0);
  const [checkout] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/stripe/checkout')),
    page.getByRole('link', { name: 'Choose Premium' }).click(),
  ]);
  expect(checkout.status()).toBe(401);
  expect(checkout.request().postDataJSON()).toEqual({ tier: 'PREMIUM', billing: 'monthly' });
  await expect(page).toHaveURL(/\/owner\/signup\?tier=PREMIUM$/);
  await expect(page.getByLabel('Plan')).toHaveValue('PREMIUM');
  await expect(page.getByText('we first e-mail you a sign-in link to confirm your address')).toBeVisible();
});

test('the landing’s Elite button takes a signed-in owner with one listing straight to Stripe Checkout (annual)', async ({ page, context }) => {
  await ownerWithSpaInNewCity(context, { city: 'Landing City', spa: 'Landing Spa' });
  await page.goto('/spa-owners');
  await page.getByText('Annual').click();
  const [pay] = await Promise.all([
    page.waitForRequest((r) => r.url().startsWith(`${standInUrl}/pay/cs_test_`)),
    page.getByRole('link', { name: 'Choose Elite' }).click(),
  ]);
  const session = await stripe.checkout.sessions.retrieve(pay.url().split('/pay/')[1]!);
  expect(session.metadata).toMatchObject({ tier: 'ELITE', billing: 'annual' });
});

test('signup, paid path: Checkout opens, and the listing goes live as Premium only after the signed webhook', async ({ page, context }) => {
  const owner = createSignedInUser();
  await signIn(context, owner);
  const spaName = `Paid Signup ${owner.id}`;
  const city = firstCity();
  await page.goto('/owner/signup?tier=PREMIUM');
  await hydrated(page, 'OwnerSignupForm');
  await expect(page.getByLabel('Your e-mail (owner) *')).toHaveValue(owner.email);
  await page.getByLabel('Spa name *').fill(spaName);
  await page.getByLabel('City *').selectOption({ label: city.name });
  const [checkout, pay] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/stripe/checkout')),
    page.waitForRequest((r) => r.url().startsWith(`${standInUrl}/pay/cs_test_`)),
    page.getByRole('button', { name: 'Submit Listing' }).click(),
  ]);
  expect(checkout.request().postDataJSON()).toMatchObject({ tier: 'PREMIUM', billing: 'monthly', spaData: { name: spaName } });

  const spa = () =>
    db
      .select({ id: spas.id, tier: spas.tier, active: spas.active, reviewStatus: spas.reviewStatus, ownerId: spas.ownerId })
      .from(spas)
      .where(eq(spas.name, spaName))
      .get()!;
  expect(spa()).toMatchObject({ tier: 'FREE', active: false, reviewStatus: 'pending', ownerId: owner.id });

  // The customer pays on Stripe's page; the browser coming back proves nothing, the webhook does.
  const sessionId = pay.url().split('/pay/')[1]!;
  expect((await fetch(`${standInUrl}/test/checkout/sessions/${sessionId}/complete`, { method: 'POST' })).status).toBe(200);
  const completed = (await stripe.checkout.sessions.retrieve(sessionId)) as unknown as Record<string, unknown>;
  expect((await sendWebhook(baseURL, makeEvent('checkout.session.completed', completed), 'whsec_wrong')).status).toBe(400);
  expect(spa()).toMatchObject({ tier: 'FREE', active: false });
  expect((await sendWebhook(baseURL, makeEvent('checkout.session.completed', completed), stripeEnv.STRIPE_WEBHOOK_SECRET)).status).toBe(200);
  expect(spa()).toMatchObject({ tier: 'PREMIUM', active: true, reviewStatus: 'approved' });
});

test('signup without JavaScript, paid path: the form post is redirected (303) to Stripe Checkout', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const owner = createSignedInUser({ role: 'owner' });
  await signIn(context, owner);
  const page = await context.newPage();
  const city = firstCity();
  await page.goto('/owner/signup?tier=PREMIUM&billing=annual');
  await page.getByLabel('Spa name *').fill(`No Script Paid ${owner.id}`);
  await page.getByLabel('City *').selectOption({ label: city.name });
  const [post, pay] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/owner/signup')),
    page.waitForRequest((r) => r.url().startsWith(`${standInUrl}/pay/cs_test_`)),
    page.getByRole('button', { name: 'Submit Listing' }).click(),
  ]);
  expect(post.status()).toBe(303);
  const session = await stripe.checkout.sessions.retrieve(pay.url().split('/pay/')[1]!);
  expect(session.metadata).toMatchObject({ tier: 'PREMIUM', billing: 'annual' });
  await context.close();
});
