// Paying for a service (/checkout): a PaymentIntent for the service's stored
// price, tied to the visitor's booking for that service. The browser's amount
// is only compared, never charged. The booking shows as paid only when
// Stripe's webhook says so (applyPaymentIntentEvent), never when the browser does.
import { and, desc, eq, isNull, ne, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import * as z from 'zod';
import { idSchema, parseId } from '#lib/ids.ts';
import { bookings, services, spas } from '#db/schema.ts';
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
      if (isReusableIntent(previous.status) && previous.amount === amountCents && previous.client_secret) {
        return ok({ clientSecret: previous.client_secret });
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
    db.update(bookings)
      .set({
        stripePaymentIntentId: intent.id,
        paymentAmountCents: amountCents,
        paymentStatus: booking.paymentStatus === 'failed' ? 'failed' : 'unpaid',
        updatedAt: new Date(),
      })
      .where(and(eq(bookings.id, booking.id), or(isNull(bookings.paymentStatus), ne(bookings.paymentStatus, 'paid'))))
      .run();
    if (!intent.client_secret) return stripeUnavailable(new Error('no client_secret'), 'payment intent');
    return ok({ clientSecret: intent.client_secret });
  } catch (error) {
    return stripeUnavailable(error, 'payment intent');
  }
}

/** payment_intent.* webhooks: the booking's payment status, each event once, newest wins, paid is final. */
export function applyPaymentIntentEvent(intent: Stripe.PaymentIntent, created: number): 'applied' | 'ignored' | 'unknown' {
  const bookingId = parseId(intent.metadata?.booking_id);
  const booking = db
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
  if (!booking) return 'unknown';
  const status = paymentStatusFromIntent(intent.status);
  // An older intent of the booking (superseded) may still report success; a failure of it means nothing.
  if (booking.paymentIntentId !== intent.id && status !== 'paid') return 'ignored';
  if (!shouldApplyPaymentEvent({ status: booking.paymentStatus, eventCreated: booking.paymentEventCreated }, { status, created })) return 'ignored';
  db.update(bookings)
    .set({
      paymentStatus: status,
      paymentEventCreated: created,
      ...(status === 'paid'
        ? { paidAt: new Date(created * 1000), stripePaymentIntentId: intent.id, paymentAmountCents: intent.amount_received || intent.amount }
        : {}),
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
