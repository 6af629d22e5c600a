// Who may move a booking or a lead where (rulings, Bookings and leads). Pure:
// the server module loads the booking, asks here, and writes what this allows.
//
//   pending -> confirmed -> completed        (the spa's owner or an admin)
//   pending | confirmed -> cancelled         (owner or admin; the client before the appointment,
//                                            and for a confirmed one before the spa's cancellation window;
//                                            inside it too when the booking carries a late-cancellation fee
//                                            the client was shown and accepts: a late cancellation)
//   confirmed -> confirmed at a new time     (reschedule; the calendar event is updated)
//   a booked or held open time -> another    (the client, from the manage link, while they could still
//                                            cancel it online; its status stays, decideClientMove)
// No-show protection (issue 25) adds, beside the status: a booking waiting for
// its card step cannot be confirmed by the spa yet, and one marked as a
// no-show cannot be completed.
import type { BookingStatus } from '#db/schema.ts';
import { startOfPacificDay } from './dates.ts';
import { conflict, forbidden, invalid, ok, type Result } from './result.ts';

export type BookingActor = 'client' | 'owner' | 'admin';
export type LeadStatus = 'new' | 'contacted' | 'converted' | 'lost';

export interface BookingState {
  status: BookingStatus;
  preferredDate: string | null;
  scheduledAt: Date | null;
  /** The spa's cancellation window in hours; unknown means the default. */
  cancellationWindowHours?: number | null;
  /** No-show protection: the card step's state (null: none asked). */
  secureStatus?: string | null;
  /** The fee a cancellation inside the window costs, as agreed at booking (null: none; the client then calls the spa). */
  lateCancelFeeCents?: number | null;
  /** When the spa marked the client absent. */
  noShowAt?: Date | null;
}

/** A spa's cancellation window unless it sets its own (spas.cancellation_window_hours). */
export const DEFAULT_CANCELLATION_WINDOW_HOURS = 24;
/** The window an owner may set: none at all, up to a week. */
export const CANCELLATION_WINDOW_RANGE = { min: 0, max: 168 } as const;

/**
 * From when on the client must call the spa instead of cancelling online: the
 * window before a confirmed appointment. A pending request has no appointment
 * yet, so only its date arriving ends self-service (below).
 */
export function selfCancelDeadline(booking: BookingState): Date | null {
  if (booking.status !== 'confirmed' || !booking.scheduledAt) return null;
  const hours = booking.cancellationWindowHours ?? DEFAULT_CANCELLATION_WINDOW_HOURS;
  return new Date(booking.scheduledAt.getTime() - hours * 3_600_000);
}

/** The one line the spa page shows about its window. */
export function cancellationPolicyLine(hours: number): string {
  if (hours <= 0) return 'Free cancellation up to the time of your appointment';
  return `Free cancellation up to ${hours} ${hours === 1 ? 'hour' : 'hours'} before`;
}

export type BookingChange =
  | { status: 'confirmed'; scheduledAt: Date }
  | { status: 'completed' }
  /** `acceptFeeCents`: the late-cancellation fee the client was shown and accepts (their cancellation inside the window). */
  | { status: 'cancelled'; acceptFeeCents?: number }
  | { reschedule: Date };

/**
 * The booking's next status and time (and whether a cancellation is late);
 * refused as forbidden (not theirs to do), conflict (coded
 * invalid_transition, too_late, inside_cancellation_window, fee_applies,
 * card_pending) or invalid.
 */
export type Decision = Result<{ status: BookingStatus; scheduledAt: Date | null; lateCancel?: boolean }, 'forbidden' | 'conflict' | 'invalid'>;

/** When the appointment is: the confirmed time, else the start of the preferred day, else unknown. */
export function appointmentStart(booking: BookingState): Date | null {
  if (booking.scheduledAt) return booking.scheduledAt;
  return booking.preferredDate ? startOfPacificDay(booking.preferredDate) : null;
}

const FUTURE_TIME = 'The appointment time must be in the future.';

