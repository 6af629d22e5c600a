// What an owner sets about hours and online booking (issue 24): the spa's
// rules and mode, weekly hours, closed dates and one-off hours, rooms, each
// service's online booking and buffer, each clinician's hours and time off.
// The page (/owner/spas/{id}/availability) has checked who may act on the
// spa; every write here is scoped to that spa, so an id from a form never
// reaches another spa's row. A change of hours or time off first asks
// affectedBy: bookings it would leave outside the hours are shown to the
// owner, who keeps them or cancels them (the client is told), never dropped.
import { and, asc, eq, gte, inArray, isNotNull } from 'drizzle-orm';
import { bookings, clinicians, clinicianTimeOff, services, spaDateHours, spas } from '#db/schema.ts';
import type { BookingRulesInput, DateHoursInput, ServiceBookingInput, TimeOffInput } from '#lib/availability-schema.ts';
import { AVAILABILITY_MESSAGES } from '#lib/availability-schema.ts';
import { outsideHours, whenLabel, type SpaCalendar } from '#lib/availability.ts';
import { isOpenAtAll, type DayHours, type WeeklyHours } from '#lib/opening-hours.ts';
import { db } from '../db.ts';
import { findOfSpa } from '../db-helpers.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { announceBookingChange } from '../bookings/booking-mail.ts';
import { changeBooking } from '../bookings/bookings.ts';
import { ACTIVE_STATUSES, cliniciansOf, loadCalendar } from './calendar.ts';
import { invalid, notFound, ok, type Result } from '#lib/result.ts';

/** The spa's hours as the pages show them: the data, and the old text that did not read as hours. */
export function readSpaHours(spaId: number): { week: WeeklyHours | null; note: string | null } | null {
  const row = db.select({ week: spas.openingHours, note: spas.hoursNote }).from(spas).where(eq(spas.id, spaId)).get();
  return row ?? null;
}

/** The spas among `spaIds` whose old hours did not read as times (migration 0017): the dashboard asks their owner to set them. */
export function hoursNotesOf(spaIds: number[]): Map<number, string> {
  if (spaIds.length === 0) return new Map();
  const rows = db
    .select({ id: spas.id, note: spas.hoursNote })
    .from(spas)
    .where(and(inArray(spas.id, spaIds), isNotNull(spas.hoursNote)))
    .all();
  return new Map(rows.map((row) => [row.id, row.note!]));
}

/** Everything the availability page shows and edits. */
export function readAvailability(spaId: number, today: string) {
  const spa = db
    .select({
      bookingMode: spas.bookingMode,
      minNoticeMinutes: spas.minNoticeMinutes,
      bookingHorizonDays: spas.bookingHorizonDays,
      slotStepMinutes: spas.slotStepMinutes,
      treatmentRooms: spas.treatmentRooms,
      openingHours: spas.openingHours,
      hoursNote: spas.hoursNote,
    })
    .from(spas)
    .where(eq(spas.id, spaId))
    .get();
  if (!spa) return null;
  const dates = db
    .select()
    .from(spaDateHours)
    .where(and(eq(spaDateHours.spaId, spaId), gte(spaDateHours.date, today)))
    .orderBy(asc(spaDateHours.date))
    .all();
  const staff = cliniciansOf(db, spaId, today);
  const serviceRows = db
    .select({
      id: services.id,
      name: services.name,
      duration: services.duration,
      treatment: services.treatment,
      bookableOnline: services.bookableOnline,
      bufferAfterMinutes: services.bufferAfterMinutes,
    })
    .from(services)
    .where(and(eq(services.spaId, spaId), eq(services.active, true)))
    .orderBy(asc(services.name))
    .all();
  return {
    ...spa,
    dates,
    clinicians: staff,
    services: serviceRows.map((s) => ({
      ...s,
      // Online booking needs someone who performs it (a service without a treatment key: anyone).
      performedBy: staff.filter((c) => s.treatment === null || c.treatments.includes(s.treatment)).length,
    })),
  };
}

export type Availability = NonNullable<ReturnType<typeof readAvailability>>;

// --- what a change would leave outside the hours ------------------------------------

/** A change of hours or time off, applied to the calendar in memory to see what it leaves out. */
export type HoursChange =
  | { kind: 'week'; week: WeeklyHours | null }
  | { kind: 'date'; date: string; ranges: DayHours }
  | { kind: 'clinician-hours'; clinicianId: number; week: WeeklyHours | null }
  | { kind: 'time-off'; clinicianId: number; firstDay: string; lastDay: string };

export interface AffectedBooking {
  id: number;
  name: string;
  serviceName: string | null;
  status: string;
  when: string;
  calendarSequence: number;
}

function applyChange(calendar: SpaCalendar, change: HoursChange): SpaCalendar {
  switch (change.kind) {
    case 'week':
      return { ...calendar, hours: change.week };
    case 'date':
      return { ...calendar, dateHours: new Map([...calendar.dateHours, [change.date, change.ranges]]) };
    case 'clinician-hours':
      return { ...calendar, clinicians: calendar.clinicians.map((c) => (c.id === change.clinicianId ? { ...c, workingHours: change.week } : c)) };
    case 'time-off':
      return {
        ...calendar,
        clinicians: calendar.clinicians.map((c) =>
          c.id === change.clinicianId ? { ...c, timeOff: [...c.timeOff, { firstDay: change.firstDay, lastDay: change.lastDay }] } : c,
        ),
      };
  }
}

