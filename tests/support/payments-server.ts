// The site under test for the payment tests: the Stripe stand-in on
// STRIPE_API_PORT (with the plan prices set up), then the same database,
// build and server as tests/support/e2e-server.ts, with Stripe configured.
import { startServer } from '#server/serve.ts';
import { setUpPrices } from '#scripts/stripe-setup.ts';
import { buildSite, prepareSite, type SiteEnv } from './site.ts';
import { startStripeStandIn } from './stripe-stand-in.ts';

const standIn = await startStripeStandIn(Number(process.env.STRIPE_API_PORT));
await setUpPrices(standIn.client(process.env.STRIPE_SECRET_KEY), () => {});
const site = process.env as SiteEnv;
// scripts/test.ts builds the site beside the unit tests (./e2e-build.ts) and says so.
if (process.env.E2E_SITE_BUILT !== '1') {
  prepareSite(site);
  buildSite(site, { stdio: 'inherit' });
}
await startServer();
