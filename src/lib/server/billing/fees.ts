// No-show protection, the spa's side (issue 25, docs/decisions/0030): marking
// a past booking a no-show, and the fee a no-show or a late cancellation
// allows, which is never automatic: the owner (or an editor) charges it, or
// waives it, once. Each act is decided by one conditional write (the first
// of two clicks, tabs or processes wins; the other is told what happened),
// the ledger row is written before Stripe is asked, and Stripe is asked with
// that row's idempotency key. A card fee is charged off-session on the saved
// card; when the bank wants the client to confirm it (authentication_required)
// the client gets a mail with the link, and a declined card is shown to the
// owner as failed, never retried unless the owner asks again. With a deposit,
// the fee is taken from it and the rest refunded. Editors can refund a fee
// with a reason, which the audit log keeps.
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import * as z from 'zod';
import { bookingPayments, bookings, type MoneyActor } from '#db/schema.ts';
import { FEE_LABELS, settleFee, type FeeKind } from '#lib/no-show-policy.ts';
import { formatDollars } from '#lib/money.ts';
import { conflict, invalid, notFound, ok, parseWith, type Result } from '#lib/result.ts';
import { recordAudit } from '../admin/audit.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { actorFor, bookingDetails, type BookingDetails } from '../bookings/bookings.ts';
import { db } from '../db.ts';
import { sendMailInBackground } from '../mail/mail.ts';
import { paymentsNotConfigured, stripeUnavailable } from './billing.ts';
import { heldDeposit, latestFee, ledgerById, ledgerRow, refundOf, refundStatus, settleRow, type LedgerRow } from './ledger.ts';
import { authenticationNeededMail, feeReceiptMail, refundMail } from './money-mail.ts';
import { mailAboutRow, refundHeldDeposit } from './protection.ts';

/** Who is acting on a booking's money: its spa's owner or an editor; anyone else learns nothing (404). */
function staffOf(details: BookingDetails | null, user: SessionUser): 'owner' | 'admin' | null {
  if (!details) return null;
  const actor = actorFor(details, { user });
  return actor === 'owner' || actor === 'admin' ? actor : null;
}

const NOT_FOUND = 'Booking not found.';

/** The fee a booking allows now, and how it is paid: null when none (no policy, no mark, decided already). */
export function feeOffer(details: BookingDetails) {
  const { booking } = details;
  if (booking.protection === 'none' || booking.secureStatus !== 'secured' || booking.feeDecision !== null) return null;
  const kind: FeeKind | null =
    booking.noShowAt && booking.status === 'confirmed' ? 'no_show_fee' : booking.lateCancelledAt && booking.status === 'cancelled' ? 'late_cancel_fee' : null;
  const feeCents = kind === 'no_show_fee' ? booking.noShowFeeCents : kind === 'late_cancel_fee' ? booking.lateCancelFeeCents : null;
  if (!kind || feeCents === null) return null;
  const deposit = heldDeposit(booking.id);
  const held = deposit ? deposit.amountCents - deposit.refundedCents : 0;
  return { kind, feeCents, depositHeldCents: held, ...settleFee(feeCents, held) };
}

export type FeeOffer = NonNullable<ReturnType<typeof feeOffer>>;

/** Whether "Mark no-show" is offered: a confirmed booking whose time has passed, not marked yet. */
export const mayMarkNoShow = (booking: BookingDetails['booking'], now = new Date()) =>
  booking.status === 'confirmed' && booking.noShowAt === null && booking.scheduledAt !== null && booking.scheduledAt.getTime() <= now.getTime();

/**
 * Marks the client absent, beside the status (which stays confirmed). The
 * calendar sequence rises with it, so a form opened before (confirm,
 * complete, cancel) is refused as stale rather than undoing it.
 */
