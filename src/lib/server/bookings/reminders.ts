// The client's reminders of a confirmed booking (issue 14): the day before and,
// for appointments set more than 2 days ahead, the morning of. When they go out
// is decided in ../reminders.ts; this module writes them to the durable mail
// queue under one key per booking and kind, so a new time replaces them and a
// cancellation drops them (docs/decisions/0017-reminders-and-response-time.md).
import { brand } from '#content/site.ts';
import { formatPacificDateTime } from '#lib/dates.ts';
import { directionsUrl } from '#lib/outbound.ts';
import { planReminders, REMINDER_KINDS, reminderKey, type ReminderKind } from '#lib/reminders.ts';
import { priceLabel } from '#lib/services.ts';
import { bookingCalendarEvent, manageUrl } from './booking-mail.ts';
import type { BookingDetails } from './bookings.ts';
import { scheduleMail, unscheduleMail } from '../mail/mail.ts';
import { renderEmail } from '../mail/layout.ts';
import type { MailSchedule } from '../mail/queue.ts';
import type { MailMessage } from '../mail/mailer.ts';

/** Where reminders are queued: the app's mail queue, or a test's. */
export interface ReminderQueue {
  schedule(message: MailMessage, when: MailSchedule): unknown;
  unschedule(keys: readonly string[]): unknown;
}

const appQueue: ReminderQueue = { schedule: scheduleMail, unschedule: unscheduleMail };

/** The reminder of one confirmed booking: when and where in our words and the listing's facts, the invitation, and the manage link. */
export function reminderMail(details: BookingDetails, kind: ReminderKind, origin: string): MailMessage {
  const { booking, service, spa } = details;
  if (!booking.scheduledAt) throw new Error(`booking ${booking.id} has no appointment time`);
  const provider = spa?.name ?? brand.name;
  const what = service?.name ?? 'consultation';
  const when = formatPacificDateTime(booking.scheduledAt);
  const address = spa?.address ?? null;
  const map = spa ? directionsUrl(spa) : null;
  return {
    to: booking.email,
    subject: kind === 'morning-of' ? `Today: ${what} at ${provider}` : `Reminder: ${what} at ${provider}`,
    icalEvent: { method: 'REQUEST', content: bookingCalendarEvent(details, 'REQUEST', origin) },
    ...renderEmail({
      preheader: when,
      heading: kind === 'morning-of' ? 'Your appointment is today' : 'Your appointment is coming up',
      paragraphs: [
        `A reminder: ${provider} expects you for your ${what} on ${when} (Pacific time).`,
        [
          `Provider: ${provider}`,
          ...(service ? [`Treatment: ${service.name}`, `Duration: ${service.duration} minutes`, `Price: ${priceLabel(service)}`] : []),
          ...(address ? [`Address: ${address}`] : []),
          ...(map ? [`Map: ${map}`] : []),
          ...(spa?.phone ? [`Phone: ${spa.phone}`] : []),
        ].join('\n'),
        'The attached invitation keeps the appointment in your calendar. If your plans change, use the link below or call the spa.',
      ],
      action: { label: 'Manage your booking', url: manageUrl(details, origin) },
    }),
  };
}

/**
 * Brings the queued reminders in line with the booking as it now stands:
 * a confirmed time gets its reminders (replacing those of an earlier time),
 * anything else (cancelled, completed) drops them. `now` is when the time was
 * set: the change's own timestamp unless told otherwise.
 */
export function syncBookingReminders(details: BookingDetails, origin: string, queue: ReminderQueue = appQueue, now: Date = details.booking.updatedAt): void {
  const { booking } = details;
  const planned = booking.status === 'confirmed' && booking.scheduledAt ? planReminders(booking.scheduledAt, now) : [];
  const stale = REMINDER_KINDS.filter((kind) => !planned.some((p) => p.kind === kind)).map((kind) => reminderKey(booking.id, kind));
  queue.unschedule(stale);
  for (const { kind, at } of planned) {
    queue.schedule(reminderMail(details, kind, origin), { key: reminderKey(booking.id, kind), notBefore: at, notAfter: booking.scheduledAt });
  }
}
