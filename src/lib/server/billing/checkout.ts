// Premium and Elite subscriptions through Stripe Checkout (POST
// /api/stripe/checkout) and the customer portal. Prices are found by lookup
// key (scripts/stripe-setup.ts creates them). Elite is capped at 3 active per
// city including open checkouts: each open Elite checkout holds a slot
// (checkout_holds) taken inside one SQLite write transaction, so however many
// owners press the button at once, no more checkouts open than there are
// slots and a fourth payment can never be taken.
//
// A hold is scarce, so it is not free to take (issue 23.3): only a live,
// approved listing may hold one; a listing that already holds one gets the
// same checkout back (its time is not renewed); an account holds one at a
// time and a few a day (ELITE_HOLD_LIMITS); the endpoint is rate-limited; and
// an abandoned checkout gives its slot back at once (the cancel link expires
// the session at Stripe, releaseAbandonedCheckout).
import { and, count, eq, gt, gte, isNotNull, isNull, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import * as z from 'zod';
import { idSchema } from '#lib/ids.ts';
import { checkoutHolds, spas, subscriptions, users } from '#db/schema.ts';
import {
  CHECKOUT_LIMITS,
  CHECKOUT_SESSION_MINUTES,
  ELITE_CAPACITY_MESSAGE,
  ELITE_HOLD_LIMITS,
  ELITE_NEEDS_APPROVAL_MESSAGE,
  findPlan,
  HOLD_GRACE_MINUTES,
  parseBilling,
  parsePaidTier,
  type PaidTier,
  type Plan,
} from '#lib/billing-rules.ts';
import { listingDataSchema } from '#lib/owner-signup-schema.ts';
import { conflict, invalid, notFound, ok, parseWith, rateLimited, unavailable, type Refusal, type Result } from '#lib/result.ts';
import { ownerOf } from '../auth/auth.ts';
import { stripeUnavailable } from './billing.ts';
import { eliteSlotFreeFor } from './subscriptions.ts';
import { db } from '../db.ts';
import { createPendingListing } from '../listings/pending.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { hashToken, randomToken, tokenMatchesHash } from '../auth/tokens.ts';
import { hashClientAddress } from '../client-address.ts';
import { hitAll, type Limit } from '../rate-limit.ts';

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

/** What taking a hold came to: a new hold (with its cancel link's secret), the listing's open one, or a refusal. */
export type HoldOutcome =
  | { kind: 'new'; holdId: number; releaseToken: string }
  | { kind: 'open'; holdId: number; checkoutSessionId: string | null }
  | { kind: 'refused'; refusal: Refusal };

const HOUR_MS = 3_600_000;

/**
 * Takes an Elite slot for the spa's city if one is free: active Elite spas
 * (other than this one) plus open holds (of other spas not already Elite)
 * must stay under 3. The listing's own open hold is answered as it is (never
 * renewed); the account may hold one slot at a time and start only a few
 * holds a day, the listing fewer. One synchronous IMMEDIATE transaction:
 * SQLite lets one writer in at a time, across processes too, so the counts
 * and the insert cannot interleave with another checkout's.
 */
export function holdEliteSlot(spa: { id: number; cityId: number }, userId: number, now = new Date()): HoldOutcome {
  return db.transaction(
    (): HoldOutcome => {
      const open = and(isNull(checkoutHolds.releasedAt), gt(checkoutHolds.expiresAt, now));
      const own = db
        .select({ id: checkoutHolds.id, checkoutSessionId: checkoutHolds.checkoutSessionId })
        .from(checkoutHolds)
        .where(and(eq(checkoutHolds.spaId, spa.id), open))
        .get();
      if (own) return { kind: 'open', holdId: own.id, checkoutSessionId: own.checkoutSessionId };

      const elsewhere = db
        .select({ spaName: spas.name })
        .from(checkoutHolds)
        .innerJoin(spas, eq(checkoutHolds.spaId, spas.id))
        .where(and(eq(checkoutHolds.userId, userId), open))
        .get();
      if (elsewhere) {
        return {
          kind: 'refused',
          refusal: conflict(
            `You already have an Elite checkout open for ${elsewhere.spaName}. Finish it, or go back from Stripe's page to cancel it, before starting another.`,
            { code: 'elite_hold_open' },
          ),
        };
      }
      const since = new Date(now.getTime() - 24 * HOUR_MS);
      const startedBy = (where: ReturnType<typeof eq>) =>
        db
          .select({ n: count(), first: sql<number>`min(${checkoutHolds.createdAt})` })
          .from(checkoutHolds)
          // Holds that reached Stripe: a failure at Stripe's end spends nobody's allowance.
          .where(and(where, gte(checkoutHolds.createdAt, since), isNotNull(checkoutHolds.checkoutSessionId)))
          .get()!;
      for (const [started, limit] of [
        [startedBy(eq(checkoutHolds.spaId, spa.id)), ELITE_HOLD_LIMITS.perListingPerDay],
        [startedBy(eq(checkoutHolds.userId, userId)), ELITE_HOLD_LIMITS.perAccountPerDay],
      ] as const) {
        if (started.n >= limit) {
          const retryAfter = Math.max(1, Math.ceil((Number(started.first) + 24 * HOUR_MS - now.getTime()) / 1000));
          return {
            kind: 'refused',
            refusal: rateLimited(retryAfter, 'Too many Elite checkouts were started for this listing or account today. Please try again tomorrow.', {
              code: 'elite_hold_limit',
            }),
          };
        }
      }

      if (!eliteSlotFreeFor(spa, now)) return { kind: 'refused', refusal: conflict(ELITE_CAPACITY_MESSAGE, { code: 'elite_capacity' }) };
      const expiresAt = new Date(now.getTime() + (CHECKOUT_SESSION_MINUTES + HOLD_GRACE_MINUTES) * 60_000);
      const releaseToken = randomToken(20);
      const holdId = db
        .insert(checkoutHolds)
        .values({ cityId: spa.cityId, spaId: spa.id, userId, tier: 'ELITE', expiresAt, releaseTokenHash: hashToken(releaseToken), createdAt: now })
        .returning({ id: checkoutHolds.id })
        .get().id;
      return { kind: 'new', holdId, releaseToken };
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
  const now = options.now ?? new Date();
  const limit = allowCheckout(user, options.clientAddress ?? null, now.getTime());
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds, 'Too many checkouts started. Please try again later.');
  const parsed = parseWith(checkoutRequestSchema, body);
  if (!parsed.ok) return parsed;
  const request = parsed.value;
  const tier: PaidTier = request.tier;
  const plan = findPlan(tier, request.billing);
  // A listing made at signup awaits review: Elite's scarce slots are for live, approved listings (issue 23.3).
  if (tier === 'ELITE' && request.spaData && !request.spaId) return conflict(ELITE_NEEDS_APPROVAL_MESSAGE, { code: 'elite_needs_approval' });

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
  // A new listing awaiting review may be paid for with Premium: its plan puts it live (subscriptions.ts). Elite waits for the review.
  if (tier === 'ELITE' && (spa.reviewStatus !== 'approved' || !spa.active)) {
    return conflict(spa.reviewStatus === 'approved' ? 'This listing is not active. Contact us to reactivate it first.' : ELITE_NEEDS_APPROVAL_MESSAGE, {
      code: spa.reviewStatus === 'approved' ? 'spa_inactive' : 'elite_needs_approval',
    });
  }
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
  let holdId: number | null = null;
  let releaseToken: string | null = null;
  if (tier === 'ELITE') {
    const hold = holdEliteSlot(spa, user.id, now);
    if (hold.kind === 'refused') {
      forget();
      return hold.refusal;
    }
    // The listing's checkout is already open: the same one again, its time unchanged.
    if (hold.kind === 'open') return reopenHeldCheckout(stripe, hold);
    holdId = hold.holdId;
    releaseToken = hold.releaseToken;
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
        // Coming back from Stripe without paying ends an Elite checkout at once: its link carries the hold's secret.
        cancel_url: `${options.origin}/subscription?spaId=${spa.id}&cityId=${spa.cityId}&canceled=1${holdId ? `&release=${holdId}.${releaseToken}` : ''}`,
        expires_at: Math.floor(now.getTime() / 1000) + CHECKOUT_SESSION_MINUTES * 60,
      },
      // One session per hold (Elite) or per spa, plan and minute (a double click).
      { idempotencyKey: holdId ? `checkout-hold-${holdId}` : `checkout-spa-${spa.id}-${plan.lookupKey}-${Math.floor(now.getTime() / 60_000)}` },
    );
    opened = true;
    if (holdId) db.update(checkoutHolds).set({ checkoutSessionId: session.id }).where(eq(checkoutHolds.id, holdId)).run();
    if (!session.url) throw new Error('Checkout session without a url');
    return ok({ url: session.url });
  } catch (error) {
    if (holdId) releaseHoldById(holdId);
    if (!opened) forget();
    return stripeUnavailable(error, 'checkout session');
  }
}

