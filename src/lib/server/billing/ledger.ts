// The money ledger (booking_payments, docs/decisions/0030): one row per
// deposit, fee or refund, written before Stripe is asked, with the
// idempotency key Stripe is asked with, and brought up to date from Stripe's
// answer and webhooks. Insert-or-get by key: a double click, a second tab or
// a redelivery finds the row the first one wrote instead of writing another
// (and the partial unique indexes refuse a second live deposit, fee or
// refund whoever writes).
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { bookingPayments, bookings, services, spas, users, type MoneyActor, type MoneyKind, type MoneyStatus } from '#db/schema.ts';
import { db } from '../db.ts';

export type LedgerRow = typeof bookingPayments.$inferSelect;

/** A row's kind and state as the owner's booking page and the ledger lists say them. */
export const LEDGER_KIND_LABELS: Record<MoneyKind, string> = {
  deposit: 'Deposit',
  refund: 'Refund',
  late_cancel_fee: 'Late-cancellation fee',
  no_show_fee: 'No-show fee',
};
export const LEDGER_STATE_LABELS: Record<MoneyStatus, string> = {
  pending: 'Pending',
  requires_action: 'Waiting for the client’s bank',
  succeeded: 'Succeeded',
  failed: 'Failed',
  canceled: 'Withdrawn',
};
type Writer = Pick<typeof db, 'insert' | 'select' | 'update'>;

export interface NewLedgerRow {
  bookingId: number;
  kind: MoneyKind;
  amountCents: number;
  idempotencyKey: string;
  actorRole: MoneyActor;
  actorId?: number | null;
  status?: MoneyStatus;
  stripePaymentIntentId?: string | null;
  refundOf?: number | null;
  reason?: string | null;
}

/** The row with this key: the one written now, or the one an earlier call wrote. `created` says which. */
export function ledgerRow(row: NewLedgerRow, writer: Writer = db): { row: LedgerRow; created: boolean } {
  const inserted = writer
    .insert(bookingPayments)
    .values({ status: 'pending', ...row })
    .onConflictDoNothing({ target: bookingPayments.idempotencyKey })
    .returning()
    .get();
  if (inserted) return { row: inserted, created: true };
  return { row: writer.select().from(bookingPayments).where(eq(bookingPayments.idempotencyKey, row.idempotencyKey)).get()!, created: false };
}

export const ledgerById = (id: number) => db.select().from(bookingPayments).where(eq(bookingPayments.id, id)).get() ?? null;

/** The rows of a booking, oldest first. */
export const ledgerOfBooking = (bookingId: number) =>
  db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, bookingId)).orderBy(bookingPayments.id).all();

/** The booking's deposit that is held: paid, and not refunded in full. */
export function heldDeposit(bookingId: number): (LedgerRow & { refundedCents: number }) | null {
  const deposit = db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.bookingId, bookingId), eq(bookingPayments.kind, 'deposit'), eq(bookingPayments.status, 'succeeded')))
    .get();
  if (!deposit) return null;
  return { ...deposit, refundedCents: refundedOn(deposit.stripePaymentIntentId) };
}

/** What live refunds of a payment intent come to. */
export function refundedOn(intentId: string | null): number {
  if (!intentId) return 0;
  return (
    db
      .select({ sum: sql<number>`coalesce(sum(${bookingPayments.amountCents}), 0)` })
      .from(bookingPayments)
      .where(and(eq(bookingPayments.kind, 'refund'), ne(bookingPayments.status, 'failed'), eq(bookingPayments.stripePaymentIntentId, intentId)))
      .get()?.sum ?? 0
  );
}

/** The live refund of a ledger row, if it has one. */
export const refundOf = (rowId: number) =>
  db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.kind, 'refund'), eq(bookingPayments.refundOf, rowId), ne(bookingPayments.status, 'failed')))
    .get() ?? null;

/** The booking's latest fee row (any state). */
export const latestFee = (bookingId: number) =>
  db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.bookingId, bookingId), inArray(bookingPayments.kind, ['late_cancel_fee', 'no_show_fee'])))
    .orderBy(desc(bookingPayments.id))
    .limit(1)
    .get() ?? null;

/** A row brought to what Stripe said; a succeeded row stays succeeded (the triggers of 0022 hold it too). */
export function settleRow(
  id: number,
  change: {
    status: MoneyStatus;
    stripePaymentIntentId?: string | null;
    stripeRefundId?: string | null;
    failureCode?: string | null;
    failureMessage?: string | null;
    eventCreated?: number;
  },
  writer: Writer = db,
): boolean {
  return (
    writer
      .update(bookingPayments)
      .set({ ...change, updatedAt: new Date() })
      .where(and(eq(bookingPayments.id, id), ne(bookingPayments.status, 'succeeded')))
      .run().changes === 1
  );
}

/** Where a refund Stripe answered stands, as the ledger keeps it. */
export const refundStatus = (refund: Pick<Stripe.Refund, 'status'>): MoneyStatus =>
  refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';

/** Ledger rows with their booking, spa and service, newest first: an owner's spas, or everything for an editor. */
export function listLedger(viewer: { id: number; role: string }, options: { kinds?: MoneyKind[]; limit?: number } = {}) {
  const conditions = [
    ...(viewer.role === 'admin' ? [] : [eq(spas.ownerId, viewer.id)]),
    ...(options.kinds ? [inArray(bookingPayments.kind, options.kinds)] : []),
  ];
  return db
    .select({
      row: bookingPayments,
      client: bookings.name,
      clientEmail: bookings.email,
      spaName: spas.name,
      serviceName: services.name,
      actorEmail: users.email,
    })
    .from(bookingPayments)
    .innerJoin(bookings, eq(bookingPayments.bookingId, bookings.id))
    .leftJoin(spas, eq(bookings.spaId, spas.id))
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .leftJoin(users, eq(bookingPayments.actorId, users.id))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(bookingPayments.createdAt), desc(bookingPayments.id))
    .limit(options.limit ?? 200)
    .all();
}

export type LedgerListing = ReturnType<typeof listLedger>[number];
