// Paying for a service (/checkout): a PaymentIntent for the service's stored
// price, tied to the visitor's booking for that service. The browser's amount
// is only compared, never charged. The booking shows as paid only when
// Stripe's webhook says so (applyPaymentIntentEvent), never when the browser does.
//
// A booking has one current intent (bookings.stripe_payment_intent_id). When a
// new one replaces it (the price changed), the old one is cancelled at Stripe
// first; and a payment that still lands on an intent that is not current (it
// was confirmed before the cancel, or it is a second payment) never marks the
// booking paid: it is refunded in full, once, and the client is told (issue 23.5).
import { and, desc, eq, isNull, ne, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import * as z from 'zod';
import { idSchema, parseId } from '#lib/ids.ts';
import { bookingPayments, bookings, services, spas } from '#db/schema.ts';
import { decideCharge, idOf, isFullRefund, isReusableIntent, paymentStatusFromIntent, shouldApplyPaymentEvent } from '#lib/billing-rules.ts';
import { stripeUnavailable } from './billing.ts';
import { db } from '../db.ts';
import { conflict, notFound, ok, parseWith, type Result } from '#lib/result.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { randomToken } from '../auth/tokens.ts';

export const paymentIntentRequestSchema = z.object({
  serviceId: idSchema,
  // Dollars, as the spec's client sends it; compared with the stored price only.
  amount: z.unknown().optional(),
});

/** The booking a payment for this service belongs to: the user's open, unpaid one, else a new one. */
function bookingForPayment(user: SessionUser, service: { id: number; spaId: number }, amountCents: number) {
  return db.transaction((tx) => {
    const open = tx
      .select()
      .from(bookings)
      .where(
        and(
          eq(bookings.userId, user.id),
          eq(bookings.serviceId, service.id),
          eq(bookings.status, 'pending'),
          or(isNull(bookings.paymentStatus), ne(bookings.paymentStatus, 'paid')),
        ),
      )
      .orderBy(desc(bookings.id))
      .limit(1)
      .get();
    if (open) return open;
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    return tx
      .insert(bookings)
      .values({
        userId: user.id,
        serviceId: service.id,
        spaId: service.spaId,
        name,
        email: user.email,
        status: 'pending',
        paymentStatus: 'unpaid',
        paymentAmountCents: amountCents,
        manageToken: randomToken(20),
        message: 'Paid online at checkout.',
      })
      .returning()
      .get();
  });
}

/**
 * POST /api/create-payment-intent's logic: { serviceId, amount } -> { clientSecret }.
 * A double click makes one intent: both requests find the same booking and
 * ask Stripe with the same idempotency key.
 */
export async function createPaymentIntentFor(user: SessionUser, body: unknown, stripe: Stripe): Promise<Result<{ clientSecret: string }>> {
  const parsed = parseWith(paymentIntentRequestSchema, body);
  if (!parsed.ok) return parsed;

  const service = db
    .select({ id: services.id, name: services.name, priceCents: services.priceCents, spaId: services.spaId, spaName: spas.name })
    .from(services)
    .innerJoin(spas, eq(services.spaId, spas.id))
    .where(and(eq(services.id, parsed.value.serviceId), eq(services.active, true), eq(spas.active, true)))
    .get();
  if (!service) return notFound('Service not found.');

  const charge = decideCharge(service, parsed.value.amount);
  if (!charge.ok) return charge;
  const amountCents = charge.value;

  const booking = bookingForPayment(user, service, amountCents);
  let previous: Stripe.PaymentIntent | null = null;
  try {
    if (booking.stripePaymentIntentId) {
      previous = await stripe.paymentIntents.retrieve(booking.stripePaymentIntentId);
      if (previous.status === 'succeeded') return conflict('This booking is already paid.', { code: 'already_paid' });
      if (previous.status === 'processing')
        return conflict('A payment for this booking is being processed. Please wait a minute.', { code: 'payment_processing' });
      if (isReusableIntent(previous.status) && previous.amount === amountCents && previous.client_secret) {
        return ok({ clientSecret: previous.client_secret });
      }
      // Superseded (another price): cancelled before a new one exists, so at most one can still be paid.
      if (isReusableIntent(previous.status)) {
        const cancelled = await cancelSuperseded(stripe, previous.id);
        if (cancelled !== 'canceled') {
          return conflict(
            cancelled === 'succeeded' ? 'This booking is already paid.' : 'A payment for this booking is being processed. Please wait a minute.',
            { code: cancelled === 'succeeded' ? 'already_paid' : 'payment_processing' },
          );
        }
      }
    }
    const intent = await stripe.paymentIntents.create(
      {
        amount: amountCents,
        currency: 'usd',
        automatic_payment_methods: { enabled: true },
        description: `${service.name} at ${service.spaName}`,
        receipt_email: user.email,
        metadata: { booking_id: String(booking.id), service_id: String(service.id), user_id: String(user.id) },
      },
      // Same booking, same price, same predecessor: the same intent, however many clicks.
      { idempotencyKey: `booking-${booking.id}-pi-${amountCents}${previous ? `-after-${previous.id}` : ''}` },
    );
    // The new intent becomes current only over the one this call replaced: two calls at two prices cannot both win.
    const replaced = booking.stripePaymentIntentId;
    const made = db
      .update(bookings)
      .set({
        stripePaymentIntentId: intent.id,
        paymentAmountCents: amountCents,
        paymentStatus: booking.paymentStatus === 'failed' ? 'failed' : 'unpaid',
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(bookings.id, booking.id),
          replaced ? eq(bookings.stripePaymentIntentId, replaced) : isNull(bookings.stripePaymentIntentId),
          or(isNull(bookings.paymentStatus), ne(bookings.paymentStatus, 'paid')),
        ),
      )
      .run().changes;
    if (made === 0) {
      const current = db.select({ intent: bookings.stripePaymentIntentId }).from(bookings).where(eq(bookings.id, booking.id)).get()?.intent;
      // A double click made the same intent (same idempotency key): it is current, all is well. Anything else lost the race: withdraw it.
      if (current !== intent.id) {
        await cancelSuperseded(stripe, intent.id);
        return conflict('The payment form changed meanwhile. Reload the page to pay the current price.', { code: 'payment_changed' });
      }
    }
    if (!intent.client_secret) return stripeUnavailable(new Error('no client_secret'), 'payment intent');
    return ok({ clientSecret: intent.client_secret });
  } catch (error) {
    return stripeUnavailable(error, 'payment intent');
  }
}

/**
 * Cancels a superseded intent at Stripe; what it then is: canceled, or (the
 * client confirmed it meanwhile) succeeded or processing, which the caller
 * must not replace.
 */
async function cancelSuperseded(stripe: Stripe, intentId: string): Promise<string> {
  try {
    return (await stripe.paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' }, { idempotencyKey: `cancel-superseded-${intentId}` })).status;
  } catch (error) {
    // Stripe refuses to cancel an intent that has moved on: read where it went.
    const now = await stripe.paymentIntents.retrieve(intentId);
    if (now.status === 'canceled' || now.status === 'succeeded' || now.status === 'processing') return now.status;
    throw error;
  }
}

/** The booking a payment intent's events are about: the one it is current for, else the one its metadata names. */
function bookingOfIntent(intent: Pick<Stripe.PaymentIntent, 'id' | 'metadata'>) {
  const bookingId = parseId(intent.metadata?.booking_id);
  return db
    .select({
      id: bookings.id,
      paymentStatus: bookings.paymentStatus,
      paymentEventCreated: bookings.paymentEventCreated,
      paymentIntentId: bookings.stripePaymentIntentId,
    })
    .from(bookings)
    .where(bookingId !== null ? or(eq(bookings.stripePaymentIntentId, intent.id), eq(bookings.id, bookingId)) : eq(bookings.stripePaymentIntentId, intent.id))
    .orderBy(desc(eq(bookings.stripePaymentIntentId, intent.id)))
    .limit(1)
    .get();
}

/** A booking's payment (the /checkout kind, not a deposit or fee) that succeeded on an intent that is not the booking's current one. */
export function isSupersededPayment(intent: Stripe.PaymentIntent): boolean {
  if (intent.metadata?.purpose || paymentStatusFromIntent(intent.status) !== 'paid') return false;
  const booking = bookingOfIntent(intent);
  return Boolean(booking && booking.paymentIntentId !== intent.id);
}

/** Thrown inside the webhook's transaction when an intent stopped being current after the refund check: roll back, and let Stripe deliver again. */
export class SupersededMeanwhile extends Error {}

export const supersededRefundKey = (intentId: string) => `refund-superseded-${intentId}`;

/**
 * Refunds a superseded payment in full at Stripe (before the webhook's
 * transaction; the idempotency key makes a redelivery's second call answer
 * the first refund). The refund, to record with recordSupersededRefund.
 */
export async function refundSuperseded(stripe: Stripe, intent: Stripe.PaymentIntent): Promise<Stripe.Refund> {
  return stripe.refunds.create(
    { payment_intent: intent.id, reason: 'duplicate', metadata: { booking_id: intent.metadata?.booking_id ?? '', why: 'superseded' } },
    { idempotencyKey: supersededRefundKey(intent.id) },
  );
}

/** The refund in the ledger, once (inside the webhook's transaction); the booking it was for when this call recorded it. */
export function recordSupersededRefund(intent: Stripe.PaymentIntent, refund: Stripe.Refund, created: number): number | null {
  const booking = bookingOfIntent(intent);
  if (!booking) return null;
  const inserted = db
    .insert(bookingPayments)
    .values({
      bookingId: booking.id,
      kind: 'refund',
      amountCents: refund.amount || intent.amount_received || intent.amount,
      status: refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' ? 'failed' : 'pending',
      stripePaymentIntentId: intent.id,
      stripeRefundId: refund.id,
      idempotencyKey: supersededRefundKey(intent.id),
      reason: 'A payment on a superseded payment form (an older price, or a second payment): refunded automatically.',
      actorRole: 'system',
      eventCreated: created,
    })
    .onConflictDoNothing()
    .returning({ id: bookingPayments.id })
    .get();
  return inserted ? booking.id : null;
}

/** payment_intent.* webhooks: the booking's payment status, each event once, newest wins, paid is final; only the current intent counts. */
export function applyPaymentIntentEvent(intent: Stripe.PaymentIntent, created: number): 'applied' | 'ignored' | 'unknown' {
  const booking = bookingOfIntent(intent);
  if (!booking) return 'unknown';
  const status = paymentStatusFromIntent(intent.status);
  if (booking.paymentIntentId !== intent.id) {
    // A superseded intent never pays the booking. Its success was refunded before this transaction (webhooks.ts);
    // if it only stopped being current since, roll back so that the redelivery refunds it.
    if (status === 'paid') throw new SupersededMeanwhile(`intent ${intent.id} stopped being current for booking ${booking.id}`);
    return 'ignored';
  }
  if (!shouldApplyPaymentEvent({ status: booking.paymentStatus, eventCreated: booking.paymentEventCreated }, { status, created })) return 'ignored';
  db.update(bookings)
    .set({
      paymentStatus: status,
      paymentEventCreated: created,
      ...(status === 'paid' ? { paidAt: new Date(created * 1000), paymentAmountCents: intent.amount_received || intent.amount } : {}),
      updatedAt: new Date(),
    })
    .where(eq(bookings.id, booking.id))
    .run();
  return 'applied';
}

/**
 * charge.refunded: a paid booking whose charge was refunded in full becomes
 * `refunded` (final, even when it arrives before payment_intent.succeeded).
 * A partial refund changes nothing.
 */
export function applyChargeRefunded(charge: Stripe.Charge, created: number): { result: 'applied' | 'ignored' | 'unknown'; bookingId?: number } {
  const intentId = idOf(charge.payment_intent);
  if (!intentId) return { result: 'unknown' };
  const booking = db
    .select({ id: bookings.id, paymentStatus: bookings.paymentStatus })
    .from(bookings)
    .where(eq(bookings.stripePaymentIntentId, intentId))
    .get();
  if (!booking) return { result: 'unknown' };
  if (!isFullRefund(charge) || booking.paymentStatus === 'refunded') return { result: 'ignored', bookingId: booking.id };
  // A refunded charge was paid first, whether or not "succeeded" has arrived yet: refunded is final either way.
  db.update(bookings).set({ paymentStatus: 'refunded', paymentEventCreated: created, updatedAt: new Date() }).where(eq(bookings.id, booking.id)).run();
  return { result: 'applied', bookingId: booking.id };
}
