// Premium and Elite subscriptions through Stripe Checkout (POST
// /api/stripe/checkout) and the customer portal. Prices are found by lookup
// key (scripts/stripe-setup.ts creates them). Elite is capped at 3 active per
// city including open checkouts: each open Elite checkout holds a slot
// (checkout_holds) taken inside one SQLite write transaction, so however many
// owners press the button at once, no more checkouts open than there are
// slots and a fourth payment can never be taken.
import { and, count, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import * as z from 'zod';
import { idSchema } from '#lib/ids.ts';
import { checkoutHolds, spas, subscriptions, users } from '#db/schema.ts';
import {
  CHECKOUT_SESSION_MINUTES,
  ELITE_CAPACITY_MESSAGE,
  eliteSlotsLeft,
  findPlan,
  HOLD_GRACE_MINUTES,
  parseBilling,
  parsePaidTier,
  type PaidTier,
  type Plan,
} from '#lib/billing-rules.ts';
import { listingDataSchema } from '#lib/owner-signup-schema.ts';
import { conflict, invalid, notFound, ok, parseWith, unavailable, type Result } from '#lib/result.ts';
import { ownerOf } from '../auth/auth.ts';
import { stripeUnavailable } from './billing.ts';
import { db } from '../db.ts';
import { createPendingListing } from '../listings/pending.ts';
import type { SessionUser } from '../auth/sessions.ts';

export const checkoutRequestSchema = z.object({
  tier: z.unknown().transform((v, ctx) => parsePaidTier(v) ?? (ctx.addIssue({ code: 'custom', message: 'Choose PREMIUM or ELITE' }), z.NEVER)),
  billing: z
    .unknown()
    .transform((v, ctx) => parseBilling(v ?? 'monthly') ?? (ctx.addIssue({ code: 'custom', message: 'Choose monthly or yearly billing' }), z.NEVER)),
  spaId: idSchema.optional().nullable(),
  cityId: idSchema.optional().nullable(),
  // A new listing from the signup form: created FREE and awaiting review, live at the plan's tier once Stripe says it is paid.
  spaData: z.optional(z.nullable(listingDataSchema)),
});

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

// Price ids by lookup key. Prices are immutable in Stripe, so a found id stays right.
const priceIds = new Map<string, string>();

export async function priceFor(stripe: Stripe, plan: Plan): Promise<string | null> {
  const cached = priceIds.get(plan.lookupKey);
  if (cached) return cached;
  const list = await stripe.prices.list({ lookup_keys: [plan.lookupKey], active: true, limit: 1 });
  const price = list.data[0];
  if (!price) return null;
  priceIds.set(plan.lookupKey, price.id);
  return price.id;
}

/** Forgets cached price ids (tests run several stand-ins). */
export const forgetPrices = () => priceIds.clear();

/** The spa a checkout is for: the one named (the asker's own), a new listing from spaData, or the asker's only one. */
function spaForCheckout(user: SessionUser, request: CheckoutRequest, clientAddress: string | null): Result<{ spaId: number; created?: boolean }> {
  if (request.spaId) {
    const owner = ownerOf(user, request.spaId);
    return owner.ok ? ok({ spaId: request.spaId }) : owner;
  }
  if (request.spaData) {
    // Counted against the listing limits (per account and client address) where it is written.
    const created = createPendingListing(request.spaData, { user }, { clientAddress });
    if (!created.ok && created.reason === 'rate_limited') return created;
    if (!created.ok) return invalid(Object.fromEntries(Object.entries(created.fields).map(([k, v]) => [`spaData.${k}`, v])));
    return ok({ spaId: created.value.spaId, created: true });
  }
  const owned = db.select({ id: spas.id }).from(spas).where(eq(spas.ownerId, user.id)).limit(2).all();
  if (owned.length === 1) return ok({ spaId: owned[0]!.id });
  return invalid({}, owned.length === 0 ? 'List your spa first: a paid plan upgrades an existing listing.' : 'Choose which of your spas to upgrade.', {
    code: 'spa_required',
  });
}

/**
 * Takes an Elite slot for the spa's city if one is free: active Elite spas
 * (other than this one) plus open holds (of other spas not already Elite)
 * must stay under 3. One synchronous IMMEDIATE transaction: SQLite lets one
 * writer in at a time, across processes too, so the count and the insert
 * cannot interleave with another checkout's.
 */
export function holdEliteSlot(spa: { id: number; cityId: number }, userId: number, now = new Date()): number | null {
  return db.transaction(
    () => {
      const active = db
        .select({ n: count() })
        .from(spas)
        .where(and(eq(spas.cityId, spa.cityId), eq(spas.tier, 'ELITE'), eq(spas.active, true), ne(spas.id, spa.id)))
        .get()!.n;
      const held = db
        .select({ n: count() })
        .from(checkoutHolds)
        .innerJoin(spas, eq(checkoutHolds.spaId, spas.id))
        .where(
          and(
            eq(checkoutHolds.cityId, spa.cityId),
            eq(checkoutHolds.tier, 'ELITE'),
            isNull(checkoutHolds.releasedAt),
            gt(checkoutHolds.expiresAt, now),
            ne(checkoutHolds.spaId, spa.id),
            or(ne(spas.tier, 'ELITE'), eq(spas.active, false)),
          ),
        )
        .get()!.n;
      if (eliteSlotsLeft(active, held) <= 0) return null;
      const expiresAt = new Date(now.getTime() + (CHECKOUT_SESSION_MINUTES + HOLD_GRACE_MINUTES) * 60_000);
      return db.insert(checkoutHolds).values({ cityId: spa.cityId, spaId: spa.id, userId, tier: 'ELITE', expiresAt }).returning({ id: checkoutHolds.id }).get()
        .id;
    },
    { behavior: 'immediate' },
  );
}

const releaseHoldById = (holdId: number) => db.update(checkoutHolds).set({ releasedAt: new Date() }).where(eq(checkoutHolds.id, holdId)).run();

async function customerFor(stripe: Stripe, user: SessionUser, spa: { stripeCustomerId: string | null }): Promise<string> {
  if (spa.stripeCustomerId) return spa.stripeCustomerId;
  const stored = db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, user.id)).get()?.customer;
  if (stored) return stored;
  const customer = await stripe.customers.create(
    { email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') || undefined, metadata: { user_id: String(user.id) } },
    { idempotencyKey: `user-${user.id}-customer` },
  );
  db.update(users)
    .set({ stripeCustomerId: customer.id, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)))
    .run();
  return db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, user.id)).get()?.customer ?? customer.id;
}

