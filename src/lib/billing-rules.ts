// Billing decisions without I/O (spec 9 prices; rulings "Listings, tiers and
// billing" and "Bookings and leads"): which Stripe price a plan is, what a
// service costs, what a subscription's state means for the spa's tier, and
// whether a late webhook may still change anything. src/lib/server/billing*.ts
// does the talking to Stripe and SQLite and asks these.
import { plans } from '#content/site.ts';
import type { BillingPeriod, PaymentStatus, SubscriptionStatus, Tier } from '#db/schema.ts';
import { formatWholeDollars } from './money.ts';
import { invalid, ok, type Result } from './result.ts';
import { ELITE_PER_CITY } from './tiers.ts';

export type PaidTier = Exclude<Tier, 'FREE'>;

export interface Plan {
  tier: PaidTier;
  billing: BillingPeriod;
  /** The Stripe Price lookup key (scripts/stripe-setup.ts creates them). */
  lookupKey: string;
  amountCents: number;
  interval: 'month' | 'year';
  productName: string;
}

const plan = (tier: PaidTier, billing: BillingPeriod, amountCents: number): Plan => ({
  tier,
  billing,
  lookupKey: `${tier.toLowerCase()}_${billing}`,
  amountCents,
  interval: billing === 'monthly' ? 'month' : 'year',
  productName: tier === 'ELITE' ? 'Elite listing' : 'Premium listing',
});

/** Premium $97/mo or $970/yr; Elite $197/mo or $1,970/yr (spec 9). */
export const PLANS: readonly Plan[] = [
  // The prices live in the content module, where the landing and plan pages read them too.
  plan('PREMIUM', 'monthly', plans.PREMIUM.monthlyCents),
  plan('PREMIUM', 'annual', plans.PREMIUM.yearlyCents),
  plan('ELITE', 'monthly', plans.ELITE.monthlyCents),
  plan('ELITE', 'annual', plans.ELITE.yearlyCents),
];

export function findPlan(tier: PaidTier, billing: BillingPeriod): Plan {
  return PLANS.find((p) => p.tier === tier && p.billing === billing)!;
}

export function planByLookupKey(key: string | null | undefined): Plan | undefined {
  return PLANS.find((p) => p.lookupKey === key);
}

/** What a year saves over twelve months: $194 Premium, $394 Elite (spec 9). */
export function annualSavingsCents(tier: PaidTier): number {
  return findPlan(tier, 'monthly').amountCents * 12 - findPlan(tier, 'annual').amountCents;
}

/** A paid plan's prices as its card shows them, in whole dollars: "$97" a month, "$970" a year, "$194" saved. */
export function planPrices(tier: PaidTier): { monthly: string; annual: string; annualSavings: string } {
  return {
    monthly: formatWholeDollars(findPlan(tier, 'monthly').amountCents),
    annual: formatWholeDollars(findPlan(tier, 'annual').amountCents),
    annualSavings: formatWholeDollars(annualSavingsCents(tier)),
  };
}

/** The spec's client sends `yearly`; the toggle and lookup keys say `annual`. */
export function parseBilling(value: unknown): BillingPeriod | null {
  if (value === 'monthly') return 'monthly';
  if (value === 'annual' || value === 'yearly') return 'annual';
  return null;
}

/** The id of a Stripe field that is an id or, expanded, the object itself. */
export const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

export function parsePaidTier(value: unknown): PaidTier | null {
  const upper = typeof value === 'string' ? value.toUpperCase() : '';
  return upper === 'PREMIUM' || upper === 'ELITE' ? upper : null;
}

// ---- Paying for a service ---------------------------------------------------

/** The cents to charge, or `invalid` coded complimentary, amount_mismatch or invalid_amount. */
export type ChargeDecision = Result<number, 'invalid'>;

/**
 * What to charge for a service: always its stored price. The browser's
 * `amount` (dollars, as the spec's client sends it) is only compared: when it
 * differs the request is refused, so nobody is charged a sum they were not
 * shown and nobody can choose their own price.
 */
export function decideCharge(service: { name: string; priceCents: number }, amount: unknown): ChargeDecision {
  if (service.priceCents <= 0 || service.name.toLowerCase().includes('consultation')) {
    return invalid({}, 'This service is complimentary: request it from the booking form, there is nothing to pay.', { code: 'complimentary' });
  }
  if (amount !== undefined && amount !== null) {
    const dollars = typeof amount === 'string' && /^\d{1,9}(?:\.\d{1,2})?$/.test(amount.trim()) ? Number(amount) : amount;
    if (typeof dollars !== 'number' || !Number.isFinite(dollars) || dollars < 0) {
      return invalid({}, 'The amount must be a number of dollars.', { code: 'invalid_amount' });
    }
    if (Math.round(dollars * 100) !== service.priceCents) {
      return invalid({}, `The price of this service is $${(service.priceCents / 100).toFixed(2)}; reload the page to see the current price.`, {
        code: 'amount_mismatch',
      });
    }
  }
  return ok(service.priceCents);
}

