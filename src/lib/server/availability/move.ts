// A client moves their booking to another open time from the manage link
// (issue 24), with the same picker as booking. Who may, and when, is
// decideClientMove's (src/lib/booking-lifecycle.ts: while they could still
// cancel online; a confirmed time only at an instant spa). The new time is
// checked as a new booking is, inside ONE immediate transaction, with the
// booking itself left out of the calendar (moving by a quarter of an hour
// does not collide with itself); the status stays, the calendar sequence
// rises (the client's calendar and the owner's open dashboard both see the
// change), and the end, buffer, clinician and room follow the new time. The
// mails and reminders go out after the commit.
import { and, eq, sql } from 'drizzle-orm';
import { bookings, spas } from '#db/schema.ts';
import { checkTime, pacificMinutes } from '#lib/availability.ts';
import { decideClientMove } from '#lib/booking-lifecycle.ts';
import { OPEN_TIME_MESSAGES, parseInstant } from '#lib/open-time-schema.ts';
import { conflict, invalid, notFound, ok, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { bookingDetails, cancellationWindowOf, findBookingIdByManageToken, type BookingDetails } from '../bookings/bookings.ts';
import { alternativesFor, timeRefusal } from './book.ts';
import { findBookableService, findBookableSpa, loadCalendar, type BookableSpa } from './calendar.ts';
import { announceMovedBooking } from './mail.ts';
import { forgetSlots } from './slots.ts';

const MINUTE = 60_000;

/** A booking the manage page may offer to move: its spa (taking online bookings) and its service (bookable online). */
export interface MovableBooking {
  id: number;
  spa: BookableSpa;
  serviceId: number;
}

/**
 * Whether the booking can be moved online now; the spa and service it would
 * be moved with, or why not (the message the manage page shows).
 */
export function movableBooking(details: BookingDetails, now = Date.now()): Result<MovableBooking, 'forbidden' | 'conflict' | 'invalid' | 'not_found'> {
  const { booking } = details;
  const spa = booking.spaId === null ? null : findBookableSpa(db, booking.spaId);
  const service = spa && booking.serviceId !== null ? findBookableService(db, spa.id, booking.serviceId) : null;
  if (!spa || !service) return notFound('This booking cannot be moved online. Call the spa to change it.');
  const decided = decideClientMove({ ...booking, cancellationWindowHours: cancellationWindowOf(booking.spaId) }, spa.bookingMode, new Date(now));
  if (!decided.ok) return decided;
  return ok({ id: booking.id, spa, serviceId: service.id });
}

/** The manage link's booking id when it may be moved: the slots endpoint leaves it out of the calendar it answers for that client. */
export function movableBookingId(token: string, spaId: number): number | null {
  const id = findBookingIdByManageToken(token);
  const details = id === null ? null : bookingDetails(id);
  return details && details.booking.spaId === spaId ? details.booking.id : null;
}

export type MoveResult = Result<{ before: BookingDetails; after: BookingDetails }, 'invalid' | 'conflict' | 'not_found' | 'forbidden'>;

/** Moves the booking of a manage link to `start` (an instant as the slots endpoint writes it). */
export function moveBooking(token: string, start: string, origin: string, now = Date.now()): MoveResult {
  const id = findBookingIdByManageToken(token);
  const before = id === null ? null : bookingDetails(id);
  if (!before) return notFound('Booking not found.');
  const at = parseInstant(start);
  if (at === null) return invalid({ start: OPEN_TIME_MESSAGES.start }, OPEN_TIME_MESSAGES.start);
  if (before.booking.scheduledAt?.getTime() === at) return invalid({ start: 'That is your appointment’s time already. Choose another.' });

  const written = write(before, at, now);
  if (!written.ok) {
    if (written.reason !== 'conflict' || written.code !== 'slot_taken') return written;
    return conflict(written.message, {
      code: 'slot_taken',
      fields: written.fields,
      details: { alternatives: alternativesFor(before.booking.spaId!, before.booking.serviceId!, at, now) },
    });
  }
  forgetSlots(before.booking.spaId!);
  const after = bookingDetails(before.booking.id)!;
  announceMovedBooking(before, after, origin);
  return ok({ before, after });
}

function write(before: BookingDetails, start: number, now: number): Result<void, 'invalid' | 'conflict' | 'not_found' | 'forbidden'> {
  const taken = conflict(OPEN_TIME_MESSAGES.taken, { code: 'slot_taken', fields: { start: OPEN_TIME_MESSAGES.taken } });
  const { booking } = before;
  try {
    return db.transaction(
      (tx) => {
        // Read again under the lock: the booking as it is now decides.
        const current = tx
          .select({ status: bookings.status, scheduledAt: bookings.scheduledAt, preferredDate: bookings.preferredDate, sequence: bookings.calendarSequence })
          .from(bookings)
          .where(eq(bookings.id, booking.id))
          .get();
        const spa = booking.spaId === null ? null : findBookableSpa(tx, booking.spaId);
        const service = spa && booking.serviceId !== null ? findBookableService(tx, spa.id, booking.serviceId) : null;
        if (!current || !spa || !service) return notFound('This booking cannot be moved online. Call the spa to change it.');
        const decided = decideClientMove({ ...current, cancellationWindowHours: spa.cancellationWindowHours }, spa.bookingMode, new Date(now));
        if (!decided.ok) return decided;

        const calendar = loadCalendar(tx, spa.id, start, start + (service.duration + service.bufferAfterMinutes) * MINUTE, booking.id);
        const check = checkTime(calendar, service, { start, now });
        if (!check.ok) {
          if (check.reason === 'taken') return taken;
          const rules = tx.select({ minNoticeMinutes: spas.minNoticeMinutes }).from(spas).where(eq(spas.id, spa.id)).get()!;
          return timeRefusal(check.reason, { name: spa.name, minNoticeMinutes: rules.minNoticeMinutes, horizonDays: spa.horizonDays });
        }
        const changed = tx
          .update(bookings)
          .set({
            scheduledAt: new Date(start),
            endsAt: new Date(check.end),
            bufferMinutes: service.bufferAfterMinutes,
            clinicianId: check.clinicianIds[0]!,
            room: check.room,
            preferredDate: pacificMinutes(start).date,
            updatedAt: new Date(now),
            calendarSequence: sql`${bookings.calendarSequence} + 1`,
          })
          .where(and(eq(bookings.id, booking.id), eq(bookings.status, current.status), eq(bookings.calendarSequence, current.sequence)))
          .run();
        if (changed.changes === 0) return conflict('The booking changed while you were looking at it. Reload and try again.');
        return ok(undefined);
      },
      { behavior: 'immediate' },
    );
  } catch (error) {
    // The triggers' floor (migration 0017): another writer got there first.
    if (error instanceof Error && /slot_taken/.test(`${error.message} ${(error as { cause?: Error }).cause?.message ?? ''}`)) return taken;
    throw error;
  }
}