/** POST /api/stripe/checkout's logic: { tier, billing, spaId?, cityId?, spaData? } -> { url }. */
export async function startSubscriptionCheckout(
  user: SessionUser,
  body: unknown,
  stripe: Stripe,
  options: { origin: string; now?: Date; clientAddress?: string | null },
): Promise<Result<{ url: string }>> {
  const parsed = parseWith(checkoutRequestSchema, body);
  if (!parsed.ok) return parsed;
  const request = parsed.value;
  const tier: PaidTier = request.tier;
  const plan = findPlan(tier, request.billing);

  let priceId: string | null;
  try {
    priceId = await priceFor(stripe, plan);
  } catch (error) {
    return stripeUnavailable(error, 'price look-up');
  }
  if (!priceId) {
    console.error(`billing: no Stripe price with lookup key ${plan.lookupKey}; run npm run stripe:setup`);
    return unavailable('This plan is not available yet. Please try again later.', { code: 'plans_not_set_up' });
  }

  const target = spaForCheckout(user, request, options.clientAddress ?? null);
  if (!target.ok) return target;
  const spa = db.select().from(spas).where(eq(spas.id, target.value.spaId)).get();
  if (!spa) return notFound('Spa not found.');
  // A new listing awaiting review may be paid for: its plan puts it live (subscriptions.ts).
  if (!spa.active && spa.reviewStatus !== 'pending')
    return conflict('This listing is not active. Contact us to reactivate it first.', { code: 'spa_inactive' });
  const current = db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.spaId, spa.id), sql`${subscriptions.status} in ('active', 'past_due')`))
    .get();
  if (current) return conflict('This spa already has a plan. Change or cancel it from Manage billing.', { code: 'already_subscribed' });

  // A listing made for this checkout goes again when no checkout could open for it: a failed signup leaves nothing behind.
  const forget = () => {
    if (target.value.created) db.delete(spas).where(eq(spas.id, spa.id)).run();
  };
  const now = options.now ?? new Date();
  let holdId: number | null = null;
  if (tier === 'ELITE') {
    holdId = holdEliteSlot(spa, user.id, now);
    if (holdId === null) {
      forget();
      return conflict(ELITE_CAPACITY_MESSAGE, { code: 'elite_capacity' });
    }
  }

  let opened = false;
  try {
    const customer = await customerFor(stripe, user, spa);
    const metadata = { spa_id: String(spa.id), tier, billing: request.billing, user_id: String(user.id), ...(holdId ? { hold_id: String(holdId) } : {}) };
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: String(spa.id),
        line_items: [{ price: priceId, quantity: 1 }],
        metadata,
        subscription_data: { metadata: { spa_id: String(spa.id), tier, billing: request.billing } },
        success_url: `${options.origin}/owner/dashboard?subscription=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${options.origin}/subscription?spaId=${spa.id}&cityId=${spa.cityId}&canceled=1`,
        expires_at: Math.floor(now.getTime() / 1000) + CHECKOUT_SESSION_MINUTES * 60,
      },
      // One session per hold (Elite) or per spa, plan and minute (a double click).
      { idempotencyKey: holdId ? `checkout-hold-${holdId}` : `checkout-spa-${spa.id}-${plan.lookupKey}-${Math.floor(now.getTime() / 60_000)}` },
    );
    opened = true;
    if (holdId) db.update(checkoutHolds).set({ checkoutSessionId: session.id }).where(eq(checkoutHolds.id, holdId)).run();
    if (!session.url) throw new Error('Checkout session without a url');
    if (holdId) await expireOtherHolds(stripe, spa.id, holdId);
    return ok({ url: session.url });
  } catch (error) {
    if (holdId) releaseHoldById(holdId);
    if (!opened) forget();
    return stripeUnavailable(error, 'checkout session');
  }
}

