// The owner dashboard's forms (plain HTML posts, so they work without
// JavaScript): confirm, reschedule, complete or cancel a booking, move a lead.
// The same schemas and lifecycle as PATCH /api/bookings/{id} and /api/leads/{id}.
import { bookingChangeSchema, cancelReasonSchema, leadChangeSchema } from '#lib/booking-schema.ts';
import { parseId } from '#lib/ids.ts';
import { fieldErrors, invalid, malformed, ok, type Result } from '#lib/result.ts';
import { announceBookingChange } from './booking-mail.ts';
import { changeBooking, changeLeadStatus } from './bookings.ts';
import type { SessionUser } from '../auth/sessions.ts';

/** What the dashboard says after a change; the redirect carries only the key. */
export const DASHBOARD_NOTICES = {
  'booking-confirmed': 'Booking confirmed. The client has the invitation in their inbox.',
  'booking-rescheduled': 'New time saved. The client’s calendar invitation is updated.',
  'booking-completed': 'Booking marked completed.',
  'booking-cancelled': 'Booking cancelled. The client has been told.',
  'booking-declined': 'Request declined. The client has been told.',
  'lead-updated': 'Lead updated.',
} as const;

export type DashboardNotice = keyof typeof DASHBOARD_NOTICES;
export type DashboardActionResult = Result<DashboardNotice>;

const text = (value: FormDataEntryValue | null) => (typeof value === 'string' && value !== '' ? value : undefined);

export function handleDashboardAction(form: Pick<URLSearchParams, 'get'>, user: SessionUser, origin: string): DashboardActionResult {
  const intent = form.get('intent');
  const targetId = parseId(form.get('id'));
  if (targetId === null) return malformed('That item could not be found. Reload the page and try again.');

  if (intent === 'booking') {
    const parsed = bookingChangeSchema.safeParse({ status: text(form.get('status')), scheduledAt: text(form.get('scheduledAt')) });
    if (!parsed.success) return invalid(fieldErrors(parsed.error), parsed.error.issues[0]?.message ?? 'Choose a date and time for the appointment');
    // A decline or cancellation may say why; the client's mail carries it.
    const reason = cancelReasonSchema.safeParse(text(form.get('reason')));
    if (!reason.success) return invalid(fieldErrors(reason.error), reason.error.issues[0]?.message ?? 'The reason could not be read');
    const seen = form.get('sequence');
    const seenSequence = typeof seen === 'string' && /^\d{1,9}$/.test(seen) ? Number(seen) : undefined;
    const result = changeBooking(targetId, parsed.data, { user }, new Date(), seenSequence);
    if (!result.ok) return result;
    const { before, after } = result.value;
    announceBookingChange(before, after, false, origin, after.booking.status === 'cancelled' ? (reason.data ?? undefined) : undefined);
    const rescheduled = 'reschedule' in parsed.data;
    if (after.booking.status === 'cancelled' && before.booking.status === 'pending') return ok('booking-declined');
    return ok(rescheduled ? 'booking-rescheduled' : (`booking-${after.booking.status}` as DashboardNotice));
  }

  if (intent === 'lead') {
    const parsed = leadChangeSchema.safeParse({ status: text(form.get('status')) });
    if (!parsed.success) return invalid(fieldErrors(parsed.error), parsed.error.issues[0]?.message ?? 'Choose a status');
    const result = changeLeadStatus(targetId, parsed.data.status, user);
    return result.ok ? ok('lead-updated') : result;
  }

  return malformed('Unknown action.');
}
