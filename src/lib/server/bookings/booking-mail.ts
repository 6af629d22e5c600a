// The mails a booking sends: to the client when the request arrives and at
// every change, to the spa when a request arrives or the client cancels.
// Every one is sent in the background: a mail server that is slow or down
// never delays or fails the booking (mailer.ts retries and logs).
import { MAIL_FROM } from 'astro:env/server';
import { brand, contact } from '#content/site.ts';
import { buildCalendarEvent } from '#lib/calendar.ts';
import { formatLongDate, formatPacificDateTime } from '#lib/dates.ts';
import { formatDollars } from '#lib/money.ts';
import { priceLabel } from '#lib/services.ts';
import { syncBookingReminders } from './reminders.ts';
import type { BookingDetails } from './bookings.ts';
import { sendMailInBackground } from '../mail/mail.ts';
import { renderEmail } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { issueReviewInvitation } from '../trust/reviews.ts';
import { getStripe } from '../billing/billing.ts';
import { settleCancellation, snapshotOf } from '../billing/protection.ts';
import { policyLines } from '#lib/no-show-policy.ts';

/** Where a new request for this spa is announced: the spa's inbox (its owner, else its listed address), else the directory. */
const spaTo = (details: BookingDetails): string => details.inbox ?? contact.email;

const providerName = (details: BookingDetails) => details.spa?.name ?? brand.name;
const what = (details: BookingDetails) => details.service?.name ?? 'a consultation';

export const manageUrl = (details: BookingDetails, origin: string) => new URL(`/bookings/manage/${details.booking.manageToken}`, origin).href;

/** The request as both sides see it, one fact a line. */
function summaryLines(details: BookingDetails): string[] {
  const { booking, service } = details;
  return [
    `Provider: ${providerName(details)}`,
    `Treatment: ${service?.name ?? 'Consultation (not chosen yet)'}`,
    ...(service ? [`Duration: ${service.duration} minutes`, `Price: ${priceLabel(service)}`] : []),
    `Preferred date: ${booking.preferredDate ? formatLongDate(booking.preferredDate) : 'Flexible'}`,
  ];
}

/** A booking's no-show policy in plain words (dollars), when it has one: the client's mails and the calendar invitation carry it. */
function policyParagraphs(details: BookingDetails): string[] {
  const snapshot = snapshotOf(details.booking);
  return snapshot ? [`Booking policy:\n${policyLines(snapshot).join('\n')}`] : [];
}

/** The calendar event of a confirmed booking; the UID never changes, the sequence rises with each change. */
export function bookingCalendarEvent(details: BookingDetails, method: 'REQUEST' | 'CANCEL', origin: string): string {
  const { booking, service, spa } = details;
  if (!booking.scheduledAt) throw new Error(`booking ${booking.id} has no appointment time`);
  const domain = new URL(origin).hostname;
  return buildCalendarEvent({
    method,
    uid: `booking-${booking.id}@${domain}`,
    sequence: booking.calendarSequence,
    stamp: booking.updatedAt,
    start: booking.scheduledAt,
    // Consultations without a listed service get the usual half hour.
    durationMinutes: service?.duration ?? 30,
    summary: `${service?.name ?? 'Consultation'} at ${providerName(details)}`,
    description: [`Manage or cancel: ${manageUrl(details, origin)}`, ...policyParagraphs(details)].join('\n\n'),
    location: spa?.address ?? (details.cityName ? `${details.cityName}, CA` : undefined),
    url: manageUrl(details, origin),
    organizer: { name: providerName(details), email: addressOf(MAIL_FROM) },
    attendee: { name: booking.name, email: booking.email },
  });
}

/** The bare address in 'Name <address>'. */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/**
 * The client's receipt. Nobody has confirmed that the address belongs to the
 * person who filled in the form, so it carries nothing that person wrote: not
 * the message, not even the name (a name field holds any 100 characters,
 * "Claim your prize at ..." included). Only our own words and the listing's
 * facts, so the form cannot be used to send someone text of an attacker's
 * choosing from our address.
 */
export function requestReceivedMail(details: BookingDetails, origin: string): MailMessage {
  const provider = providerName(details);
  return {
    to: details.booking.email,
    subject: `We received your request for ${what(details)}`,
    ...renderEmail({
      preheader: 'We will contact you within 24 hours to confirm your appointment.',
      heading: 'Your request is in',
      paragraphs: [
        `Thank you. ${provider} has your request, and we'll contact you within 24 hours to confirm your appointment.`,
        summaryLines(details).join('\n'),
        ...policyParagraphs(details),
        'You can check where your request stands, or cancel it, at any time:',
      ],
      action: { label: 'View or cancel your request', url: manageUrl(details, origin) },
    }),
  };
}