export function markNoShow(bookingId: number, user: SessionUser, now = new Date()): Result<{ bookingId: number }> {
  const details = bookingDetails(bookingId);
  if (!staffOf(details, user)) return notFound(NOT_FOUND);
  if (!mayMarkNoShow(details!.booking, now)) {
    return conflict(
      details!.booking.noShowAt ? 'This booking is already marked as a no-show.' : 'Only a confirmed booking whose time has passed can be marked as a no-show.',
      { code: details!.booking.noShowAt ? 'already_marked' : 'invalid_transition' },
    );
  }
  const changed = db
    .update(bookings)
    .set({ noShowAt: now, calendarSequence: sql`${bookings.calendarSequence} + 1`, updatedAt: now })
    .where(
      and(
        eq(bookings.id, bookingId),
        eq(bookings.status, 'confirmed'),
        isNull(bookings.noShowAt),
        lte(bookings.scheduledAt, now),
        eq(bookings.calendarSequence, details!.booking.calendarSequence),
      ),
    )
    .run().changes;
  if (changed === 0) return conflict('The booking changed while you were looking at it. Reload and try again.', { code: 'stale' });
  return ok({ bookingId });
}

/** The fee form: which fee, and the amount the owner was shown (compared, never charged as sent). */
export const feeActionSchema = z.object({
  kind: z.enum(['no_show_fee', 'late_cancel_fee'], { error: 'Choose the fee to charge' }),
  amountCents: z.coerce
    .number({ error: 'The amount must be a whole number of cents' })
    .int('The amount must be a whole number of cents')
    .min(1)
    .max(100_000_000),
});

export type FeeResult = Result<{ row: LedgerRow | null; outcome: 'charged' | 'kept_from_deposit' | 'requires_action' | 'failed' | 'pending' | 'already' }>;

/**
 * The fee form read against the booking: the offer it may charge; null when
 * the fee was decided already (a second click, tab or person: shown where it
 * stands, nothing moves); refused when there is no fee, or the amount or kind
 * is not the booking's own (422, naming the real amount: nothing is done).
 */
export function checkFeeRequest(details: BookingDetails, body: unknown): Result<FeeOffer | null, 'invalid' | 'conflict'> {
  const parsed = parseWith(feeActionSchema, body);
  if (!parsed.ok) return parsed;
  const offer = feeOffer(details);
  if (!offer) {
    if (details.booking.feeDecision) return ok(null);
    return conflict('There is no fee to charge on this booking now.', { code: 'no_fee' });
  }
  if (parsed.value.kind !== offer.kind || parsed.value.amountCents !== offer.feeCents) {
    const message = `The ${FEE_LABELS[offer.kind]} of this booking is ${formatDollars(offer.feeCents)}; reload the page to see it.`;
    return invalid({ amountCents: message }, message, { code: 'amount_mismatch' });
  }
  return ok(offer);
}

const stale = () => conflict('The fee was decided meanwhile (another tab or person). Reload to see it.', { code: 'already_decided' });

/**
 * The owner's explicit "Charge the fee": once per booking. The amount comes
 * from the booking (stored at booking time); the one the page showed must
 * match it, or nothing is done (422, naming the real amount).
 */
