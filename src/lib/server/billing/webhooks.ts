// POST /api/stripe/webhook's logic. The signature is checked on the raw body
// (a bad or missing one is refused as malformed, coded invalid_signature, and
// nothing changes). Each event id is stored in
// the same transaction as its effect, so a redelivery takes effect once; a
// failure rolls both back and Stripe delivers again. Stripe sends in no
// particular order: state comes from the objects themselves and older events
// for the same object are ignored (billing-rules.ts).
import { parseId } from '#lib/ids.ts';
import type Stripe from 'stripe';
import { stripeEvents } from '#db/schema.ts';
import { idOf, parsePaidTier } from '#lib/billing-rules.ts';
import {
  applyChargeRefunded,
  applyPaymentIntentEvent,
  isSupersededPayment,
  recordSupersededRefund,
  refundSuperseded,
  SupersededMeanwhile,
} from './payments.ts';
import { eliteSwitchUndoneMail, supersededRefundMail } from './money-mail.ts';
import { announceSecured, applyDepositEvent, applySetupIntentEvent, isUnwantedDeposit, refundDepositAtStripe, type SecureOutcome } from './protection.ts';
import { applyFeeEvent, applyRefundEvent, feeReceiptFor } from './fees.ts';
import { bookingPaidMail, bookingRefundedMail } from '../bookings/booking-mail.ts';
import { bookingDetails } from '../bookings/bookings.ts';
import { malformed, ok, type Result } from '#lib/result.ts';
import { publicOrigin } from '../http.ts';
import { sendMailInBackground } from '../mail/mail.ts';
import { applySubscriptionState, cappedEliteSubscription, markPastDue, releaseHold, type ApplyResult } from './subscriptions.ts';
import { db } from '../db.ts';
import { bookings, spas, users } from '#db/schema.ts';
import { eq } from 'drizzle-orm';
import { findPlan, planByLookupKey } from '#lib/billing-rules.ts';
import { priceFor } from './checkout.ts';

/** What became of a delivery whose signature held: seen before, or what applying it did. */
export type WebhookReceipt = { duplicate: true } | { result: ApplyResult | 'skipped' };

/** The subscription an invoice belongs to (newer API versions put it under parent). */
function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy ?? null);
}

export async function handleStripeWebhook(
  payload: string,
  signature: string | null,
  options: { secret: string | null; stripe: Stripe; origin?: string },
): Promise<Result<WebhookReceipt, 'malformed'>> {
  const refuse = (message: string) => malformed(message, { code: 'invalid_signature' });
  if (!options.secret) return refuse('Webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
  if (!signature) return refuse('Missing Stripe-Signature header.');
  let event: Stripe.Event;
  try {
    event = options.stripe.webhooks.constructEvent(payload, signature, options.secret);
  } catch {
    return refuse('The signature does not match the body.');
  }

  if (db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).get()) {
    return ok({ duplicate: true });
  }

  // Anything that needs Stripe is fetched (or done) before the transaction (which must stay synchronous).
  let fetched: Stripe.Subscription | null = null;
  let refund: Stripe.Refund | null = null;
  if (event.type === 'payment_intent.succeeded' && isSupersededPayment(event.data.object)) {
    // Never a booking's payment: refunded in full (once: the idempotency key), then recorded below.
    refund = await refundSuperseded(options.stripe, event.data.object);
  } else if (event.type === 'payment_intent.succeeded' && isUnwantedDeposit(event.data.object)) {
    // A deposit for a booking that was cancelled or left unfinished: it goes back (the deposit's one refund key).
    const intent = event.data.object;
    refund = await refundDepositAtStripe(options.stripe, Number(intent.metadata.booking_id), intent.id, intent.amount_received || intent.amount, 'not wanted');
  }
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    const session = event.data.object;
    const subscriptionId = idOf(session.subscription);
    if (session.mode === 'subscription' && subscriptionId) fetched = await options.stripe.subscriptions.retrieve(subscriptionId);
  } else if (event.type === 'invoice.payment_failed') {
    const subscriptionId = invoiceSubscriptionId(event.data.object);
    if (subscriptionId && !hasSubscription(subscriptionId)) fetched = await options.stripe.subscriptions.retrieve(subscriptionId).catch(() => null);
  }

  let refundedBooking: number | null = null;
  // What the card step's and the fees' events did, for the mails after the commit.
  const money: { secure: SecureOutcome | null; feePaid: number | null } = { secure: null, feePaid: null };
  let outcome: ApplyResult | 'skipped' | 'duplicate';
  try {
    // IMMEDIATE: the Elite cap's count and the tier's write must not interleave with another delivery's (two portal switches at once).
    outcome = db.transaction(
      () => {
        const inserted = db.insert(stripeEvents).values({ id: event.id, type: event.type, created: event.created }).onConflictDoNothing().returning().get();
        if (!inserted) return 'duplicate' as const;
        const purpose = event.type.startsWith('payment_intent.') ? (event.data.object as Stripe.PaymentIntent).metadata?.purpose : undefined;
        if (purpose === 'deposit') {
          money.secure = applyDepositEvent(event.data.object as Stripe.PaymentIntent, event.created, refund);
          return money.secure.result;
        }
        if (purpose === 'fee') {
          const applied = applyFeeEvent(event.data.object as Stripe.PaymentIntent, event.created);
          money.feePaid = applied.paid ?? null;
          return applied.result;
        }
        if (event.type === 'setup_intent.succeeded' || event.type === 'setup_intent.setup_failed') {
          money.secure = applySetupIntentEvent(event.data.object, event.type);
          return money.secure.result;
        }
        if (event.type === 'refund.created' || event.type === 'refund.updated' || event.type === 'charge.refund.updated') {
          return applyRefundEvent(event.data.object, event.created);
        }
        if (refund && event.type === 'payment_intent.succeeded') {
          refundedBooking = recordSupersededRefund(event.data.object, refund, event.created);
          return 'applied';
        }
        return apply(event, fetched);
      },
      { behavior: 'immediate' },
    );
  } catch (error) {
    if (error instanceof SupersededMeanwhile) console.warn(`billing: ${error.message}; Stripe will deliver ${event.id} again and it is refunded then.`);
    throw error;
  }
  if (outcome === 'duplicate') return ok({ duplicate: true });
  const origin = options.origin ?? publicOrigin;
  if (refundedBooking !== null && refund) {
    const details = bookingDetails(refundedBooking);
    if (details) sendMailInBackground(supersededRefundMail(details, (refund as Stripe.Refund).amount, origin));
  }
  if (outcome === 'applied') announce(event, origin);
  if (money.secure) announceSecured(money.secure, origin);
  if (money.feePaid !== null) feeReceiptFor(money.feePaid, origin);
  await undoCappedElite(event, options.stripe, origin);
  return ok({ result: outcome });
}

