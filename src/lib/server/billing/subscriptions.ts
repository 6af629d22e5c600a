// Listing subscriptions as Stripe reports them (webhooks): the subscriptions
// row mirrors the Stripe subscription object's state (not deltas), older
// events are ignored, and the spa's tier follows from its subscriptions. Every
// tier change is a spas UPDATE, so the content-version triggers mark the
// published site as older than the data and a rebuild follows.
import { parseId } from '#lib/ids.ts';
import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { checkoutHolds, spas, subscriptions, type SubscriptionStatus, type Tier } from '#db/schema.ts';
import {
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

/** What the subscription is for: its metadata (set at checkout), else its price's lookup key. */
function planOf(sub: Stripe.Subscription, hint?: { spaId?: number; tier?: PaidTier }) {
  const item = sub.items?.data?.[0];
  const plan = planByLookupKey(item?.price?.lookup_key);
  const tier = parsePaidTier(sub.metadata?.tier) ?? hint?.tier ?? plan?.tier ?? null;
  const billing = parseBilling(sub.metadata?.billing) ?? plan?.billing ?? null;
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
  const rowTier = existing?.tier ?? tier;
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
  // Shown on the spa: the granting subscription, else the newest one.
  const shown = best.sub ?? subs.sort((a, b) => b.lastEventCreated - a.lastEventCreated)[0] ?? null;
  const spa = db.select().from(spas).where(eq(spas.id, spaId)).get();
  if (!spa) return;
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

/** A checkout is over (completed or expired): its Elite slot is no longer held. */
export function releaseHold(checkoutSessionId: string, now = new Date()): void {
  db.update(checkoutHolds)
    .set({ releasedAt: now })
    .where(and(eq(checkoutHolds.checkoutSessionId, checkoutSessionId), isNull(checkoutHolds.releasedAt)))
    .run();
}