export async function chargeFee(bookingId: number, body: unknown, user: SessionUser, stripe: Stripe, origin: string): Promise<FeeResult> {
  const details = bookingDetails(bookingId);
  const role = staffOf(details, user);
  if (!role) return notFound(NOT_FOUND);
  const checked = checkFeeRequest(details!, body);
  if (!checked.ok) return checked;
  const offer = checked.value;
  if (!offer) return ok({ row: latestFee(bookingId), outcome: 'already' });
  const actor = { role: role as MoneyActor, id: user.id };

  // The decision and the ledger rows in one IMMEDIATE transaction: the first click wins, whoever else presses.
  const decided = db.transaction(
    () => {
      const won = db
        .update(bookings)
        .set({ feeDecision: 'charged', feeDecidedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(bookings.id, bookingId), isNull(bookings.feeDecision)))
        .run().changes;
      if (won === 0) return null;
      const deposit = heldDeposit(bookingId);
      const fromDeposit = offer.keepDepositCents > 0 && deposit;
      const fee = ledgerRow({
        bookingId,
        kind: offer.kind,
        amountCents: offer.feeCents,
        idempotencyKey: `booking-${bookingId}-fee-1`,
        actorRole: actor.role,
        actorId: actor.id,
        // Taken from the deposit already paid: nothing more to ask of Stripe for it.
        ...(fromDeposit ? { status: 'succeeded' as const, stripePaymentIntentId: deposit.stripePaymentIntentId } : {}),
        reason: fromDeposit ? `${FEE_LABELS[offer.kind]}, kept from the deposit` : `${FEE_LABELS[offer.kind]}, charged to the saved card`,
      }).row;
      return fee;
    },
    { behavior: 'immediate' },
  );
  if (!decided) return ok({ row: latestFee(bookingId), outcome: 'already' });

  if (offer.refundDepositCents > 0) {
    try {
      const refunded = await refundHeldDeposit(
        bookingId,
        stripe,
        `The rest of the deposit after the ${FEE_LABELS[offer.kind]}.`,
        actor,
        offer.refundDepositCents,
      );
      if (refunded) mailAboutRow(refunded, origin, refundMail);
    } catch (error) {
      console.error(`billing: booking ${bookingId}: the rest of its deposit could not be refunded:`, error instanceof Error ? error.message : error);
    }
  }
  if (decided.status === 'succeeded') {
    sendMailInBackground(feeReceiptMail(bookingDetails(bookingId)!, decided, origin));
    return ok({ row: decided, outcome: 'kept_from_deposit' });
  }
  return askStripeForFee(decided, details!, stripe, origin);
}

/**
 * Charges a fee row off-session on the saved card, with the row's key: a
 * repeat of the same row (Stripe could not be reached, the owner pressed
 * again) can never charge twice.
 */
async function askStripeForFee(row: LedgerRow, details: BookingDetails, stripe: Stripe, origin: string): Promise<FeeResult> {
  const { booking } = details;
  if (!booking.stripeCustomerId || !booking.stripePaymentMethodId) {
    settleRow(row.id, { status: 'failed', failureCode: 'no_card', failureMessage: 'No saved card on this booking.' });
    return ok({ row: ledgerById(row.id), outcome: 'failed' });
  }
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: row.amountCents,
        currency: 'usd',
        customer: booking.stripeCustomerId,
        payment_method: booking.stripePaymentMethodId,
        off_session: true,
        confirm: true,
        description: `${FEE_LABELS[row.kind as FeeKind]}: ${details.service?.name ?? 'appointment'} at ${details.spa?.name ?? 'the spa'}`,
        metadata: { booking_id: String(booking.id), purpose: 'fee', payment_id: String(row.id), kind: row.kind },
      },
      { idempotencyKey: row.idempotencyKey },
    );
    const status = intent.status === 'succeeded' ? 'succeeded' : intent.status === 'processing' ? 'pending' : 'requires_action';
    settleRow(row.id, { status, stripePaymentIntentId: intent.id });
    if (status === 'succeeded') sendMailInBackground(feeReceiptMail(details, ledgerById(row.id)!, origin));
    return ok({ row: ledgerById(row.id), outcome: status === 'succeeded' ? 'charged' : status });
  } catch (error) {
    const failure = error as { type?: string; code?: string; message?: string; payment_intent?: { id: string } };
    if (failure.type === 'StripeCardError' || failure.type === 'card_error') {
      if (failure.code === 'authentication_required') {
        settleRow(row.id, {
          status: 'requires_action',
          stripePaymentIntentId: failure.payment_intent?.id ?? null,
          failureCode: failure.code,
          failureMessage: failure.message ?? null,
        });
        sendMailInBackground(authenticationNeededMail(details, ledgerById(row.id)!, origin));
        return ok({ row: ledgerById(row.id), outcome: 'requires_action' });
      }
      settleRow(row.id, {
        status: 'failed',
        stripePaymentIntentId: failure.payment_intent?.id ?? null,
        failureCode: failure.code ?? 'card_error',
        failureMessage: failure.message ?? 'The card was declined.',
      });
      return ok({ row: ledgerById(row.id), outcome: 'failed' });
    }
    // Unknown at Stripe (not reached, or no answer): the row stays pending; asking again uses the same key.
    db.update(bookingPayments)
      .set({
        failureCode: 'stripe_unreachable',
        failureMessage: 'Stripe could not be reached. Press "Charge" again: it never charges twice.',
        updatedAt: new Date(),
      })
      .where(eq(bookingPayments.id, row.id))
      .run();
    return stripeUnavailable(error, 'fee charge');
  }
}

