// No-show protection, the client's side (issue 25, docs/decisions/0030):
//   - at booking, the spa's policy as it comes to for this booking is stored
//     on it (protectionFor, inside the booking's own transaction); a booking
//     that asks for a card waits (pending, its time held) for the card step;
//   - the card step (/bookings/secure/{token}): a SetupIntent (usage
//     off_session) for a card on file, or a PaymentIntent for the deposit
//     that also saves the card for later fees; Stripe Elements in the browser,
//     so no card data reaches this server;
//   - Stripe's webhook, not the browser, says it is done: the booking is then
//     secured (an instant booking confirmed) and announced as any booking is;
//   - a deposit paid for a booking that no longer wants it (cancelled, or left
//     unfinished past SECURE_WITHIN_MINUTES) is refunded automatically, and
//     a cancellation in time, or by the spa, refunds a held deposit at once.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { bookingPayments, bookings, services, spas } from '#db/schema.ts';
import { idOf } from '#lib/billing-rules.ts';
import { parseId } from '#lib/ids.ts';
import { SECURE_WITHIN_MINUTES, snapshotFor, type ProtectionSnapshot } from '#lib/no-show-policy.ts';
import { gone, notFound, ok, type Result } from '#lib/result.ts';
import { announceOpenTimeBooking } from '../availability/mail.ts';
import { announceNewBooking } from '../bookings/booking-mail.ts';
import { bookingDetails, findBookingIdByManageToken, type BookingDetails } from '../bookings/bookings.ts';
import { db } from '../db.ts';
import { sendMailInBackground } from '../mail/mail.ts';
import { paymentsConfigured, stripeUnavailable } from './billing.ts';
import { heldDeposit, ledgerRow, refundStatus, settleRow, type LedgerRow } from './ledger.ts';
import { depositReceiptMail, refundMail } from './money-mail.ts';

type Reader = Pick<typeof db, 'select'>;

/** The columns a new booking stores for its spa's policy: none, or the snapshot and a card step to take. */
export type ProtectionColumns = { protection: 'none' } | (ProtectionSnapshot & { secureStatus: 'awaiting' });

/**
 * What the spa's policy comes to for a booking of this service (call inside
 * the booking's transaction). Without Stripe keys, or without a priced
 * service, nothing is asked: the client books as before.
 */
export function protectionFor(tx: Reader, spaId: number | null, serviceId: number | null): ProtectionColumns {
  if (spaId === null || serviceId === null || !paymentsConfigured()) return { protection: 'none' };
  const row = tx
    .select({ policy: spas.noShowPolicy, windowHours: spas.cancellationWindowHours, priceCents: services.priceCents })
    .from(services)
    .innerJoin(spas, eq(services.spaId, spas.id))
    .where(and(eq(services.id, serviceId), eq(spas.id, spaId)))
    .get();
  const snapshot = row ? snapshotFor(row.policy ?? null, row.priceCents, row.windowHours) : null;
  return snapshot ? { ...snapshot, secureStatus: 'awaiting' } : { protection: 'none' };
}

/** The booking's stored policy, when it has one. */
export function snapshotOf(booking: BookingDetails['booking']): ProtectionSnapshot | null {
  if (booking.protection === 'none' || booking.policyPriceCents === null || booking.policyWindowHours === null) return null;
  return {
    protection: booking.protection,
    policyPriceCents: booking.policyPriceCents,
    policyWindowHours: booking.policyWindowHours,
    depositCents: booking.depositCents,
    lateCancelFeeCents: booking.lateCancelFeeCents,
    noShowFeeCents: booking.noShowFeeCents,
  };
}

/** Where a booking that waits for its card step sends the client: null when it does not wait. */
export const secureStepPath = (details: BookingDetails): string | null =>
  details.booking.secureStatus === 'awaiting' && details.booking.manageToken ? `/bookings/secure/${details.booking.manageToken}` : null;