/**
 * A subscription that now pays for Elite in a city whose 3 places are taken
 * (a switch in Stripe's portal) kept its spa's tier in the transaction; here
 * the plan is put back on Premium at Stripe, with a credit for the switch,
 * and the owner is told. Keyed by the event, so a redelivery does it once.
 */
async function undoCappedElite(event: Stripe.Event, stripe: Stripe, origin: string): Promise<void> {
  const subscriptionId = event.type.startsWith('customer.subscription.')
    ? (event.data.object as Stripe.Subscription).id
    : event.type === 'checkout.session.completed'
      ? idOf((event.data.object as Stripe.Checkout.Session).subscription)
      : null;
  const capped = subscriptionId ? cappedEliteSubscription(subscriptionId) : null;
  if (!capped || !subscriptionId) return;
  try {
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    const item = sub.items.data[0];
    const plan = planByLookupKey(item?.price?.lookup_key);
    if (!item || plan?.tier !== 'ELITE') return;
    const premium = await priceFor(stripe, findPlan('PREMIUM', plan.billing));
    if (!premium) throw new Error('no Premium price (npm run stripe:setup)');
    await stripe.subscriptions.update(
      subscriptionId,
      { items: [{ id: item.id, price: premium }], proration_behavior: 'create_prorations', metadata: { ...sub.metadata, tier: 'PREMIUM' } },
      { idempotencyKey: `elite-cap-undo-${event.id}` },
    );
    const owner = db.select({ email: users.email }).from(spas).innerJoin(users, eq(spas.ownerId, users.id)).where(eq(spas.id, capped.sub.spaId)).get();
    if (owner) sendMailInBackground(eliteSwitchUndoneMail(owner.email, capped.spaName, origin));
  } catch (error) {
    console.error(`billing: subscription ${subscriptionId} pays for ELITE in a full city and could not be put back; do it by hand.`, error);
  }
}

/**
 * Mail about a change that has just committed (never inside the transaction):
 * the spa hears of a paid booking, the client of a refund. The event took
 * effect once, so each mail is queued once.
 */
function announce(event: Stripe.Event, origin: string): void {
  if (event.type === 'payment_intent.succeeded') {
    const booking = db
      .select({ id: bookings.id, status: bookings.paymentStatus })
      .from(bookings)
      .where(eq(bookings.stripePaymentIntentId, event.data.object.id))
      .get();
    const details = booking?.status === 'paid' ? bookingDetails(booking.id) : null;
    if (details) sendMailInBackground(bookingPaidMail(details, origin));
  } else if (event.type === 'charge.refunded') {
    const intentId = idOf(event.data.object.payment_intent);
    const booking = intentId
      ? db.select({ id: bookings.id, status: bookings.paymentStatus }).from(bookings).where(eq(bookings.stripePaymentIntentId, intentId)).get()
      : null;
    const details = booking?.status === 'refunded' ? bookingDetails(booking.id) : null;
    if (details) sendMailInBackground(bookingRefundedMail(details, origin));
  }
}

function hasSubscription(stripeSubscriptionId: string): boolean {
  return Boolean(db.$client.prepare('select 1 from subscriptions where stripe_subscription_id = ?').get(stripeSubscriptionId));
}

function apply(event: Stripe.Event, fetched: Stripe.Subscription | null): ApplyResult | 'skipped' {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.processing':
    case 'payment_intent.canceled':
      return applyPaymentIntentEvent(event.data.object, event.created);
    case 'charge.refunded':
      return applyChargeRefunded(event.data.object, event.created).result;
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      releaseHold(session.id);
      if (!fetched) return 'skipped';
      const spaId = parseId(session.metadata?.spa_id ?? session.client_reference_id);
      return applySubscriptionState(fetched, event.created, { spaId: spaId ?? undefined, tier: parsePaidTier(session.metadata?.tier) ?? undefined });
    }
    case 'checkout.session.expired':
      releaseHold(event.data.object.id);
      return 'applied';
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
      return applySubscriptionState(event.data.object, event.created);
    case 'invoice.payment_failed': {
      const subscriptionId = invoiceSubscriptionId(event.data.object);
      if (!subscriptionId) return 'skipped';
      const result = markPastDue(subscriptionId, event.created);
      return result === 'unknown' && fetched ? applySubscriptionState(fetched, event.created) : result;
    }
    default:
      return 'skipped';
  }
}
