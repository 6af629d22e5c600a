// "Next available" for search (issue 24): each spa that publishes its
// availability, the first open time of each treatment it books online in the
// next two weeks. Search filters on it ("available this week"), sorts by it
// and shows it on the cards, so it must cost little per request: a spa's
// answer is kept for about a minute in this process (each spa's own moment,
// so a directory's spas do not all fall due on one request), and forgotten at
// once when this process books a time at the spa or changes its settings
// (forgetSlots). Another process's booking is seen within the minute; the
// time it took is refused by the booking itself if someone tries it.
import { and, eq, ne } from 'drizzle-orm';
import { services, spas } from '#db/schema.ts';
import { dateLabel, firstOpenTime, pacificMinutes } from '#lib/availability.ts';
import { addDays } from '#lib/dates.ts';
import { timeLabel } from '#lib/opening-hours.ts';
import { db } from '../db.ts';
import { loadCalendar, windowOf } from './calendar.ts';

/** How far ahead search looks for a spa's next open time. */
export const NEXT_OPEN_DAYS = 14;
/** How long a spa's answer is kept: about a minute, spread over 45-75 s. */
const TTL_MS = 45_000;
const TTL_SPREAD_MS = 30_000;

interface ServiceNext {
  /** The directory's treatment key, and the lower-cased name: what a search term matches (as directory.ts offersService). */
  treatment: string | null;
  name: string;
  /** Epoch milliseconds of its first open time, or null. */
  next: number | null;
}

interface Entry {
  until: number;
  services: ServiceNext[];
}

const cache = new Map<number, Entry>();

/** Forgets a spa's answer (a booking or a change of settings in this process). */
export function forgetNextOpen(spaId: number): void {
  cache.delete(spaId);
}

/** The listed spas that take online bookings. */
export function bookableSpaIds(): number[] {
  return db
    .select({ id: spas.id })
    .from(spas)
    .where(and(eq(spas.active, true), ne(spas.bookingMode, 'none')))
    .all()
    .map((row) => row.id);
}

function compute(spaId: number, now: number): ServiceNext[] {
  const list = db
    .select({ duration: services.duration, bufferAfterMinutes: services.bufferAfterMinutes, treatment: services.treatment, name: services.name })
    .from(services)
    .where(and(eq(services.spaId, spaId), eq(services.active, true), eq(services.bookableOnline, true)))
    .all();
  if (list.length === 0) return [];
  const today = pacificMinutes(now).date;
  const window = windowOf(today, NEXT_OPEN_DAYS);
  const calendar = loadCalendar(db, spaId, window.start, window.end);
  return list.map((service) => ({
    treatment: service.treatment,
    name: service.name.toLowerCase(),
    next: firstOpenTime(calendar, service, { from: today, days: NEXT_OPEN_DAYS, now })?.start ?? null,
  }));
}

function servicesOf(spaId: number, now: number): ServiceNext[] {
  const hit = cache.get(spaId);
  if (hit && hit.until > now) return hit.services;
  const fresh = compute(spaId, now);
  // A time that has passed is no longer next: the answer is stale by then too.
  const soonest = Math.min(...fresh.map((s) => s.next ?? Number.POSITIVE_INFINITY));
  cache.set(spaId, { until: Math.min(now + TTL_MS + Math.random() * TTL_SPREAD_MS, soonest), services: fresh });
  return fresh;
}

/**
 * The next open time of each of these spas (of the treatment `term` when
 * given: its key or its lower-cased name), epoch milliseconds; a spa without
 * one (not bookable, or nothing open in two weeks) is absent.
 */
export function nextOpenTimes(spaIds: Iterable<number>, term: string | undefined, now = Date.now()): Map<number, number> {
  const found = new Map<number, number>();
  for (const spaId of spaIds) {
    let best: number | null = null;
    for (const service of servicesOf(spaId, now)) {
      if (service.next === null || (term && service.treatment !== term && service.name !== term)) continue;
      if (best === null || service.next < best) best = service.next;
    }
    if (best !== null) found.set(spaId, best);
  }
  return found;
}

/** 'Today, 2:15 PM', 'Tomorrow, 9:00 AM' or 'Thursday, December 3, 9:00 AM' (Pacific), as a card says it. */
export function nextOpenLabel(at: number, now = Date.now()): string {
  const { date, minutes } = pacificMinutes(at);
  const today = pacificMinutes(now).date;
  const day = date === today ? 'Today' : date === addDays(today, 1) ? 'Tomorrow' : dateLabel(date);
  return `${day}, ${timeLabel(minutes)}`;
}

/** The end of "this week" for the search filter: the Pacific midnight after the next 7 days (today included). */
export function thisWeekEnd(now = Date.now()): number {
  return windowOf(pacificMinutes(now).date, 7).end;
}
