// The real Stripe SDK against the local stand-in (./stripe-stand-in.ts), set
// up as the billing unit tests need it, and the two no-show policies they book
// under.
import type { NoShowPolicy } from '#lib/no-show-policy.ts';
import { useStripeClient } from '#lib/server/billing/billing.ts';
import { forgetPrices } from '#lib/server/billing/checkout.ts';
import { setUpPrices } from '#scripts/stripe-setup.ts';
import { startStripeStandIn } from './stripe-stand-in.ts';

/** A stand-in holding the plans' prices; the price ids another test file cached are forgotten first. */
export async function standInWithPrices() {
  forgetPrices();
  const standIn = await startStripeStandIn();
  const stripe = standIn.client();
  await setUpPrices(stripe, () => {});
  return { standIn, stripe };
}

/**
 * A stand-in whose client the billing code takes for its own calls
 * (getStripe) until the stand-in is closed; then it reads the settings again,
 * as the worker's next test file expects (vitest.config.ts: files share workers).
 */
export async function standInForBilling() {
  const standIn = await startStripeStandIn();
  const stripe = standIn.client();
  useStripeClient(stripe);
  const close = async () => {
    useStripeClient(undefined);
    await standIn.close();
  };
  return { standIn: { ...standIn, close }, stripe };
}

/** A card on file: half the price for a late cancellation, $150 for a no-show. */
export const CARD: NoShowPolicy = { mode: 'card', deposit: null, lateCancelFee: { kind: 'percent', percent: 50 }, noShowFee: { kind: 'fixed', cents: 15_000 } };
/** A quarter of the price as a deposit, $20 for a no-show (taken from it). */
export const DEPOSIT: NoShowPolicy = {
  mode: 'deposit',
  deposit: { kind: 'percent', percent: 25 },
  lateCancelFee: null,
  noShowFee: { kind: 'fixed', cents: 2_000 },
};
