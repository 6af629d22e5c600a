// The mails of a booked open time that the request flow's mails do not say
// (issue 24): the spa learns of an instant booking, and both sides of a time
// held for the spa to confirm. An instant booking's client gets the owner's
// confirmation mail itself (booking-mail.ts statusChangeMail, with its .ics and
// manage link), and its reminders are scheduled as a confirmation schedules them.
// As every client mail, nothing the client typed is in the client's mail.
import { brand } from '#content/site.ts';
import { whenLabel } from '#lib/availability.ts';
import { priceLabel } from '#lib/services.ts';
import { manageUrl, statusChangeMail } from '../bookings/booking-mail.ts';
import type { BookingDetails } from '../bookings/bookings.ts';
import { syncBookingReminders } from '../bookings/reminders.ts';
import { renderEmail } from '../mail/layout.ts';
import { sendMailInBackground } from '../mail/mail.ts';
import type { MailMessage } from '../mail/mailer.ts';

const spaName = (details: BookingDetails) => details.spa?.name ?? brand.name;
const serviceName = (details: BookingDetails) => details.service?.name ?? 'a consultation';
const when = (details: BookingDetails) => whenLabel(details.booking.scheduledAt!.getTime());

/** What the client is told on the page and in the JSON answer (rulings, Open times and instant booking). */
export function confirmationLine(details: BookingDetails): string {
  return details.booking.status === 'confirmed'
    ? `Booked: ${serviceName(details)} at ${spaName(details)}, ${when(details)}`
    : `Requested: ${serviceName(details)} at ${spaName(details)}, ${when(details)}. The spa will confirm.`;
}

function facts(details: BookingDetails): string {
  const { booking, service } = details;
  return [
    `Name: ${booking.name}`,
    `E-mail: ${booking.email}`,
    `Phone: ${booking.phone ?? 'not given'}`,
    `Treatment: ${serviceName(details)}`,
    ...(service ? [`Duration: ${service.duration} minutes`, `Price: ${priceLabel(service)}`] : []),
    `Time: ${when(details)}`,
  ].join('\n');
}

/** The spa's news of an open time booked: confirmed at once, or held for its answer. */
export function spaBookedMail(details: BookingDetails, origin: string): MailMessage | null {
  // The spa's inbox (its owner, else its listed address), as bookingDetails selects it.
  const to = details.inbox;
  if (!to) return null;
  const { booking } = details;
  const held = booking.status === 'pending';
  return {
    to,
    replyTo: booking.email,
    subject: held ? `Time requested: ${serviceName(details)}, ${when(details)}` : `New booking: ${serviceName(details)}, ${when(details)}`,
    ...renderEmail({
      preheader: `${booking.name}, ${when(details)}`,
      heading: held ? 'A client asked for an open time' : 'A client booked an open time',
      paragraphs: [
        held
          ? `${booking.name} chose ${when(details)} for ${serviceName(details)}. The time is held for them until you confirm or decline it from your dashboard.`
          : `${booking.name} booked ${serviceName(details)} for ${when(details)}. The booking is confirmed and the client has the calendar invitation.`,
        facts(details),
        ...(booking.message ? [`Message:\n${booking.message}`] : []),
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

/** The client's receipt of a held time: what they asked for, that the spa will confirm, and the manage link. */
export function timeHeldMail(details: BookingDetails, origin: string): MailMessage {
  return {
    to: details.booking.email,
    subject: `Requested: ${serviceName(details)} at ${spaName(details)}`,
    ...renderEmail({
      preheader: `${when(details)}. The spa will confirm.`,
      heading: 'Your time is held',
      paragraphs: [
        `${spaName(details)} holds ${when(details)} for your ${serviceName(details)}. The spa will confirm it, and we will e-mail you when it does.`,
        'You can check where your request stands, or cancel it, at any time:',
      ],
      action: { label: 'View or cancel your request', url: manageUrl(details, origin) },
    }),
  };
}

/** Sends what a booked open time sends: the instant confirmation (with its reminders) or the held time's receipt, and the spa's news. */
export function announceOpenTimeBooking(details: BookingDetails, origin: string): void {
  if (details.booking.status === 'confirmed') {
    sendMailInBackground(statusChangeMail(details, 'confirmed', origin, false));
    syncBookingReminders(details, origin);
  } else {
    sendMailInBackground(timeHeldMail(details, origin));
  }
  const spaMail = spaBookedMail(details, origin);
  if (spaMail) sendMailInBackground(spaMail);
}