/** A spa has one open Elite checkout at a time: older ones are expired at Stripe and their slots freed. */
async function expireOtherHolds(stripe: Stripe, spaId: number, keep: number): Promise<void> {
  const others = db
    .select()
    .from(checkoutHolds)
    .where(and(eq(checkoutHolds.spaId, spaId), isNull(checkoutHolds.releasedAt), ne(checkoutHolds.id, keep)))
    .all();
  for (const hold of others) {
    try {
      if (hold.checkoutSessionId) await stripe.checkout.sessions.expire(hold.checkoutSessionId);
      releaseHoldById(hold.id);
    } catch (error) {
      // Still open at Stripe (or already completed): keep holding until its webhook or expiry.
      console.warn(`billing: could not expire checkout ${hold.checkoutSessionId}:`, error instanceof Error ? error.message : error);
    }
  }
}

/** POST /api/stripe/portal's logic: the owner's Stripe customer portal. */
export async function openBillingPortal(user: SessionUser, body: unknown, stripe: Stripe, options: { origin: string }): Promise<Result<{ url: string }>> {
  const parsed = parseWith(z.object({ spaId: idSchema }), body);
  if (!parsed.ok) return parsed;
  const owner = ownerOf(user, parsed.value.spaId);
  if (!owner.ok) return owner;
  const spa = db.select({ customer: spas.stripeCustomerId }).from(spas).where(eq(spas.id, parsed.value.spaId)).get();
  if (!spa?.customer) return conflict('This spa has no paid plan yet.', { code: 'no_billing' });
  try {
    const session = await stripe.billingPortal.sessions.create({ customer: spa.customer, return_url: `${options.origin}/owner/dashboard` });
    return ok({ url: session.url });
  } catch (error) {
    return stripeUnavailable(error, 'billing portal');
  }
}
