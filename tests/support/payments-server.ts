// The site under test for the payment tests: the Stripe stand-in on
// STRIPE_API_PORT (with the plan prices set up), then the same database,
// build and server as tests/support/e2e-server.ts, with Stripe configured.
import { spawnSync } from 'node:child_process';
import { prepareDatabase } from '#db/prepare.ts';
import { startServer } from '#server/serve.ts';
import { setUpPrices } from '#scripts/stripe-setup.ts';
import { startStripeStandIn } from './stripe-stand-in.ts';

const standIn = await startStripeStandIn(Number(process.env.STRIPE_API_PORT));
await setUpPrices(standIn.client(process.env.STRIPE_SECRET_KEY), () => {});
prepareDatabase(process.env.DATABASE_PATH!);
const publish = spawnSync(process.execPath, ['server/rebuild.ts'], { stdio: 'inherit' });
if (publish.status !== 0) process.exit(publish.status ?? 1);
await startServer();