export function decideBookingChange(booking: BookingState, change: BookingChange, actor: BookingActor, now = new Date()): Decision {
  const staff = actor === 'owner' || actor === 'admin';
  const { status } = booking;

  if ('reschedule' in change || change.status === 'confirmed') {
    const at = 'reschedule' in change ? change.reschedule : change.scheduledAt;
    if (!staff) return forbidden('Only the spa can set the appointment time.');
    const from: BookingStatus = 'reschedule' in change ? 'confirmed' : 'pending';
    if (status !== from) {
      return conflict(
        'reschedule' in change
          ? `Only a confirmed booking can be rescheduled; this one is ${status}.`
          : `Only a pending booking can be confirmed; this one is ${status}.`,
        { code: 'invalid_transition' },
      );
    }
    if (at.getTime() <= now.getTime()) return invalid({ scheduledAt: FUTURE_TIME }, FUTURE_TIME);
    if (booking.secureStatus === 'awaiting' || booking.secureStatus === 'expired') {
      return conflict('The client has not saved their card for this booking yet, so it cannot be confirmed.', { code: 'card_pending' });
    }
    return ok({ status: 'confirmed', scheduledAt: at });
  }

  if (change.status === 'completed') {
    if (!staff) return forbidden('Only the spa can mark a booking completed.');
    if (status !== 'confirmed') return conflict(`Only a confirmed booking can be completed; this one is ${status}.`, { code: 'invalid_transition' });
    if (booking.noShowAt) return conflict('This booking is marked as a no-show, so it cannot be completed.', { code: 'invalid_transition' });
    if (booking.scheduledAt && booking.scheduledAt.getTime() > now.getTime()) {
      return conflict('The appointment has not taken place yet.', { code: 'invalid_transition' });
    }
    return ok({ status: 'completed', scheduledAt: booking.scheduledAt });
  }

  if (change.status === 'cancelled') {
    if (status !== 'pending' && status !== 'confirmed') return conflict(`A ${status} booking cannot be cancelled.`, { code: 'invalid_transition' });
    if (actor === 'client') {
      const start = appointmentStart(booking);
      if (start && start.getTime() <= now.getTime()) {
        return conflict('The appointment date has arrived; call the spa to cancel.', { code: 'too_late' });
      }
      const deadline = selfCancelDeadline(booking);
      if (deadline && deadline.getTime() <= now.getTime()) {
        const hours = booking.cancellationWindowHours ?? DEFAULT_CANCELLATION_WINDOW_HOURS;
        // A fee agreed at booking replaces the phone call: the client cancels online once they accept it, as shown.
        const fee = booking.secureStatus === 'secured' ? (booking.lateCancelFeeCents ?? null) : null;
        if (fee !== null) {
          if (change.acceptFeeCents === fee) return ok({ status: 'cancelled', scheduledAt: booking.scheduledAt, lateCancel: true });
          return conflict(
            `Your appointment is less than ${hours} ${hours === 1 ? 'hour' : 'hours'} away: cancelling now is a late cancellation, for which the spa may charge the fee you agreed to. Confirm to cancel.`,
            { code: 'fee_applies', details: { feeCents: fee } },
          );
        }
        return conflict(
          `Your appointment is less than ${hours} ${hours === 1 ? 'hour' : 'hours'} away, so it can no longer be cancelled online. Call the spa to cancel or change it.`,
          { code: 'inside_cancellation_window' },
        );
      }
    }
    return ok({ status: 'cancelled', scheduledAt: booking.scheduledAt });
  }

  return invalid({}, 'Unknown change.');
}

/**
 * Whether the client may move their booking to another open time from the
 * manage link (issue 24): only while they could still cancel it online (the
 * spa's cancellation window), only a booking with a time, and a confirmed one
 * only at a spa that books instantly: at a spa that confirms each time itself,
 * a confirmed appointment is changed by the spa (the client calls, or cancels
 * and books again). The status stays what it was: a held time stays held for
 * the spa's answer, a confirmed one stays confirmed at the new time.
 */
export function decideClientMove(booking: BookingState, mode: 'instant' | 'request', now = new Date()): Result<void, 'forbidden' | 'conflict' | 'invalid'> {
  const cancel = decideBookingChange(booking, { status: 'cancelled' }, 'client', now);
  if (!cancel.ok) {
    if (cancel.code === 'inside_cancellation_window') {
      const hours = booking.cancellationWindowHours ?? DEFAULT_CANCELLATION_WINDOW_HOURS;
      return conflict(
        `Your appointment is less than ${hours} ${hours === 1 ? 'hour' : 'hours'} away, so it can no longer be changed online. Call the spa to change it.`,
        {
          code: cancel.code,
        },
      );
    }
    return cancel.code === 'too_late' ? conflict('The appointment date has arrived; call the spa to change it.', { code: 'too_late' }) : cancel;
  }
  if (!booking.scheduledAt) return conflict('This request has no time yet; the spa will confirm one.', { code: 'invalid_transition' });
  if (booking.status === 'confirmed' && mode !== 'instant') {
    return conflict('The spa confirmed this time itself. To change it, call the spa, or cancel and book another time.', { code: 'invalid_transition' });
  }
  return ok(undefined);
}

const LEAD_MOVES: Record<LeadStatus, readonly LeadStatus[]> = {
  new: ['contacted', 'lost'],
  contacted: ['converted', 'lost'],
  converted: [],
  lost: [],
};

/** Lead status: new -> contacted -> converted, or (from new or contacted) lost. */
export function canMoveLead(from: LeadStatus, to: LeadStatus): boolean {
  return LEAD_MOVES[from].includes(to);
}

export const leadMoves = (from: LeadStatus): readonly LeadStatus[] => LEAD_MOVES[from];

/**
 * Where a booking's lead goes when the booking moves (issue 26: a lead stayed
 * "new" after its booking was confirmed, completed or declined). The spa
 * confirming is the spa in contact; a visit that took place converted the
 * lead; a cancelled booking lost it. A lead already converted or lost stays.
 */
export function leadStatusForBooking(booking: BookingStatus, lead: LeadStatus): LeadStatus {
  if (lead === 'converted' || lead === 'lost') return lead;
  if (booking === 'confirmed') return 'contacted';
  if (booking === 'completed') return 'converted';
  if (booking === 'cancelled') return 'lost';
  return lead;
}
