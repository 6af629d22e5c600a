// The mails money sends, from the project's own address (Stripe's receipts
// are not relied on): the client hears of every refund the site made on its
// own, and the owner of a plan switch the city's Elite cap undid. Like every
// client mail, nothing a client typed is in them.
import { brand, contact } from '#content/site.ts';
import { formatDollars } from '#lib/money.ts';
import { manageUrl } from '../bookings/booking-mail.ts';
import type { BookingDetails } from '../bookings/bookings.ts';
import { renderEmail } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';

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