/**
 * The owner asks again (never on our own): a fee whose charge Stripe did not
 * answer is asked again with its own key (at most one charge); a declined
 * one makes a new attempt with a new key, the declined row kept as it was.
 */
export async function chargeFeeAgain(bookingId: number, body: unknown, user: SessionUser, stripe: Stripe, origin: string): Promise<FeeResult> {
  const details = bookingDetails(bookingId);
  if (!staffOf(details, user)) return notFound(NOT_FOUND);
  const parsed = parseWith(feeActionSchema, body);
  if (!parsed.ok) return parsed;
  const last = latestFee(bookingId);
  if (!last || details!.booking.feeDecision !== 'charged') return conflict('There is no fee to charge again on this booking.', { code: 'no_fee' });
  if (parsed.value.kind !== last.kind || parsed.value.amountCents !== last.amountCents) {
    const message = `The fee of this booking is ${formatDollars(last.amountCents)}; reload the page to see it.`;
    return invalid({ amountCents: message }, message, { code: 'amount_mismatch' });
  }
  if (last.status === 'pending') return askStripeForFee(last, details!, stripe, origin);
  if (last.status !== 'failed') return ok({ row: last, outcome: 'already' });
  const attempt = Number(/-fee-(\d+)$/.exec(last.idempotencyKey)?.[1] ?? 1) + 1;
  const next = db.transaction(
    () =>
      ledgerRow({
        bookingId,
        kind: last.kind,
        amountCents: last.amountCents,
        idempotencyKey: `booking-${bookingId}-fee-${attempt}`,
        actorRole: user.role === 'admin' ? 'admin' : 'owner',
        actorId: user.id,
        reason: last.reason,
      }),
    { behavior: 'immediate' },
  );
  if (!next.created) return ok({ row: next.row, outcome: 'already' });
  return askStripeForFee(next.row, details!, stripe, origin);
}

/** The owner lets the client off: no fee, ever, for this booking; a held deposit goes back in full. */
export async function waiveFee(bookingId: number, user: SessionUser, stripe: Stripe, origin: string): Promise<Result<{ refunded: boolean }>> {
  const details = bookingDetails(bookingId);
  const role = staffOf(details, user);
  if (!role) return notFound(NOT_FOUND);
  if (!feeOffer(details!)) return details!.booking.feeDecision ? stale() : conflict('There is no fee to waive on this booking now.', { code: 'no_fee' });
  const won = db
    .update(bookings)
    .set({ feeDecision: 'waived', feeDecidedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(bookings.id, bookingId), isNull(bookings.feeDecision)))
    .run().changes;
  if (won === 0) return stale();
  try {
    const refunded = await refundHeldDeposit(bookingId, stripe, 'The spa waived the fee: the deposit is refunded in full.', { role, id: user.id });
    if (refunded) mailAboutRow(refunded, origin, refundMail);
    return ok({ refunded: refunded !== null });
  } catch (error) {
    return stripeUnavailable(error, 'deposit refund');
  }
}

