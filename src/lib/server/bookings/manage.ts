// The manage link's forms (/bookings/manage/{token}): cancel the booking, or
// move it to another open time (issue 24). Plain posts, answered by the page
// itself with what happened; the lifecycle decides who may do what.
import { whenLabel } from '#lib/availability.ts';
import { announceBookingChange } from './booking-mail.ts';
import { changeBooking } from './bookings.ts';
import { moveBooking } from '../availability/move.ts';
import { accepted, formRefusal, type FormRefusal } from '../forms.ts';

/** What the page says after a post: the booking cancelled, or moved to a new time (held or confirmed). */
export interface ManageOutcome {
  done: 'cancelled' | 'moved' | 'held' | null;
  /** The new time, after a move. */
  when?: string;
  /** The time a refused move asked for, so the picker can show its week again. */
  start?: string;
}

export function manageAction(form: URLSearchParams, id: number, token: string, origin: string, now = Date.now()): FormRefusal<ManageOutcome> {
  const intent = form.get('intent');
  if (intent === 'cancel') {
    const result = changeBooking(id, { status: 'cancelled' }, { manageToken: token }, new Date(now));
    if (!result.ok) return formRefusal<ManageOutcome>(result, { done: null }, { _: result.message });
    announceBookingChange(result.value.before, result.value.after, true, origin);
    return accepted(200, { done: 'cancelled' });
  }
  if (intent === 'reschedule') {
    const start = form.get('start') ?? '';
    const result = moveBooking(token, start, origin, now);
    if (!result.ok) return formRefusal<ManageOutcome>(result, { done: null, start }, { _: result.fields?.start ?? result.message });
    const { booking } = result.value.after;
    return accepted(200, { done: booking.status === 'confirmed' ? 'moved' : 'held', when: whenLabel(booking.scheduledAt!.getTime()) });
  }
  return accepted(200, { done: null });
}

/** The line the page shows for an outcome. */
export function manageNotice(outcome: ManageOutcome): string | null {
  switch (outcome.done) {
    case 'cancelled':
      return 'Your booking is cancelled. We have let the spa know.';
    case 'moved':
      return `Moved: your appointment is now ${outcome.when}. The updated calendar invitation is on its way to your inbox.`;
    case 'held':
      return `Your new time is held: ${outcome.when}. The spa will confirm it by e-mail.`;
    default:
      return null;
  }
}