/** What the client is told when a booking waits for its card step (the open-time answer's message). */
export function secureLine(details: BookingDetails): string {
  const what = `${details.service?.name ?? 'your appointment'} at ${details.spa?.name ?? 'the spa'}`;
  return `Held for ${SECURE_WITHIN_MINUTES} minutes: ${what}. ${details.booking.protection === 'deposit' ? 'Pay the deposit' : 'Save your card'} to finish booking.`;
}

/** Whether the card step is still open (the booking lapses SECURE_WITHIN_MINUTES after it was made). */
export const stepOpen = (booking: { createdAt: Date; status: string }, now: number) =>
  (booking.status === 'pending' || booking.status === 'confirmed') && now < booking.createdAt.getTime() + SECURE_WITHIN_MINUTES * 60_000;

export type SecureStep =
  | { kind: 'setup' | 'deposit'; clientSecret: string; amountCents: number | null }
  | { kind: 'authenticate'; clientSecret: string; amountCents: number; paymentMethodId: string | null }
  | { kind: 'done'; secureStatus: 'secured' };

/** How late Stripe's webhook may arrive for a deposit paid in the last moment of the card step. */
const WEBHOOK_GRACE_MS = 5 * 60_000;

export const SECURE_GONE = 'This booking was not completed in time and its time was released. Please book again.';

/**
 * POST /api/bookings/secure/{token}'s logic: the Stripe object the card step
 * confirms in the browser (made once per booking: the same idempotency key
 * answers a reload or a second tab the same object). A fee the client's bank
 * wants confirmed (authentication_required) is the step too.
 */
export async function startSecureStep(token: string, stripe: Stripe, now = Date.now()): Promise<Result<SecureStep>> {
  const id = findBookingIdByManageToken(token);
  const details = id === null ? null : bookingDetails(id);
  if (!details) return notFound('Booking not found.');
  const { booking } = details;
  const waiting = db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.bookingId, booking.id), eq(bookingPayments.status, 'requires_action')))
    .get();
  try {
    if (waiting?.stripePaymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(waiting.stripePaymentIntentId);
      if (!intent.client_secret) throw new Error('no client_secret');
      return ok({ kind: 'authenticate', clientSecret: intent.client_secret, amountCents: waiting.amountCents, paymentMethodId: booking.stripePaymentMethodId });
    }
    if (booking.secureStatus === 'secured') return ok({ kind: 'done', secureStatus: 'secured' });
    if (booking.secureStatus !== 'awaiting') return notFound('This booking does not ask for a card.');
    if (!stepOpen(booking, now)) return gone(SECURE_GONE, { code: 'secure_step_expired' });

    const customer = await customerOf(stripe, details);
    const metadata = { booking_id: String(booking.id), purpose: booking.protection === 'deposit' ? 'deposit' : 'card' };
    if (booking.protection === 'card') {
      const setup = await stripe.setupIntents.create(
        { customer, usage: 'off_session', automatic_payment_methods: { enabled: true }, metadata, description: describe(details) },
        { idempotencyKey: `booking-${booking.id}-setup` },
      );
      db.update(bookings).set({ stripeSetupIntentId: setup.id, updatedAt: new Date() }).where(eq(bookings.id, booking.id)).run();
      if (!setup.client_secret) throw new Error('no client_secret');
      return ok({ kind: 'setup', clientSecret: setup.client_secret, amountCents: null });
    }
    const amount = booking.depositCents!;
    const key = `booking-${booking.id}-deposit`;
    const { row } = ledgerRow({
      bookingId: booking.id,
      kind: 'deposit',
      amountCents: amount,
      idempotencyKey: key,
      actorRole: 'client',
      reason: 'Deposit at booking',
    });
    const intent = await stripe.paymentIntents.create(
      {
        amount,
        currency: 'usd',
        customer,
        // The card is kept for a later fee the policy allows (off-session, the owner's explicit act).
        setup_future_usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        description: `Deposit: ${describe(details)}`,
        metadata: { ...metadata, payment_id: String(row.id) },
      },
      { idempotencyKey: key },
    );
    if (row.stripePaymentIntentId !== intent.id) {
      db.update(bookingPayments).set({ stripePaymentIntentId: intent.id, updatedAt: new Date() }).where(eq(bookingPayments.id, row.id)).run();
    }
    if (!intent.client_secret) throw new Error('no client_secret');
    return ok({ kind: 'deposit', clientSecret: intent.client_secret, amountCents: amount });
  } catch (error) {
    return stripeUnavailable(error, 'card step');
  }
}

