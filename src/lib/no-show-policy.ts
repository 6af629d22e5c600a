// No-show protection (issue 25, docs/decisions/0030) without I/O: a spa's
// policy (a card on file or a deposit, and the fees for a late cancellation
// and a no-show), what it comes to in dollars for one booking (the snapshot
// stored on the booking when it is made: a later change of policy or price
// never alters it), how a deposit counts toward a fee, and the policy in
// plain words for the client. src/lib/server/billing/protection.ts and
// fees.ts do the talking to Stripe and SQLite and ask these.
import { formatDollars } from './money.ts';

export const PROTECTION_MODES = ['none', 'card', 'deposit'] as const;
export type ProtectionMode = (typeof PROTECTION_MODES)[number];

/** A deposit or fee as the owner sets it: a fixed sum, or a share of the treatment's price. */
export type AmountRule = { kind: 'fixed'; cents: number } | { kind: 'percent'; percent: number };

/** A spa's policy (spas.no_show_policy); null on the spa means none. */
export interface NoShowPolicy {
  mode: Exclude<ProtectionMode, 'none'>;
  /** Deposit mode: charged at booking. */
  deposit: AmountRule | null;
  /** Inside the cancellation window. In deposit mode it is taken from the deposit (at most all of it; none set: all of it). */
  lateCancelFee: AmountRule | null;
  /** A missed appointment; in deposit mode, as the late-cancellation fee. */
  noShowFee: AmountRule | null;
}

/** A fixed amount may be at most this (and is never more than the treatment's price). */
export const MAX_FIXED_CENTS = 1_000_000;
/** Stripe charges at least $0.50 (USD): a deposit or fee that comes to less is none. */
export const MIN_CHARGE_CENTS = 50;
/** The client has this long to save a card or pay a deposit; then the booking lapses and its time is free. */
export const SECURE_WITHIN_MINUTES = 30;

/** What a policy comes to for one booking, stored on it (bookings.protection ... no_show_fee_cents). */
export interface ProtectionSnapshot {
  protection: Exclude<ProtectionMode, 'none'>;
  /** The treatment's price when booked: no deposit or fee is ever more. */
  policyPriceCents: number;
  /** The cancellation window when booked, in hours. */
  policyWindowHours: number;
  depositCents: number | null;
  lateCancelFeeCents: number | null;
  noShowFeeCents: number | null;
}

/** A rule's amount for a price: whole cents, at most the price; null when it comes to less than Stripe can charge. */
export function amountFor(rule: AmountRule | null, priceCents: number): number | null {
  if (!rule || priceCents <= 0) return null;
  const cents = rule.kind === 'fixed' ? rule.cents : Math.round((priceCents * rule.percent) / 100);
  const capped = Math.min(cents, priceCents);
  return capped >= MIN_CHARGE_CENTS ? capped : null;
}

/**
 * The snapshot of a policy for a treatment at a price; null when there is
 * nothing to protect (no policy, no price) or nothing would be asked (a card
 * policy whose fees come to nothing).
 */
export function snapshotFor(policy: NoShowPolicy | null, priceCents: number, windowHours: number): ProtectionSnapshot | null {
  if (!policy || priceCents <= 0) return null;
  const depositCents = policy.mode === 'deposit' ? amountFor(policy.deposit, priceCents) : null;
  if (policy.mode === 'deposit' && depositCents === null) return null;
  // With a deposit, a fee is what the spa keeps of it: never more, and the whole deposit when the policy names no fee.
  const fee = (rule: AmountRule | null) =>
    depositCents === null ? amountFor(rule, priceCents) : Math.min(amountFor(rule, priceCents) ?? depositCents, depositCents);
  const snapshot: ProtectionSnapshot = {
    protection: policy.mode,
    policyPriceCents: priceCents,
    policyWindowHours: windowHours,
    depositCents,
    lateCancelFeeCents: fee(policy.lateCancelFee),
    noShowFeeCents: fee(policy.noShowFee),
  };
  if (snapshot.protection === 'card' && snapshot.lateCancelFeeCents === null && snapshot.noShowFeeCents === null) return null;
  return snapshot;
}

/**
 * A fee with a deposit held: it is taken from the deposit (in deposit mode
 * a fee is never more than the deposit), the rest of which goes back to the
 * client; without a deposit it is charged to the saved card.
 */
export function settleFee(feeCents: number, depositHeldCents: number): { chargeCents: number; keepDepositCents: number; refundDepositCents: number } {
  const held = Math.max(0, depositHeldCents);
  return { chargeCents: Math.max(0, feeCents - held), keepDepositCents: Math.min(held, feeCents), refundDepositCents: Math.max(0, held - feeCents) };
}