/** An editor's refund of a fee: the reason is required and kept (the ledger and the audit log). */
export const feeRefundSchema = z.object({
  id: z.coerce.number({ error: 'Choose a fee' }).int().positive('Choose a fee'),
  reason: z
    .string({ error: 'Say why the fee is refunded' })
    .trim()
    .min(3, 'Say why the fee is refunded (at least 3 characters)')
    .max(500, 'Keep the reason under 500 characters'),
});

export async function refundFee(body: unknown, editor: SessionUser, stripe: Stripe, origin: string): Promise<Result<{ row: LedgerRow }>> {
  if (editor.role !== 'admin') return notFound('Fee not found.');
  const parsed = parseWith(feeRefundSchema, body);
  if (!parsed.ok) return parsed;
  const fee = ledgerById(parsed.value.id);
  if (!fee || (fee.kind !== 'no_show_fee' && fee.kind !== 'late_cancel_fee')) return notFound('Fee not found.');
  if (fee.status !== 'succeeded' || !fee.stripePaymentIntentId) return conflict('Only a fee that was charged can be refunded.', { code: 'not_charged' });
  if (refundOf(fee.id)) return conflict('This fee is refunded already.', { code: 'already_refunded' });
  const { row, created } = db.transaction(
    () => {
      const made = ledgerRow({
        bookingId: fee.bookingId,
        kind: 'refund',
        amountCents: fee.amountCents,
        idempotencyKey: `payment-${fee.id}-refund`,
        actorRole: 'admin',
        actorId: editor.id,
        stripePaymentIntentId: fee.stripePaymentIntentId,
        refundOf: fee.id,
        reason: parsed.value.reason,
      });
      if (made.created)
        recordAudit(
          editor,
          'refund-fee',
          `booking:${fee.bookingId}`,
          `${formatDollars(fee.amountCents)} ${FEE_LABELS[fee.kind as FeeKind]}: ${parsed.value.reason}`,
        );
      return made;
    },
    { behavior: 'immediate' },
  );
  if (!created && row.status !== 'pending') return conflict('This fee is refunded already.', { code: 'already_refunded' });
  try {
    const refund = await stripe.refunds.create(
      {
        payment_intent: fee.stripePaymentIntentId,
        amount: fee.amountCents,
        reason: 'requested_by_customer',
        metadata: { booking_id: String(fee.bookingId), payment_id: String(fee.id) },
      },
      { idempotencyKey: row.idempotencyKey },
    );
    settleRow(row.id, { status: refundStatus(refund), stripeRefundId: refund.id });
    if (created) mailAboutRow(row.id, origin, refundMail);
    return ok({ row: ledgerById(row.id)! });
  } catch (error) {
    return stripeUnavailable(error, 'fee refund');
  }
}

// --- webhooks -------------------------------------------------------------------

/**
 * payment_intent.* of a fee (the client confirmed one their bank held, or
 * Stripe reports the end of one): the ledger row follows; succeeded is final.
 * Returns the row that succeeded just now, for its receipt.
 */
export function applyFeeEvent(intent: Stripe.PaymentIntent, created: number): { result: 'applied' | 'ignored' | 'unknown'; paid?: number } {
  const row = db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.stripePaymentIntentId, intent.id), sql`${bookingPayments.kind} in ('late_cancel_fee', 'no_show_fee')`))
    .get();
  if (!row) return { result: 'unknown' };
  if (row.status === 'succeeded') return { result: 'ignored' };
  if (row.eventCreated !== null && created < row.eventCreated && intent.status !== 'succeeded') return { result: 'ignored' };
  if (intent.status === 'succeeded') {
    settleRow(row.id, { status: 'succeeded', failureCode: null, failureMessage: null, eventCreated: created });
    return { result: 'applied', paid: row.id };
  }
  if (intent.status === 'requires_payment_method' && row.status === 'pending') {
    // A failure reported only by webhook (the answer to our request was lost): shown as failed, not retried.
    settleRow(row.id, {
      status: 'failed',
      failureCode: intent.last_payment_error?.code ?? 'card_error',
      failureMessage: intent.last_payment_error?.message ?? 'The card was declined.',
      eventCreated: created,
    });
    return { result: 'applied' };
  }
  return { result: 'ignored' };
}