const describe = (details: BookingDetails) => `${details.service?.name ?? 'Appointment'} at ${details.spa?.name ?? 'the spa'} (booking ${details.booking.id})`;

async function customerOf(stripe: Stripe, details: BookingDetails): Promise<string> {
  if (details.booking.stripeCustomerId) return details.booking.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: details.booking.email, name: details.booking.name, metadata: { booking_id: String(details.booking.id) } },
    { idempotencyKey: `booking-${details.booking.id}-customer` },
  );
  db.update(bookings)
    .set({ stripeCustomerId: customer.id, updatedAt: new Date() })
    .where(and(eq(bookings.id, details.booking.id), isNull(bookings.stripeCustomerId)))
    .run();
  return customer.id;
}

/** GET /api/bookings/secure/{token}: where the card step and the booking stand (the island asks after Stripe.js said it is done). */
export function secureState(token: string) {
  const id = findBookingIdByManageToken(token);
  const details = id === null ? null : bookingDetails(id);
  if (!details) return null;
  const waiting = db
    .select({ id: bookingPayments.id })
    .from(bookingPayments)
    .where(and(eq(bookingPayments.bookingId, details.booking.id), eq(bookingPayments.status, 'requires_action')))
    .get();
  return { secureStatus: details.booking.secureStatus, status: details.booking.status, authenticationPending: Boolean(waiting) };
}

// --- Stripe's webhooks ----------------------------------------------------------

/** What a webhook about the card step did, for the mails after the commit. */
export interface SecureOutcome {
  result: 'applied' | 'ignored' | 'unknown';
  /** A booking the card step secured just now: announce it as a new booking. */
  secured?: number;
  /** A deposit paid just now: its receipt. */
  depositPaid?: number;
  /** A refund recorded just now: its mail. */
  refunded?: number;
}

/**
 * The card step is done: the booking is secured and keeps the card Stripe
 * saved; an instant booking is confirmed now. Only a booking still waiting
 * (and not cancelled) moves, so a late, repeated or out-of-order delivery
 * changes nothing. Call inside the webhook's transaction.
 */
