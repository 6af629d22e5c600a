// npm run stripe:setup: creates the four plan prices in the Stripe account of
// STRIPE_SECRET_KEY, found later by lookup key (premium_monthly, premium_annual,
// elite_monthly, elite_annual). Idempotent: a price that already has its key,
// amount and interval is left alone; one with a different amount is replaced
// (the key moves to the new price; Stripe prices are immutable).
import Stripe from 'stripe';
import { PLANS, type Plan } from '#lib/billing-rules.ts';
import { logger } from '#lib/log.ts';
import { loadEnv } from '#server/env.ts';

const log = logger('stripe:setup');

export async function setUpPrices(stripe: Stripe, say: (line: string) => void = log.info): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const existing = await stripe.prices.list({ lookup_keys: PLANS.map((p) => p.lookupKey), active: true, limit: 100 });
  for (const plan of PLANS) {
    const found = existing.data.find((p) => p.lookup_key === plan.lookupKey);
    if (found && matches(found, plan)) {
      say(`${plan.lookupKey}: ${found.id} (already set up)`);
      ids.set(plan.lookupKey, found.id);
      continue;
    }
    const price = await stripe.prices.create(
      {
        currency: 'usd',
        unit_amount: plan.amountCents,
        recurring: { interval: plan.interval },
        lookup_key: plan.lookupKey,
        transfer_lookup_key: Boolean(found),
        product_data: { name: plan.productName },
        metadata: { tier: plan.tier, billing: plan.billing },
      },
      { idempotencyKey: `stripe-setup-${plan.lookupKey}-${plan.amountCents}-${found?.id ?? 'new'}` },
    );
    say(`${plan.lookupKey}: ${price.id} (created, $${(plan.amountCents / 100).toFixed(2)} per ${plan.interval})`);
    ids.set(plan.lookupKey, price.id);
  }
  return ids;
}

function matches(price: Stripe.Price, plan: Plan): boolean {
  return price.unit_amount === plan.amountCents && price.currency === 'usd' && price.recurring?.interval === plan.interval;
}

if (import.meta.main) {
  loadEnv();
  const key = process.env.STRIPE_SECRET_KEY?.trim();
  if (!key) {
    log.error('needs STRIPE_SECRET_KEY (see .env.example).');
    process.exit(1);
  }
  const config: Stripe.StripeConfig = {};
  if (process.env.STRIPE_API_HOST) config.host = process.env.STRIPE_API_HOST;
  if (process.env.STRIPE_API_PORT) config.port = Number(process.env.STRIPE_API_PORT);
  if (process.env.STRIPE_API_PROTOCOL === 'http' || process.env.STRIPE_API_PROTOCOL === 'https') config.protocol = process.env.STRIPE_API_PROTOCOL;
  await setUpPrices(new Stripe(key, config));
}
