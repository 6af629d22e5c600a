// The mails of a booked open time that the request flow's mails do not say
// (issue 24): the spa learns of an instant booking, and both sides of a time
// held for the spa to confirm. An instant booking's client gets the owner's
// confirmation mail itself (booking-mail.ts statusChangeMail, with its .ics and
// manage link), and its reminders are scheduled as a confirmation schedules them.
// As every client mail, nothing the client typed is in the client's mail.
import { brand } from '#content/site.ts';
import { whenLabel } from '#lib/availability.ts';
import { priceLabel } from '#lib/services.ts';
import { bookingCalendarEvent, manageUrl, statusChangeMail } from '../bookings/booking-mail.ts';
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

/**
 * The client's mail after they moved their booking (issue 24): a confirmed
 * time carries the calendar event again with its higher SEQUENCE (so the
 * calendar moves the one event it has), a held one says the spa will confirm.
 */
export function movedMail(before: BookingDetails, after: BookingDetails, origin: string): MailMessage {
  const confirmed = after.booking.status === 'confirmed';
  const from = when(before);
  return {
    to: after.booking.email,
    subject: confirmed ? `New time: ${serviceName(after)} at ${spaName(after)}` : `Requested: ${serviceName(after)} at ${spaName(after)}`,
    ...(confirmed ? { icalEvent: { method: 'REQUEST' as const, content: bookingCalendarEvent(after, 'REQUEST', origin) } } : {}),
    ...renderEmail({
      preheader: confirmed ? when(after) : `${when(after)}. The spa will confirm.`,
      heading: confirmed ? 'Your appointment has a new time' : 'Your new time is held',
      paragraphs: [
        confirmed
          ? `Your ${serviceName(after)} at ${spaName(after)} is now on ${when(after)} (it was ${from}).`
          : `${spaName(after)} holds ${when(after)} for your ${serviceName(after)} (instead of ${from}). The spa will confirm it, and we will e-mail you when it does.`,
        confirmed ? 'The attached invitation updates the appointment in your calendar.' : 'You can check where your request stands, or cancel it, at any time:',
      ],
      action: { label: 'Manage your booking', url: manageUrl(after, origin) },
    }),
  };
}

/** The spa's news that a client moved their booking. */
export function spaMovedMail(before: BookingDetails, after: BookingDetails, origin: string): MailMessage | null {
  const to = after.inbox;
  if (!to) return null;
  const { booking } = after;
  const held = booking.status === 'pending';
  return {
    to,
    replyTo: booking.email,
    subject: `${held ? 'New time requested' : 'Moved'}: ${serviceName(after)}, ${when(after)}`,
    ...renderEmail({
      preheader: `${booking.name}: ${when(before)} -> ${when(after)}`,
      heading: held ? 'A client asked for another time' : 'A client moved their booking',
      paragraphs: [
        held
          ? `${booking.name} asked to move their ${serviceName(after)} from ${when(before)} to ${when(after)}. The new time is held for them until you confirm or decline it from your dashboard.`
          : `${booking.name} moved their ${serviceName(after)} from ${when(before)} to ${when(after)}. The booking stays confirmed and the client's calendar is updated.`,
        facts(after),
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

/** Sends what a move sends: the client's mail, the spa's, and the reminders of the new time. */
export function announceMovedBooking(before: BookingDetails, after: BookingDetails, origin: string): void {
  sendMailInBackground(movedMail(before, after, origin));
  const spaMail = spaMovedMail(before, after, origin);
  if (spaMail) sendMailInBackground(spaMail);
  syncBookingReminders(after, origin);
}