/** Checkouts started per hour, whatever the plan: per account, and per client address (kept only as a keyed hash). */
function allowCheckout(user: SessionUser, clientAddress: string | null, now: number) {
  const limits: Limit[] = [{ key: `checkout:user:${user.id}`, limit: CHECKOUT_LIMITS.perAccount, windowMs: HOUR_MS }];
  if (clientAddress) limits.push({ key: `checkout:client:${hashClientAddress(clientAddress)}`, limit: CHECKOUT_LIMITS.perClient, windowMs: HOUR_MS });
  return hitAll(limits, now);
}

/** The listing's open Elite checkout, answered again as it is; one that Stripe no longer has open gives its slot back. */
async function reopenHeldCheckout(stripe: Stripe, hold: { holdId: number; checkoutSessionId: string | null }): Promise<Result<{ url: string }>> {
  const busy = conflict('An Elite checkout for this listing is being opened. Please try again in a minute.', { code: 'elite_hold_open' });
  if (!hold.checkoutSessionId) return busy;
  try {
    const session = await stripe.checkout.sessions.retrieve(hold.checkoutSessionId);
    if (session.status === 'open' && session.url) return ok({ url: session.url });
    if (session.status === 'expired') releaseHoldById(hold.holdId);
    return session.status === 'complete'
      ? conflict('This spa already has a plan. Change or cancel it from Manage billing.', { code: 'already_subscribed' })
      : busy;
  } catch (error) {
    return stripeUnavailable(error, 'checkout session look-up');
  }
}

