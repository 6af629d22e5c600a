// A spa's calendar, read from the database for the availability engine
// (src/lib/availability.ts): its rules and hours, closed dates, clinicians with
// their hours and time off, rooms, and the timed bookings around the window
// asked about. The slots endpoint reads it through the app's handle; the
// booking transaction reads it again through its own, inside the write lock.
import { and, asc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookings, clinicians, clinicianTimeOff, services, spaDateHours, spas, type BookingMode } from '#db/schema.ts';
import { firstOpenTime, openTimes, pacificMidnight, pacificMinutes, type OpenDay, type OpenTime, type SpaCalendar } from '#lib/availability.ts';
import { addDays } from '#lib/dates.ts';
import type { DayHours } from '#lib/opening-hours.ts';
import { notFound, ok, type Result } from '#lib/result.ts';

/** What the queries here need of a handle: the app's, or a transaction's. */
type Reader = Pick<Db, 'select'>;

const DAY_MS = 86_400_000;
/** How far around a window bookings are read: the longest treatment plus its buffer is well under this. */
const MARGIN_MS = DAY_MS;
/** A timed booking without an end (a request the owner confirmed at a time) lasts its service, or this. */
const DEFAULT_MINUTES = 30;

export const ACTIVE_STATUSES = ['pending', 'confirmed'] as const;

export interface BookableSpa {
  id: number;
  name: string;
  slug: string;
  bookingMode: Exclude<BookingMode, 'none'>;
  cancellationWindowHours: number;
  /** How many days ahead it takes online bookings. */
  horizonDays: number;
}

export interface BookableService {
  id: number;
  name: string;
  duration: number;
  bufferAfterMinutes: number;
  treatment: string | null;
  priceCents: number;
  priceUnit: string | null;
}

/** The spa if it is listed and takes online bookings (mode instant or request). */
export function findBookableSpa(db: Reader, spaId: number): BookableSpa | null {
  const spa = db
    .select({
      id: spas.id,
      name: spas.name,
      slug: spas.slug,
      bookingMode: spas.bookingMode,
      cancellationWindowHours: spas.cancellationWindowHours,
      horizonDays: spas.bookingHorizonDays,
    })
    .from(spas)
    .where(and(eq(spas.id, spaId), eq(spas.active, true)))
    .get();
  return spa && spa.bookingMode !== 'none' ? { ...spa, bookingMode: spa.bookingMode } : null;
}

/** One of the spa's active services that clients may book online. */
export function findBookableService(db: Reader, spaId: number, serviceId: number): BookableService | null {
  const service = db
    .select({
      id: services.id,
      name: services.name,
      duration: services.duration,
      bufferAfterMinutes: services.bufferAfterMinutes,
      treatment: services.treatment,
      priceCents: services.priceCents,
      priceUnit: services.priceUnit,
    })
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.spaId, spaId), eq(services.active, true), eq(services.bookableOnline, true)))
    .get();
  return service ?? null;
}

/** The spa's clinicians by name, each with their hours and their time off that ends on or after `fromDate`. */
export function cliniciansOf(db: Reader, spaId: number, fromDate: string) {
  const staff = db
    .select({ id: clinicians.id, name: clinicians.name, role: clinicians.role, treatments: clinicians.treatments, workingHours: clinicians.workingHours })
    .from(clinicians)
    .where(eq(clinicians.spaId, spaId))
    .orderBy(asc(clinicians.name), asc(clinicians.id))
    .all();
  const timeOff = staff.length
    ? db
        .select()
        .from(clinicianTimeOff)
        .where(
          and(
            inArray(
              clinicianTimeOff.clinicianId,
              staff.map((c) => c.id),
            ),
            gte(clinicianTimeOff.lastDay, fromDate),
          ),
        )
        .orderBy(asc(clinicianTimeOff.firstDay))
        .all()
    : [];
  return staff.map((c) => ({ ...c, timeOff: timeOff.filter((off) => off.clinicianId === c.id) }));
}

/**
 * The spa's calendar with the bookings that can touch instants [from, to);
 * without booking `except` (the one a client is moving to another time).
 */