export function newRequestMail(details: BookingDetails, origin: string): MailMessage {
  const { booking } = details;
  return {
    to: spaTo(details),
    replyTo: booking.email,
    subject: `New booking request from ${booking.name}`,
    ...renderEmail({
      preheader: `${booking.name} asked for ${what(details)}.`,
      heading: 'A new booking request',
      paragraphs: [
        `${booking.name} sent a request through ${brand.name}. The client has been told to expect your reply within 24 hours.`,
        [`Name: ${booking.name}`, `E-mail: ${booking.email}`, `Phone: ${booking.phone ?? 'not given'}`, ...summaryLines(details)].join('\n'),
        ...(booking.message ? [`Message:\n${booking.message}`] : []),
        'Reply to this e-mail to write to the client, or confirm a time from your dashboard.',
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

export type BookingEvent = 'confirmed' | 'rescheduled' | 'completed' | 'cancelled';

/**
 * The client's mail for a change; a confirmation or a new time carries the
 * invitation, a cancellation withdraws it. `reason`: what the spa wrote when
 * it declined or cancelled (its own words, from a signed-in owner).
 */
export function statusChangeMail(details: BookingDetails, event: BookingEvent, origin: string, wasScheduled: boolean, reason?: string): MailMessage {
  const { booking } = details;
  const provider = providerName(details);
  const when = booking.scheduledAt ? formatPacificDateTime(booking.scheduledAt) : null;
  const address = details.spa?.address ?? details.cityName ?? '';
  const manage = { label: 'Manage your booking', url: manageUrl(details, origin) };

  switch (event) {
    case 'confirmed':
    case 'rescheduled':
      return {
        to: booking.email,
        subject: event === 'confirmed' ? `Confirmed: ${what(details)} at ${provider}` : `New time: ${what(details)} at ${provider}`,
        icalEvent: { method: 'REQUEST', content: bookingCalendarEvent(details, 'REQUEST', origin) },
        ...renderEmail({
          preheader: `${when}`,
          heading: event === 'confirmed' ? 'Your appointment is confirmed' : 'Your appointment has a new time',
          paragraphs: [
            `${provider} ${event === 'confirmed' ? 'confirmed your appointment for' : 'moved your appointment to'} ${when}.`,
            [
              ...summaryLines(details).filter((line) => !line.startsWith('Preferred date')),
              ...(address ? [`Address: ${address}`] : []),
              ...(details.spa?.phone ? [`Phone: ${details.spa.phone}`] : []),
            ].join('\n'),
            ...policyParagraphs(details),
            'The attached invitation adds it to your calendar. If your plans change, you can cancel from the link below.',
          ],
          action: manage,
        }),
      };
    case 'completed':
      return {
        to: booking.email,
        subject: `Thank you for visiting ${provider}`,
        ...renderEmail({
          heading: 'Thank you for your visit',
          paragraphs: [
            `${provider} marked your ${what(details)} as completed. We hope you loved it.`,
            `Looking for your next treatment? ${brand.name} lists Orange County's medical spas.`,
          ],
          action: { label: 'Find your next treatment', url: new URL('/services', origin).href },
        }),
      };
    case 'cancelled':
      return {
        to: booking.email,
        subject: `Cancelled: ${what(details)} at ${provider}`,
        ...(wasScheduled && booking.scheduledAt ? { icalEvent: { method: 'CANCEL' as const, content: bookingCalendarEvent(details, 'CANCEL', origin) } } : {}),
        ...renderEmail({
          heading: 'Your booking is cancelled',
          paragraphs: [
            `Your booking for ${what(details)} at ${provider}${when && wasScheduled ? ` on ${when}` : ''} is cancelled.`,
            ...(reason ? [`${provider} wrote:\n${reason}`] : []),
            `If this is a surprise, call ${details.spa?.phone ?? contact.phone} or reply to this e-mail.`,
          ],
          action: { label: 'Book another time', url: new URL(details.spa ? `/booking?spa=${details.spa.id}` : '/#contact', origin).href },
        }),
      };
  }
}

/** Tells the spa that the client cancelled. */
export function clientCancelledMail(details: BookingDetails, origin: string): MailMessage {
  const { booking } = details;
  return {
    to: spaTo(details),
    replyTo: booking.email,
    subject: `Cancelled by the client: ${booking.name}`,
    ...renderEmail({
      heading: 'A client cancelled',
      paragraphs: [`${booking.name} cancelled their booking for ${what(details)}.`, summaryLines(details).join('\n')],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

const paidAmount = (details: BookingDetails) => (details.booking.paymentAmountCents ? formatDollars(details.booking.paymentAmountCents) : null);

/** Tells the spa that a booking was paid online (Stripe's payment_intent.succeeded, never the browser's word). */
export function bookingPaidMail(details: BookingDetails, origin: string): MailMessage {
  const { booking } = details;
  const amount = paidAmount(details);
  return {
    to: spaTo(details),
    replyTo: booking.email,
    subject: `Paid online: ${what(details)} for ${booking.name}`,
    ...renderEmail({
      preheader: `${booking.name} paid${amount ? ` ${amount}` : ''} for ${what(details)}.`,
      heading: 'A booking was paid',
      paragraphs: [
        `${booking.name} paid${amount ? ` ${amount}` : ''} online for ${what(details)}. The payment is confirmed by our payment provider.`,
        [`Name: ${booking.name}`, `E-mail: ${booking.email}`, ...(booking.phone ? [`Phone: ${booking.phone}`] : []), ...summaryLines(details)].join('\n'),
        'Confirm a time with the client from your dashboard, or reply to this e-mail to write to them.',
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

/** Tells the client that their payment was refunded in full (Stripe's charge.refunded). */
export function bookingRefundedMail(details: BookingDetails, origin: string): MailMessage {
  const amount = paidAmount(details);
  return {
    to: details.booking.email,
    subject: `Refunded: ${what(details)} at ${providerName(details)}`,
    ...renderEmail({
      heading: 'Your payment was refunded',
      paragraphs: [
        `Your payment${amount ? ` of ${amount}` : ''} for ${what(details)} at ${providerName(details)} was refunded in full. Depending on your bank, it shows on your statement within 5 to 10 business days.`,
        `Questions? Call ${details.spa?.phone ?? contact.phone} or reply to this e-mail.`,
      ],
      action: { label: 'View your booking', url: manageUrl(details, origin) },
    }),
  };
}

export function announceNewBooking(details: BookingDetails, origin: string): void {
  sendMailInBackground(requestReceivedMail(details, origin));
  sendMailInBackground(newRequestMail(details, origin));
}

export function announceBookingChange(before: BookingDetails, after: BookingDetails, byClient: boolean, origin: string, reason?: string): void {
  const wasScheduled = before.booking.status === 'confirmed';
  const event: BookingEvent =
    after.booking.status === 'confirmed'
      ? before.booking.status === 'confirmed'
        ? 'rescheduled'
        : 'confirmed'
      : after.booking.status === 'completed'
        ? 'completed'
        : 'cancelled';
  if (event === 'completed') return announceCompletedVisit(after, origin);
  sendMailInBackground(statusChangeMail(after, event, origin, wasScheduled, byClient ? undefined : reason));
  if (byClient && event === 'cancelled') sendMailInBackground(clientCancelledMail(after, origin));
  // No-show protection: a deposit goes back at once when the client cancelled in time or the spa cancelled (billing/protection.ts).
  if (event === 'cancelled') void settleCancellation(after, getStripe(), origin);
  // The reminders follow the booking: a new time moves them, a cancellation drops them.
  syncBookingReminders(after, origin);
}

// --- verified reviews (issue 14) ----------------------------------------------

/**
 * The client's thank-you for a completed visit, with the single-use link to
 * review it. Like every client mail it carries nothing the client typed, and
 * it offers nothing for a review (no incentives: the FTC's 2024 rule).
 */
export function reviewInvitationMail(details: BookingDetails, reviewUrl: string): MailMessage {
  const provider = providerName(details);
  return {
    to: details.booking.email,
    subject: `How was your visit to ${provider}?`,
    ...renderEmail({
      preheader: `Review your ${what(details)} at ${provider}.`,
      heading: 'Thank you for your visit',
      paragraphs: [
        `${provider} marked your ${what(details)} as completed.`,
        'Would you tell others how it went? Only clients with a completed booking can review a spa, so every review on our pages is from a real visit. We publish what you write, good or bad; the spa cannot change or hide it.',
        'The link below works once, for this visit only.',
      ],
      action: { label: 'Review your visit', url: reviewUrl },
    }),
  };
}

/** A visit completed: the review invitation, or the plain thank-you when the booking cannot be reviewed. */
export function announceCompletedVisit(details: BookingDetails, origin: string): void {
  const token = issueReviewInvitation(details.booking.id);
  sendMailInBackground(
    token ? reviewInvitationMail(details, new URL(`/reviews/write/${token}`, origin).href) : statusChangeMail(details, 'completed', origin, false),
  );
}