/** refund.updated / refund.created: a refund the ledger holds follows Stripe's state (succeeded is final). */
export function applyRefundEvent(refund: Stripe.Refund, created: number): 'applied' | 'ignored' | 'unknown' {
  const row = db.select().from(bookingPayments).where(eq(bookingPayments.stripeRefundId, refund.id)).get();
  if (!row) return 'unknown';
  if (row.status === 'succeeded' || row.status === refundStatus(refund)) return 'ignored';
  return settleRow(row.id, { status: refundStatus(refund), eventCreated: created }) ? 'applied' : 'ignored';
}

export const feeReceiptFor = (rowId: number, origin: string) => mailAboutRow(rowId, origin, feeReceiptMail);

// --- the owner's booking page (/owner/bookings/{id}) ------------------------------

/** What the page says after an act; the redirect carries only the key. */
export const MONEY_NOTICES = {
  'no-show': 'Marked as a no-show.',
  charged: 'Fee charged. The client has the receipt by e-mail.',
  kept: 'Fee kept from the deposit, and the rest of it refunded. The client has the receipt by e-mail.',
  'requires-action': 'The client’s bank asks them to confirm the fee: we e-mailed them a link. It shows here as charged once they do.',
  failed: 'The charge did not go through: see why below. Nothing is retried unless you ask.',
  waived: 'Fee waived. A deposit, if any, is refunded in full.',
  already: 'That was already done (another tab or person): here is where it stands.',
} as const;

export type MoneyNotice = keyof typeof MONEY_NOTICES;

const NEEDS_STRIPE = ['charge', 'charge-again', 'waive'];

/** The booking page's form posts: intent no-show | charge | charge-again | waive, with kind and amountCents for a charge. */
export async function handleBookingMoneyAction(
  form: Pick<URLSearchParams, 'get'>,
  bookingId: number,
  user: SessionUser,
  stripe: Stripe | null,
  origin: string,
): Promise<Result<MoneyNotice>> {
  const intent = form.get('intent') ?? '';
  // Whose booking it is comes first: Stripe's absence tells nobody else anything.
  if (!staffOf(bookingDetails(bookingId), user)) return notFound(NOT_FOUND);
  if (intent === 'no-show') {
    const marked = markNoShow(bookingId, user);
    return marked.ok ? ok('no-show') : marked;
  }
  if (!NEEDS_STRIPE.includes(intent)) return invalid({}, 'Unknown action.', { code: 'unknown_action' });
  const body = { kind: form.get('kind') ?? undefined, amountCents: form.get('amountCents') ?? undefined };
  // A forged or stale amount is refused before anything else is asked (also on a site without Stripe).
  if (intent === 'charge') {
    const checked = checkFeeRequest(bookingDetails(bookingId)!, body);
    if (!checked.ok) return checked;
  }
  if (!stripe) return paymentsNotConfigured();
  if (intent === 'waive') {
    const waived = await waiveFee(bookingId, user, stripe, origin);
    return waived.ok ? ok('waived') : waived;
  }
  const result = intent === 'charge' ? await chargeFee(bookingId, body, user, stripe, origin) : await chargeFeeAgain(bookingId, body, user, stripe, origin);
  if (!result.ok) return result;
  const notices: Record<FeeResult extends Result<infer T> ? (T extends { outcome: infer O } ? O & string : never) : never, MoneyNotice> = {
    charged: 'charged',
    kept_from_deposit: 'kept',
    requires_action: 'requires-action',
    failed: 'failed',
    pending: 'failed',
    already: 'already',
  };
  return ok(notices[result.value.outcome]);
}