/**
 * A payment intent's status as the booking keeps it. `paid` is final: a
 * failure reported after a success (a retry that failed first, delivered
 * late) does not undo it.
 */
export function paymentStatusFromIntent(status: string): PaymentStatus {
  switch (status) {
    case 'succeeded':
      return 'paid';
    case 'processing':
      return 'processing';
    case 'requires_payment_method':
    case 'canceled':
      return 'failed';
    default:
      return 'unpaid';
  }
}

/** Whether an event about a booking's payment may change what is stored. */
export function shouldApplyPaymentEvent(
  current: { status: PaymentStatus | null; eventCreated: number | null },
  incoming: { status: PaymentStatus; created: number },
): boolean {
  // A refund comes after the payment whatever order the events arrive in: a late "succeeded" cannot undo it.
  if (current.status === 'paid' || current.status === 'refunded') return false;
  if (incoming.status === 'paid') return true;
  return current.eventCreated === null || incoming.created >= current.eventCreated;
}

/** charge.refunded: a booking is refunded when its paid charge was refunded in full (a partial refund leaves it paid). */
export function isFullRefund(charge: { refunded?: boolean | null; amount?: number | null; amount_refunded?: number | null }): boolean {
  return charge.refunded === true || (typeof charge.amount === 'number' && charge.amount > 0 && charge.amount_refunded === charge.amount);
}

/** A payment intent that can still be confirmed, so a second click reuses it. */
export function isReusableIntent(status: string): boolean {
  return status === 'requires_payment_method' || status === 'requires_confirmation' || status === 'requires_action';
}

// ---- Subscriptions ----------------------------------------------------------

/** Stripe has more subscription statuses than the spec's four; this is how they fold. */
export function subscriptionStatusFromStripe(status: string): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'incomplete':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      // unpaid, paused and anything new: not paying, so not listed as paid.
      return 'unpaid';
  }
}

/**
 * The spa's tier while a subscription is in a status: active and past_due
 * (Stripe is still retrying the card) keep the paid tier; canceled and unpaid
 * go back to FREE, and the listing stays.
 */
export function tierForSubscription(tier: PaidTier, status: SubscriptionStatus): Tier {
  return status === 'active' || status === 'past_due' ? tier : 'FREE';
}

/**
 * Whether a webhook about a subscription may change the stored row. Stripe
 * delivers at least once and in no particular order: an event older than the
 * last one applied is ignored, and a canceled subscription never comes back
 * (Stripe never reactivates one), so a late "updated" cannot revive it.
 */
export function shouldApplySubscriptionEvent(
  current: { status: SubscriptionStatus; lastEventCreated: number } | null,
  incoming: { status: SubscriptionStatus; created: number },
): boolean {
  if (!current) return true;
  if (current.status === 'canceled' && incoming.status !== 'canceled') return false;
  return incoming.created >= current.lastEventCreated;
}

// ---- The Elite cap ----------------------------------------------------------

/** Free Elite slots in a city: 3 minus active Elite spas minus open checkouts holding one. */
export function eliteSlotsLeft(activeElite: number, openHolds: number): number {
  return Math.max(0, ELITE_PER_CITY - activeElite - openHolds);
}

/** The spec's client looks for this phrase to show "Elite Tier Unavailable" (spec 8). */
export const ELITE_CAPACITY_MESSAGE = 'Elite tier is at capacity for this city: at most 3 Elite spas per city. Try Premium instead.';

/** Elite placement is for live listings: a listing awaiting review cannot take one of the city's slots (issue 23.3). */
export const ELITE_NEEDS_APPROVAL_MESSAGE =
  'Elite placement is for approved listings. List your spa for free or with Premium now; once an editor approves it, you can upgrade to Elite from your dashboard.';

/**
 * How many Elite holds may be started in 24 hours (only those that reached
 * Stripe count): a listing twice (a first try and one more), an account four
 * times. An account holds one slot at a time, and a listing's open hold is
 * given back as it is, never renewed.
 */
export const ELITE_HOLD_LIMITS = { perListingPerDay: 2, perAccountPerDay: 4 } as const;

/** Checkouts (any plan) started per hour: per account, and per client address. */
export const CHECKOUT_LIMITS = { perAccount: 10, perClient: 20 } as const;

/** An open checkout lasts 30 minutes (Stripe's minimum); its hold a little longer, so it never ends before the session. */
export const CHECKOUT_SESSION_MINUTES = 30;
export const HOLD_GRACE_MINUTES = 5;
