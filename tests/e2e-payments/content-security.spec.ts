// The payment pages under the Content-Security-Policy with Stripe configured
// (docs/decisions/0022): Stripe.js (its test double, served at Stripe's URL)
// runs, the card form's states run, and a plan form may go on to Stripe
// Checkout (the stand-in's page), all without one violation.
import { expect, test } from '@playwright/test';
import { visit, watchViolations } from '../support/csp.ts';
import { firstPricedService, ownerWithSpaInNewCity } from '../support/spas.ts';
import { stripeEnv } from '../../playwright.payments.config.ts';
import { withStripeDouble } from '../support/stripe-double.ts';

test('checkout with Stripe.js and the plans page load without a violation; Stripe is in the policy', async ({ page, context }) => {
  const { spa } = await ownerWithSpaInNewCity(context, { city: 'Csp Pay City', spa: 'Csp Pay' });
  await withStripeDouble(page);
  const service = firstPricedService();

  expect(await visit(page, `/checkout?service=${service.id}`)).toEqual([]);
  // The island reached Stripe.js (the double) and shows its card field.
  await expect(page.locator('[data-test-payment-element]')).toBeVisible();
  const policy = (await page.request.get(`/checkout?service=${service.id}`)).headers()['content-security-policy']!;
  expect(policy).toContain('https://js.stripe.com');
  expect(policy).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
  expect(policy).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);

  expect(await visit(page, `/subscription?spaId=${spa.id}`)).toEqual([]);
});

test('a plan form without JavaScript may go on to Stripe Checkout (form-action)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const { spa } = await ownerWithSpaInNewCity(context, { city: 'Csp Plan City', spa: 'Csp Plan' });
  const page = await context.newPage();
  const violations = await watchViolations(page);
  await page.goto(`/subscription?spaId=${spa.id}`);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/pay/cs_test_')),
    page.getByRole('button', { name: 'Choose Premium' }).click(),
  ]);
  expect(request.url()).toContain(`127.0.0.1:${stripeEnv.STRIPE_API_PORT}/pay/cs_test_`);
  expect(await violations()).toEqual([]);
  await context.close();
});