function secureBooking(bookingId: number, paymentMethodId: string | null): boolean {
  const booking = db.select().from(bookings).where(eq(bookings.id, bookingId)).get();
  if (!booking || booking.secureStatus !== 'awaiting' || (booking.status !== 'pending' && booking.status !== 'confirmed')) return false;
  const confirmNow = booking.bookedVia === 'instant' && booking.status === 'pending';
  return (
    db
      .update(bookings)
      .set({
        secureStatus: 'secured',
        stripePaymentMethodId: paymentMethodId,
        ...(confirmNow ? { status: 'confirmed' as const } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(bookings.id, bookingId), eq(bookings.secureStatus, 'awaiting'), inArray(bookings.status, ['pending', 'confirmed'])))
      .run().changes === 1
  );
}

/** setup_intent.succeeded: a card on file saved. */
export function applySetupIntentEvent(setup: Stripe.SetupIntent, eventType: string): SecureOutcome {
  const booking = db.select({ id: bookings.id }).from(bookings).where(eq(bookings.stripeSetupIntentId, setup.id)).get();
  const bookingId = booking?.id ?? parseId(setup.metadata?.booking_id);
  if (bookingId === null) return { result: 'unknown' };
  if (eventType !== 'setup_intent.succeeded' || setup.status !== 'succeeded') return { result: 'ignored' };
  return secureBooking(bookingId, idOf(setup.payment_method)) ? { result: 'applied', secured: bookingId } : { result: 'ignored' };
}

/** Whether a deposit's success arrives for a booking that no longer wants it: to be refunded before the webhook's transaction. */
export function isUnwantedDeposit(intent: Stripe.PaymentIntent, now = Date.now()): boolean {
  if (intent.metadata?.purpose !== 'deposit' || intent.status !== 'succeeded') return false;
  const booking = db
    .select()
    .from(bookings)
    .where(eq(bookings.id, parseId(intent.metadata.booking_id) ?? -1))
    .get();
  if (!booking) return false;
  if (booking.secureStatus === 'secured') return false;
  // A few minutes' grace for the webhook's own delay: the client paid while the page was open.
  return booking.status === 'cancelled' || booking.secureStatus === 'expired' || !stepOpen(booking, now - WEBHOOK_GRACE_MS);
}

export const depositRefundKey = (bookingId: number) => `booking-${bookingId}-deposit-refund`;

/** Refunds a deposit in full at Stripe (the one key for every way a deposit goes back, so it goes back once). */
export function refundDepositAtStripe(stripe: Stripe, bookingId: number, intentId: string, amountCents: number, why: string) {
  return stripe.refunds.create(
    { payment_intent: intentId, amount: amountCents, reason: 'requested_by_customer', metadata: { booking_id: String(bookingId), why } },
    { idempotencyKey: depositRefundKey(bookingId) },
  );
}

/**
 * payment_intent.* of a deposit: the ledger row follows; a success secures
 * the booking (or, with `refund` made before the transaction, is recorded as
 * refunded because the booking no longer wants it).
 */
export function applyDepositEvent(intent: Stripe.PaymentIntent, created: number, refund: Stripe.Refund | null): SecureOutcome {
  const bookingId = parseId(intent.metadata?.booking_id);
  const row =
    db
      .select()
      .from(bookingPayments)
      .where(and(eq(bookingPayments.stripePaymentIntentId, intent.id), eq(bookingPayments.kind, 'deposit')))
      .get() ??
    (bookingId === null
      ? undefined
      : db
          .select()
          .from(bookingPayments)
          .where(eq(bookingPayments.idempotencyKey, `booking-${bookingId}-deposit`))
          .get());
  if (!row) return { result: 'unknown' };
  if (intent.status !== 'succeeded') {
    if (row.status === 'pending' || row.status === 'requires_action') {
      // The client may try another card on the same page: a failure is kept as the last error, not the end.
      db.update(bookingPayments)
        .set({ failureCode: intent.last_payment_error?.code ?? null, failureMessage: intent.last_payment_error?.message ?? null, updatedAt: new Date() })
        .where(eq(bookingPayments.id, row.id))
        .run();
      return { result: 'applied' };
    }
    return { result: 'ignored' };
  }
  const paidNow = settleRow(row.id, { status: 'succeeded', stripePaymentIntentId: intent.id, failureCode: null, failureMessage: null, eventCreated: created });
  if (refund) {
    const recorded = ledgerRow({
      bookingId: row.bookingId,
      kind: 'refund',
      amountCents: refund.amount,
      idempotencyKey: depositRefundKey(row.bookingId),
      actorRole: 'system',
      stripePaymentIntentId: intent.id,
      refundOf: row.id,
      status: refundStatus(refund),
      reason: 'The deposit arrived for a booking that was cancelled or not completed in time: refunded automatically.',
    });
    if (recorded.created) settleRow(recorded.row.id, { status: refundStatus(refund), stripeRefundId: refund.id });
    return { result: 'applied', ...(recorded.created ? { refunded: recorded.row.id } : {}) };
  }
  const secured = secureBooking(row.bookingId, idOf(intent.payment_method));
  return paidNow || secured
    ? { result: 'applied', ...(secured ? { secured: row.bookingId } : {}), ...(paidNow ? { depositPaid: row.id } : {}) }
    : { result: 'ignored' };
}

/** The mails of a card step done, after the commit: the booking is announced as it would have been at once, and a deposit's receipt. */
export function announceSecured(outcome: SecureOutcome, origin: string): void {
  if (outcome.secured !== undefined) {
    const details = bookingDetails(outcome.secured);
    if (details) {
      if (details.booking.bookedVia === 'request') announceNewBooking(details, origin);
      else announceOpenTimeBooking(details, origin);
    }
  }
  if (outcome.depositPaid !== undefined) mailAboutRow(outcome.depositPaid, origin, depositReceiptMail);
  if (outcome.refunded !== undefined) mailAboutRow(outcome.refunded, origin, refundMail);
}

export function mailAboutRow(
  rowId: number,
  origin: string,
  make: (details: BookingDetails, row: LedgerRow, origin: string) => ReturnType<typeof refundMail>,
): void {
  const row = db.select().from(bookingPayments).where(eq(bookingPayments.id, rowId)).get();
  const details = row ? bookingDetails(row.bookingId) : null;
  if (row && details) sendMailInBackground(make(details, row, origin));
}

// --- cancellations -------------------------------------------------------------

/**
 * After a booking was cancelled (any way: the manage link, the dashboard,
 * the API, an editor, the hours page): a held deposit goes back in full at
 * once when the client cancelled in time or the spa cancelled; a late
 * cancellation keeps it for the owner's decision (fees.ts). A card step left
 * open is withdrawn at Stripe, so it cannot be completed any more (if it is
 * anyway, the webhook refunds it).
 */
export async function settleCancellation(after: BookingDetails, stripe: Stripe | null, origin: string): Promise<void> {
  const { booking } = after;
  if (booking.status !== 'cancelled' || booking.protection === 'none' || !stripe) return;
  try {
    if (booking.secureStatus === 'awaiting') {
      if (booking.stripeSetupIntentId) await stripe.setupIntents.cancel(booking.stripeSetupIntentId).catch(() => undefined);
      const deposit = db
        .select()
        .from(bookingPayments)
        .where(and(eq(bookingPayments.bookingId, booking.id), eq(bookingPayments.kind, 'deposit'), eq(bookingPayments.status, 'pending')))
        .get();
      if (deposit?.stripePaymentIntentId) await stripe.paymentIntents.cancel(deposit.stripePaymentIntentId).catch(() => undefined);
      return;
    }
    if (booking.lateCancelledAt) return;
    const refunded = await refundHeldDeposit(booking.id, stripe, 'Cancelled in time, or by the spa: the deposit is refunded in full.', { role: 'system' });
    if (refunded) mailAboutRow(refunded, origin, refundMail);
  } catch (error) {
    console.error(`billing: booking ${booking.id} was cancelled but its deposit could not be settled:`, error instanceof Error ? error.message : error);
  }
}

/**
 * Refunds what is left of a held deposit (the ledger row first, then Stripe
 * with the deposit's one refund key). The refund row's id when one was made
 * now; null when there was nothing to refund or another call made it.
 */
export async function refundHeldDeposit(
  bookingId: number,
  stripe: Stripe,
  reason: string,
  actor: { role: 'client' | 'owner' | 'admin' | 'system'; id?: number | null },
  amountCents?: number,
): Promise<number | null> {
  const deposit = heldDeposit(bookingId);
  if (!deposit?.stripePaymentIntentId) return null;
  const amount = Math.min(amountCents ?? deposit.amountCents, deposit.amountCents - deposit.refundedCents);
  if (amount <= 0) return null;
  const { row, created } = ledgerRow({
    bookingId,
    kind: 'refund',
    amountCents: amount,
    idempotencyKey: depositRefundKey(bookingId),
    actorRole: actor.role,
    actorId: actor.id ?? null,
    stripePaymentIntentId: deposit.stripePaymentIntentId,
    refundOf: deposit.id,
    reason,
  });
  if (!created && row.status !== 'pending') return null;
  const refund = await refundDepositAtStripe(stripe, bookingId, deposit.stripePaymentIntentId, row.amountCents, reason);
  settleRow(row.id, { status: refundStatus(refund), stripeRefundId: refund.id });
  return created ? row.id : null;
}