export type FeeKind = 'late_cancel_fee' | 'no_show_fee';

export const FEE_LABELS: Record<FeeKind, string> = { late_cancel_fee: 'late-cancellation fee', no_show_fee: 'no-show fee' };

const hoursLabel = (hours: number) => `${hours} ${hours === 1 ? 'hour' : 'hours'}`;

/** One fee in words, the deposit counting toward it. */
function feeWords(feeCents: number | null, depositCents: number | null, kind: FeeKind): string | null {
  if (feeCents === null) return null;
  if (depositCents === null) return `the spa may charge a ${formatDollars(feeCents)} ${FEE_LABELS[kind]} to your saved card`;
  return feeCents >= depositCents
    ? `the spa may keep your ${formatDollars(depositCents)} deposit`
    : `the spa may keep ${formatDollars(feeCents)} of your deposit and refunds the rest`;
}

/**
 * The policy of one booking in plain words, amounts in dollars, for the page
 * before the card step, the confirmation mail, the manage page and the
 * calendar invitation. One sentence a line.
 */
export function policyLines(snapshot: ProtectionSnapshot): string[] {
  const { depositCents: deposit, policyWindowHours: hours } = snapshot;
  const lines: string[] = [];
  lines.push(
    deposit === null
      ? 'A card on file: your card is saved securely with Stripe when you book. Nothing is charged now.'
      : `A deposit of ${formatDollars(deposit)} is charged when you book and counts toward your bill.`,
  );
  const inTime = hours > 0 ? `Cancel at least ${hoursLabel(hours)} before your appointment` : 'Cancel any time before your appointment';
  lines.push(`${inTime} and ${deposit === null ? 'nothing is charged' : 'your deposit is refunded in full'}.`);
  const late = feeWords(snapshot.lateCancelFeeCents, deposit, 'late_cancel_fee');
  if (hours > 0) {
    lines.push(late ? `Cancelling later than that: ${late}.` : 'Later than that, call the spa to cancel.');
  }
  const noShow = feeWords(snapshot.noShowFeeCents, deposit, 'no_show_fee');
  if (noShow) lines.push(`Missing your appointment: ${noShow}.`);
  lines.push(`If the spa cancels, nothing is charged${deposit === null ? '' : ' and your deposit is refunded in full'}.`);
  lines.push('A fee is only ever charged by the spa, once, and you get a receipt by e-mail.');
  return lines;
}

/** A spa's policy before a treatment is chosen: what it asks, in words, with the rule (the dollar amounts follow per treatment). */
export function ruleLabel(rule: AmountRule | null): string {
  if (!rule) return 'none';
  return rule.kind === 'fixed' ? `${formatDollars(rule.cents)} (at most the treatment’s price)` : `${rule.percent}% of the treatment’s price`;
}

/** The fee a client's cancellation now would cost: null when it is in time (or the booking asks none). */
export function lateCancelFeeAt(
  booking: { scheduledAt: Date | null; policyWindowHours: number | null; lateCancelFeeCents: number | null; secureStatus: string | null },
  now: Date,
): number | null {
  if (!booking.scheduledAt || booking.secureStatus !== 'secured' || booking.lateCancelFeeCents === null || booking.policyWindowHours === null) return null;
  const deadline = booking.scheduledAt.getTime() - booking.policyWindowHours * 3_600_000;
  return now.getTime() >= deadline ? booking.lateCancelFeeCents : null;
}

/** The policy of a treatment in one short line, beside its price: "Deposit $40.00 · no-show fee $40.00 (from the deposit)". */
export function shortPolicyLine(snapshot: ProtectionSnapshot): string {
  const parts = [
    snapshot.depositCents === null ? 'Card on file required (nothing charged at booking)' : `Deposit ${formatDollars(snapshot.depositCents)} at booking`,
  ];
  const fromDeposit = snapshot.depositCents === null ? '' : ' (from the deposit)';
  if (snapshot.lateCancelFeeCents !== null && snapshot.policyWindowHours > 0) {
    parts.push(`late-cancellation fee ${formatDollars(snapshot.lateCancelFeeCents)}${fromDeposit}`);
  }
  if (snapshot.noShowFeeCents !== null) parts.push(`no-show fee ${formatDollars(snapshot.noShowFeeCents)}${fromDeposit}`);
  return parts.join(' · ');
}
