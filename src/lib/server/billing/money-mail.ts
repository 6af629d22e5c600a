// The mails money sends, from the project's own address (Stripe's receipts
// are not relied on): the client's receipt for a deposit and for a fee, a
// refund, a fee their bank wants them to confirm, a payment the site refunded
// on its own; the owner of a plan switch the city's Elite cap undid. Like
// every client mail, nothing a client typed is in them.
import type { MoneyKind } from '#db/schema.ts';
import { brand, contact } from '#content/site.ts';
import { formatPacificDateTime } from '#lib/dates.ts';
import { formatDollars } from '#lib/money.ts';
import { manageUrl } from '../bookings/booking-mail.ts';
import type { BookingDetails } from '../bookings/bookings.ts';
import { renderEmail } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { LedgerRow } from './ledger.ts';

const providerName = (details: BookingDetails) => details.spa?.name ?? brand.name;
const what = (details: BookingDetails) => details.service?.name ?? 'a consultation';

/**
 * A card payment that was not the booking's current one (an older price's,
 * or a second payment) was refunded by the site itself (issue 23.5).
 */
export function supersededRefundMail(details: BookingDetails, amountCents: number, origin: string): MailMessage {
  const paidNow = details.booking.paymentStatus === 'paid';
  return {
    to: details.booking.email,
    subject: `Refunded: a second payment for ${what(details)}`,
    ...renderEmail({
      preheader: `${formatDollars(amountCents)} is on its way back to your card.`,
      heading: 'We refunded a payment',
      paragraphs: [
        `A payment of ${formatDollars(amountCents)} for ${what(details)} at ${providerName(details)} went through on a payment form that was no longer current (${
          paidNow ? 'your booking was already paid' : 'the price had changed since the form was opened'
        }). We refunded it in full; depending on your bank it shows on your statement within 5 to 10 business days.`,
        paidNow
          ? 'Your booking stays paid; nothing else is needed.'
          : 'Your booking is not paid yet. To pay the current price, open the treatment again and use the new payment form.',
        `Questions? Call ${details.spa?.phone ?? contact.phone} or reply to this e-mail.`,
      ],
      action: { label: 'View your booking', url: manageUrl(details, origin) },
    }),
  };
}

/** The owner switched to Elite in Stripe's portal while the city's 3 Elite places were taken: the plan is back where it was. */
export function eliteSwitchUndoneMail(to: string, spaName: string, origin: string): MailMessage {
  return {
    to,
    subject: `Elite is full in your city: ${spaName} keeps its plan`,
    ...renderEmail({
      heading: 'Your plan change was undone',
      paragraphs: [
        `You switched ${spaName} to Elite, but your city already has the most Elite listings we allow (3 per city), so the switch could not take effect.`,
        'We put your subscription back on Premium; Stripe credits what the switch charged against your next invoice. Your listing keeps its Premium placement meanwhile.',
        `When a place opens, you can switch again from Manage billing. Questions? Write to ${contact.email}.`,
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

const KIND_NAMES: Record<MoneyKind, string> = {
  deposit: 'deposit',
  late_cancel_fee: 'late-cancellation fee',
  no_show_fee: 'no-show fee',
  refund: 'refund',
};

/** The facts of a receipt, one a line: what, for which visit, how much, Stripe's reference. */
function receiptLines(details: BookingDetails, row: LedgerRow, label: string): string {
  const when = details.booking.scheduledAt ? formatPacificDateTime(details.booking.scheduledAt) : null;
  return [
    `${label}: ${formatDollars(row.amountCents)}`,
    `For: ${what(details)} at ${providerName(details)}${when ? `, ${when}` : ''}`,
    `Date: ${formatPacificDateTime(row.updatedAt)}`,
    `Reference: ${row.stripeRefundId ?? row.stripePaymentIntentId ?? `payment ${row.id}`}`,
  ].join('\n');
}

/** The deposit was paid (Stripe's webhook said so): the client's receipt. */
export function depositReceiptMail(details: BookingDetails, row: LedgerRow, origin: string): MailMessage {
  return {
    to: details.booking.email,
    subject: `Receipt: ${formatDollars(row.amountCents)} deposit for ${what(details)}`,
    ...renderEmail({
      preheader: `Your deposit of ${formatDollars(row.amountCents)} is paid and counts toward your bill.`,
      heading: 'Your deposit is paid',
      paragraphs: [
        `Thank you. Your deposit for ${what(details)} at ${providerName(details)} is paid and counts toward your bill.`,
        receiptLines(details, row, 'Deposit'),
        'If you cancel in time, it is refunded in full; the link below shows the policy and lets you cancel.',
      ],
      action: { label: 'Manage your booking', url: manageUrl(details, origin) },
    }),
  };
}

/** A fee was charged (or kept from the deposit): the client's receipt. */
export function feeReceiptMail(details: BookingDetails, row: LedgerRow, origin: string): MailMessage {
  const kind = KIND_NAMES[row.kind];
  const fromDeposit = row.reason?.includes('deposit') ?? false;
  return {
    to: details.booking.email,
    subject: `Receipt: ${formatDollars(row.amountCents)} ${kind} from ${providerName(details)}`,
    ...renderEmail({
      heading: `A ${kind} was charged`,
      paragraphs: [
        `${providerName(details)} charged the ${kind} you agreed to when you booked ${what(details)}${fromDeposit ? ', from your deposit' : ', to your saved card'}.`,
        receiptLines(details, row, kind[0]!.toUpperCase() + kind.slice(1)),
        `Questions about it? Call ${details.spa?.phone ?? contact.phone}, or write to ${contact.email}.`,
      ],
      action: { label: 'View your booking', url: manageUrl(details, origin) },
    }),
  };
}

/** Money went back to the client: a deposit, the rest of one, or a fee. */
export function refundMail(details: BookingDetails, row: LedgerRow, origin: string): MailMessage {
  return {
    to: details.booking.email,
    subject: `Refunded: ${formatDollars(row.amountCents)} for ${what(details)}`,
    ...renderEmail({
      preheader: `${formatDollars(row.amountCents)} is on its way back to your card.`,
      heading: 'We refunded you',
      paragraphs: [
        `${formatDollars(row.amountCents)} for ${what(details)} at ${providerName(details)} was refunded to your card. Depending on your bank, it shows on your statement within 5 to 10 business days.`,
        receiptLines(details, row, 'Refund'),
      ],
      action: { label: 'View your booking', url: manageUrl(details, origin) },
    }),
  };
}

/** The client's bank wants them to confirm a fee the spa charged: the link to do it. */
export function authenticationNeededMail(details: BookingDetails, row: LedgerRow, origin: string): MailMessage {
  const kind = KIND_NAMES[row.kind];
  return {
    to: details.booking.email,
    subject: `Action needed: confirm the ${formatDollars(row.amountCents)} ${kind} with your bank`,
    ...renderEmail({
      preheader: 'Your bank asks you to confirm a payment.',
      heading: 'Your bank asks you to confirm a payment',
      paragraphs: [
        `${providerName(details)} charged the ${formatDollars(row.amountCents)} ${kind} you agreed to when you booked ${what(details)}. Your bank wants you to confirm it before it goes through.`,
        'Open the link below to confirm it with your bank. Nothing is charged until you do.',
      ],
      action: { label: 'Confirm the payment', url: new URL(`/bookings/secure/${details.booking.manageToken}`, origin).href },
    }),
  };
}
