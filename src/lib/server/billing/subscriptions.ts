// Listing subscriptions as Stripe reports them (webhooks): the subscriptions
// row mirrors the Stripe subscription object's state (not deltas), older
// events are ignored, and the spa's tier follows from its subscriptions. Every
// tier change is a spas UPDATE, so the content-version triggers mark the
// published site as older than the data and a rebuild follows.
//
// The tier is the subscription's current price (issue 23.4): a plan switched
// in Stripe's portal changes it on the next event. Elite stays capped at 3 per
// city whichever way it is bought: a switch to Elite in a full city leaves the
// spa at the tier it had (the check runs inside the webhook's IMMEDIATE
// transaction, with open checkouts counted, so two switches at once cannot
// both take the last slot), and the webhook then puts the plan back at Stripe.
import { parseId } from '#lib/ids.ts';
import { and, count, eq, gt, isNull, ne, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import { checkoutHolds, spas, subscriptions, type SubscriptionStatus, type Tier } from '#db/schema.ts';
import {
  eliteSlotsLeft,
  idOf,
  parseBilling,
  parsePaidTier,
  planByLookupKey,
  shouldApplySubscriptionEvent,
  subscriptionStatusFromStripe,
  tierForSubscription,
  type PaidTier,
} from '#lib/billing-rules.ts';
import { tierWeight } from '#lib/tiers.ts';
import { db } from '../db.ts';

const ms = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

/**
 * What the subscription is for: its current price's plan (a switch in the
 * portal changes the price, never the metadata written at checkout); the
 * metadata only for a price we do not know.
 */
export function planOf(sub: Stripe.Subscription, hint?: { spaId?: number; tier?: PaidTier }) {
  const item = sub.items?.data?.[0];
  const plan = planByLookupKey(item?.price?.lookup_key);
  const tier = plan?.tier ?? parsePaidTier(sub.metadata?.tier) ?? hint?.tier ?? null;
  const billing = plan?.billing ?? parseBilling(sub.metadata?.billing) ?? null;
  return { spaId: parseId(sub.metadata?.spa_id ?? hint?.spaId), tier, billing, item };
}

export type ApplyResult = 'applied' | 'ignored' | 'unknown';

/**
 * Stores the subscription's state as of an event created at `created` (epoch
 * seconds) and sets the spa's tier from it. Call inside the webhook's transaction.
 */
export function applySubscriptionState(sub: Stripe.Subscription, created: number, hint?: { spaId?: number; tier?: PaidTier }): ApplyResult {
  const { spaId, tier, billing, item } = planOf(sub, hint);
  const existing = db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, sub.id)).get();
  const status = subscriptionStatusFromStripe(sub.status);
  const rowSpaId = existing?.spaId ?? spaId;
  const rowTier = tier ?? existing?.tier ?? null;
  if (!rowSpaId || !rowTier) return 'unknown';
  if (!db.select({ id: spas.id }).from(spas).where(eq(spas.id, rowSpaId)).get()) return 'unknown';
  if (!shouldApplySubscriptionEvent(existing ? { status: existing.status, lastEventCreated: existing.lastEventCreated } : null, { status, created }))
    return 'ignored';

  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  const values = {
    spaId: rowSpaId,
    stripeCustomerId: idOf(sub.customer) ?? existing?.stripeCustomerId ?? '',
    tier: rowTier,
    status,
    billing: billing ?? existing?.billing ?? null,
    currentPeriodStart: ms(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: ms(item?.current_period_end ?? legacy.current_period_end),
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    canceledAt: ms(sub.canceled_at),
    trialStart: ms(sub.trial_start),
    trialEnd: ms(sub.trial_end),
    lastEventCreated: Math.max(created, existing?.lastEventCreated ?? 0),
    updatedAt: new Date(),
  };
  if (existing) db.update(subscriptions).set(values).where(eq(subscriptions.id, existing.id)).run();
  else
    db.insert(subscriptions)
      .values({ ...values, stripeSubscriptionId: sub.id })
      .run();
  syncSpaTier(rowSpaId);
  return 'applied';
}

/** invoice.payment_failed: the subscription is past due (unless a newer event said otherwise). */
export function markPastDue(subscriptionId: string, created: number): ApplyResult {
  const existing = db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, subscriptionId)).get();
  if (!existing) return 'unknown';
  if (!shouldApplySubscriptionEvent({ status: existing.status, lastEventCreated: existing.lastEventCreated }, { status: 'past_due', created }))
    return 'ignored';
  db.update(subscriptions).set({ status: 'past_due', lastEventCreated: created, updatedAt: new Date() }).where(eq(subscriptions.id, existing.id)).run();
  syncSpaTier(existing.spaId);
  return 'applied';
}