/** The spa's upcoming bookings with a time that `change` would leave outside its hours. */
export function affectedBy(spaId: number, change: HoursChange, now = Date.now()): AffectedBooking[] {
  const upcoming = db
    .select({
      id: bookings.id,
      name: bookings.name,
      status: bookings.status,
      start: bookings.scheduledAt,
      endsAt: bookings.endsAt,
      clinicianId: bookings.clinicianId,
      room: bookings.room,
      bufferMinutes: bookings.bufferMinutes,
      calendarSequence: bookings.calendarSequence,
      serviceName: services.name,
      duration: services.duration,
    })
    .from(bookings)
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .where(and(eq(bookings.spaId, spaId), gte(bookings.scheduledAt, new Date(now)), inArray(bookings.status, [...ACTIVE_STATUSES])))
    .all()
    .map((b) => ({
      ...b,
      start: b.start!.getTime(),
      end: b.endsAt?.getTime() ?? b.start!.getTime() + (b.duration ?? 30) * 60_000,
    }));
  if (upcoming.length === 0) return [];
  const last = Math.max(...upcoming.map((b) => b.end));
  const calendar = applyChange(loadCalendar(db, spaId, now, last), change);
  return outsideHours(calendar, upcoming).map((b) => ({
    id: b.id,
    name: b.name,
    serviceName: b.serviceName,
    status: b.status,
    when: whenLabel(b.start),
    calendarSequence: b.calendarSequence,
  }));
}

/**
 * The owner's answer about bookings a change leaves outside the hours:
 * `keep` leaves them as they are; `cancel` cancels each through the booking
 * lifecycle (as the dashboard's Cancel does), and its client is told.
 * Returns how many were cancelled.
 */
export function settleAffected(affected: AffectedBooking[], decision: 'keep' | 'cancel', user: SessionUser, origin: string): number {
  if (decision === 'keep') return 0;
  let cancelled = 0;
  for (const booking of affected) {
    const result = changeBooking(booking.id, { status: 'cancelled' }, { user }, new Date(), booking.calendarSequence);
    if (!result.ok) continue;
    announceBookingChange(result.value.before, result.value.after, false, origin);
    cancelled++;
  }
  return cancelled;
}

// --- writes -----------------------------------------------------------------------

export function saveBookingRules(spaId: number, input: BookingRulesInput): Result<void, 'not_found' | 'invalid'> {
  const spa = db.select({ hours: spas.openingHours }).from(spas).where(eq(spas.id, spaId)).get();
  if (!spa) return notFound('This listing no longer exists.');
  if (input.bookingMode !== 'none' && !(spa.hours && isOpenAtAll(spa.hours))) {
    return invalid({ bookingMode: AVAILABILITY_MESSAGES.needsHours }, AVAILABILITY_MESSAGES.needsHours);
  }
  db.update(spas)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(spas.id, spaId))
    .run();
  return ok();
}

/** The weekly hours; a week closed every day is "not listed" (null), and online booking stops with them. */
export function saveWeeklyHours(spaId: number, week: WeeklyHours): void {
  const listed = isOpenAtAll(week) ? week : null;
  db.update(spas)
    .set({ openingHours: listed, hoursNote: null, ...(listed ? {} : { bookingMode: 'none' as const }), updatedAt: new Date() })
    .where(eq(spas.id, spaId))
    .run();
}

export function saveDateHours(spaId: number, input: DateHoursInput): void {
  const values = { spaId, date: input.date, ranges: input.ranges, note: input.note };
  db.insert(spaDateHours)
    .values(values)
    .onConflictDoUpdate({ target: [spaDateHours.spaId, spaDateHours.date], set: { ranges: values.ranges, note: values.note } })
    .run();
}

export function removeDateHours(spaId: number, date: string): boolean {
  return (
    db
      .delete(spaDateHours)
      .where(and(eq(spaDateHours.spaId, spaId), eq(spaDateHours.date, date)))
      .run().changes === 1
  );
}

export function saveServiceBooking(spaId: number, serviceId: number, input: ServiceBookingInput): boolean {
  const service = findOfSpa(db, services, spaId, serviceId);
  if (!service) return false;
  db.update(services)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(services.id, service.id))
    .run();
  return true;
}

/** A clinician's working week; null: whenever the spa is open. */
export function saveClinicianHours(spaId: number, clinicianId: number, week: WeeklyHours | null): boolean {
  const clinician = findOfSpa(db, clinicians, spaId, clinicianId);
  if (!clinician) return false;
  db.update(clinicians).set({ workingHours: week, updatedAt: new Date() }).where(eq(clinicians.id, clinician.id)).run();
  return true;
}

export function addTimeOff(spaId: number, clinicianId: number, input: TimeOffInput): boolean {
  const clinician = findOfSpa(db, clinicians, spaId, clinicianId);
  if (!clinician) return false;
  db.insert(clinicianTimeOff)
    .values({ clinicianId: clinician.id, ...input })
    .run();
  return true;
}

export function removeTimeOff(spaId: number, timeOffId: number): boolean {
  const row = db
    .select({ id: clinicianTimeOff.id })
    .from(clinicianTimeOff)
    .innerJoin(clinicians, eq(clinicianTimeOff.clinicianId, clinicians.id))
    .where(and(eq(clinicianTimeOff.id, timeOffId), eq(clinicians.spaId, spaId)))
    .get();
  if (!row) return false;
  return db.delete(clinicianTimeOff).where(eq(clinicianTimeOff.id, row.id)).run().changes === 1;
}
