import { e2ePort as port, siteRunConfig } from '#tests/support/playwright-site.ts';

// The payment tests (npm run test:e2e:payments): the site with Stripe
// configured against the local stand-in (tests/support/stripe-stand-in.ts,
// on E2E_PORT + 1) and a Stripe.js test double served by page.route.
// Separate from playwright.config.ts, whose site runs without Stripe keys.
export const stripeEnv = {
  STRIPE_SECRET_KEY: 'sk_test_e2e_stand_in',
  STRIPE_WEBHOOK_SECRET: 'whsec_e2e_stand_in',
  PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_stand_in',
  STRIPE_API_HOST: '127.0.0.1',
  STRIPE_API_PORT: String(port + 1),
  STRIPE_API_PROTOCOL: 'http',
};

export default siteRunConfig({
  testDir: 'tests/e2e-payments',
  outputDir: `test-results/${port}-payments`,
  dirPrefix: 'medspa-e2e-pay-',
  command: 'node tests/support/payments-server.ts',
  extraEnv: stripeEnv,
});