/**
 * The spa's tier is the best its subscriptions grant (FREE when none does);
 * the listing itself always stays, and one awaiting review goes live with it. Only a real change writes the row, so only
 * a real change bumps the content version.
 */
export function syncSpaTier(spaId: number): void {
  const subs = db.select().from(subscriptions).where(eq(subscriptions.spaId, spaId)).all();
  let best: { tier: Tier; sub: (typeof subs)[number] | null } = { tier: 'FREE', sub: null };
  for (const sub of subs) {
    const tier = tierForSubscription(sub.tier, sub.status);
    if (tierWeight(tier) > tierWeight(best.tier) || (tier === best.tier && best.sub && sub.lastEventCreated > best.sub.lastEventCreated)) best = { tier, sub };
  }
  const spa = db.select().from(spas).where(eq(spas.id, spaId)).get();
  if (!spa) return;
  // A spa that is not Elite yet takes a slot only when one is free (active Elite elsewhere plus others' open checkouts).
  if (best.tier === 'ELITE' && !(spa.tier === 'ELITE' && spa.active) && !eliteSlotFreeFor(spa)) {
    console.warn(`billing: spa ${spaId} switched to ELITE but its city is full; it keeps a paid tier below Elite and the plan is put back.`);
    best = { tier: best.sub && tierForSubscription('PREMIUM', best.sub.status) === 'PREMIUM' ? 'PREMIUM' : 'FREE', sub: best.sub };
  }
  // Shown on the spa: the granting subscription, else the newest one.
  const shown = best.sub ?? subs.sort((a, b) => b.lastEventCreated - a.lastEventCreated)[0] ?? null;
  // A new listing awaiting review goes live with its first paid plan (listings/pending.ts).
  const goesLive = spa.reviewStatus === 'pending' && best.tier !== 'FREE';
  const next = {
    tier: best.tier,
    stripeSubscriptionId: shown?.stripeSubscriptionId ?? null,
    stripeCustomerId: shown?.stripeCustomerId ?? spa.stripeCustomerId,
    subscriptionStatus: (shown?.status ?? null) as SubscriptionStatus | null,
    ...(goesLive ? { active: true, reviewStatus: 'approved' as const } : {}),
  };
  if (
    !goesLive &&
    spa.tier === next.tier &&
    spa.stripeSubscriptionId === next.stripeSubscriptionId &&
    spa.stripeCustomerId === next.stripeCustomerId &&
    spa.subscriptionStatus === next.subscriptionStatus
  ) {
    return;
  }
  try {
    db.update(spas)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(spas.id, spaId))
      .run();
  } catch (error) {
    // The Elite cap trigger: only possible if an editor made another spa Elite
    // while this checkout held its slot. Keep the record, keep the old tier,
    // and say loudly that a person must refund or move the spa.
    if (error instanceof Error && /Elite tier is at capacity/.test(error.message)) {
      console.error(`billing: spa ${spaId} paid for ELITE but its city is full; tier left at ${spa.tier}. Refund or resolve by hand.`);
      db.update(spas)
        .set({ ...next, tier: spa.tier, active: spa.active, reviewStatus: spa.reviewStatus, updatedAt: new Date() })
        .where(eq(spas.id, spaId))
        .run();
      return;
    }
    throw error;
  }
}

/**
 * Whether the spa's city has an Elite slot for it: active Elite spas and other
 * spas' open Elite checkouts leave one (the cap of 3 per city). Checkout asks
 * it inside its immediate transaction; a plan switch asks it on the webhook.
 */
export function eliteSlotFreeFor(spa: { id: number; cityId: number }, now = new Date()): boolean {
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
  return eliteSlotsLeft(active, held) > 0;
}

/**
 * A subscription that pays for Elite while its spa is not Elite: the city was
 * full when the switch arrived. Read after the webhook's transaction, so
 * whatever event brought it there, the plan is put back (see webhooks.ts).
 */
export function cappedEliteSubscription(stripeSubscriptionId: string) {
  const row = db
    .select({ sub: subscriptions, spaTier: spas.tier, spaName: spas.name, cityId: spas.cityId })
    .from(subscriptions)
    .innerJoin(spas, eq(subscriptions.spaId, spas.id))
    .where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId))
    .get();
  if (!row || row.sub.tier !== 'ELITE' || tierForSubscription('ELITE', row.sub.status) !== 'ELITE' || row.spaTier === 'ELITE') return null;
  return row;
}

/** A checkout is over (completed or expired): its Elite slot is no longer held. */
export function releaseHold(checkoutSessionId: string, now = new Date()): void {
  db.update(checkoutHolds)
    .set({ releasedAt: now })
    .where(and(eq(checkoutHolds.checkoutSessionId, checkoutSessionId), isNull(checkoutHolds.releasedAt)))
    .run();
}