/**
 * The owner came back from Stripe's page without paying (the checkout's
 * cancel link, `release` = "<hold id>.<secret>"): the session is expired at
 * Stripe, so it can no longer be paid, and the slot is free at once. A
 * completed or unknown checkout is left alone. True when a slot was freed.
 */
export async function releaseAbandonedCheckout(release: string | null, stripe: Stripe, now = new Date()): Promise<boolean> {
  const match = /^(\d{1,12})\.([a-z2-7]{32})$/.exec(release ?? '');
  if (!match) return false;
  const hold = db
    .select()
    .from(checkoutHolds)
    .where(eq(checkoutHolds.id, Number(match[1])))
    .get();
  if (!hold?.releaseTokenHash || !tokenMatchesHash(match[2]!, hold.releaseTokenHash) || hold.releasedAt) return false;
  if (hold.checkoutSessionId) {
    try {
      const session = await stripe.checkout.sessions.retrieve(hold.checkoutSessionId);
      if (session.status === 'complete') return false;
      if (session.status === 'open') await stripe.checkout.sessions.expire(hold.checkoutSessionId);
    } catch (error) {
      // Still open at Stripe as far as we know: keep holding until its webhook or expiry.
      console.warn(`billing: could not expire checkout ${hold.checkoutSessionId}:`, error instanceof Error ? error.message : error);
      return false;
    }
  }
  return (
    db
      .update(checkoutHolds)
      .set({ releasedAt: now })
      .where(and(eq(checkoutHolds.id, hold.id), isNull(checkoutHolds.releasedAt)))
      .run().changes === 1
  );
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