export function loadCalendar(db: Reader, spaId: number, from: number, to: number, except?: number): SpaCalendar {
  const spa = db
    .select({
      hours: spas.openingHours,
      rooms: spas.treatmentRooms,
      minNoticeMinutes: spas.minNoticeMinutes,
      horizonDays: spas.bookingHorizonDays,
      stepMinutes: spas.slotStepMinutes,
    })
    .from(spas)
    .where(eq(spas.id, spaId))
    .get();
  if (!spa) throw new Error(`spa ${spaId} not found`);
  const firstDate = pacificMinutes(from - MARGIN_MS).date;
  const dateHours = new Map<string, DayHours>(
    db
      .select({ date: spaDateHours.date, ranges: spaDateHours.ranges })
      .from(spaDateHours)
      .where(and(eq(spaDateHours.spaId, spaId), gte(spaDateHours.date, firstDate)))
      .all()
      .map((row) => [row.date, row.ranges]),
  );
  // Epoch milliseconds as stored (no Date per row: a busy spa has thousands in a month).
  const busy = db
    .select({
      start: sql<number>`${bookings.scheduledAt}`,
      end: sql<number>`coalesce(${bookings.endsAt}, ${bookings.scheduledAt} + coalesce(${services.duration}, ${DEFAULT_MINUTES}) * 60000)`,
      bufferMinutes: bookings.bufferMinutes,
      clinicianId: bookings.clinicianId,
      room: bookings.room,
    })
    .from(bookings)
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .where(
      and(
        eq(bookings.spaId, spaId),
        gte(bookings.scheduledAt, new Date(from - MARGIN_MS)),
        lt(bookings.scheduledAt, new Date(to + MARGIN_MS)),
        inArray(bookings.status, [...ACTIVE_STATUSES]),
        except === undefined ? undefined : ne(bookings.id, except),
      ),
    )
    .all();
  return {
    rules: { minNoticeMinutes: spa.minNoticeMinutes, horizonDays: spa.horizonDays, stepMinutes: spa.stepMinutes },
    hours: spa.hours,
    dateHours,
    rooms: spa.rooms,
    clinicians: cliniciansOf(db, spaId, firstDate),
    bookings: busy,
  };
}

/** The instants a run of Pacific dates spans: from the first day's midnight to the midnight after the last. */
export function windowOf(from: string, days: number): { start: number; end: number } {
  return { start: pacificMidnight(from), end: pacificMidnight(addDays(from, days)) };
}

export interface SpaOpenTimes {
  spa: BookableSpa;
  service: BookableService;
  days: OpenDay[];
}

/** The open times of a spa's service on `days` Pacific dates from `from` (as if booking `except` were not there: the one a client is moving). */
export function openTimesFor(
  db: Reader,
  spaId: number,
  serviceId: number,
  from: string,
  days: number,
  now: number,
  except?: number,
): Result<SpaOpenTimes, 'not_found'> {
  const spa = findBookableSpa(db, spaId);
  if (!spa) return notFound('This provider does not take online bookings.');
  const service = findBookableService(db, spaId, serviceId);
  if (!service) return notFound('This service cannot be booked online.', { fields: { service: 'Choose a service this provider takes online bookings for' } });
  const window = windowOf(from, days);
  const calendar = loadCalendar(db, spaId, window.start, window.end, except);
  return ok({ spa, service, days: openTimes(calendar, service, { from, days, now }) });
}

/** How far "next available" looks when the days asked about have no time: the longest horizon a spa may set. */
export const NEXT_AVAILABLE_DAYS = 90;

/** The first open time of a spa's service on or after the Pacific date `from` (within the spa's horizon), or null. */
export function nextOpenTimeFor(
  db: Reader,
  spaId: number,
  service: BookableService,
  from: string,
  now: number,
  except?: number,
): (OpenTime & { date: string }) | null {
  const window = windowOf(from, NEXT_AVAILABLE_DAYS);
  const calendar = loadCalendar(db, spaId, window.start, window.end, except);
  return firstOpenTime(calendar, service, { from, days: NEXT_AVAILABLE_DAYS, now });
}
