// What the open-time picker shows when the server renders it (issue 24): on
// /booking?spa={id}, on the manage page when a client moves a booking, and
// (without a week) on the spa page. The page's address carries the state, so
// every step works without JavaScript: ?service= the treatment, ?from= the
// first day of the week shown, ?start= the time chosen. The island
// (src/components/islands/OpenTimesPicker.tsx) takes the same state and asks
// the slots endpoint for other weeks.
import { and, asc, eq } from 'drizzle-orm';
import { services } from '#db/schema.ts';
import { checkTime, pacificMinutes, whenLabel } from '#lib/availability.ts';
import { parseId } from '#lib/ids.ts';
import { OPEN_TIME_MESSAGES, parseInstant } from '#lib/open-time-schema.ts';
import { durationLabel, priceLabel } from '#lib/services.ts';
import { db } from '../db.ts';
import { timeRefusal } from './book.ts';
import { findBookableService, findBookableSpa, loadCalendar, type BookableSpa } from './calendar.ts';
import { slotsFor, type SlotsAnswer } from './slots.ts';
import type { ChosenTime, PickerService } from '#lib/picker.ts';

const MINUTE = 60_000;

export interface PickerView {
  spa: BookableSpa;
  services: PickerService[];
  /** The treatment chosen (?service=), when it is one of `services`. */
  serviceId: number | null;
  /** The week shown; null until a treatment is chosen, or while a time is chosen. */
  week: SlotsAnswer | null;
  /** The time chosen (?start=), still open. */
  chosen: ChosenTime | null;
  /** Why the time in the address cannot be given any more (taken meanwhile, passed, or never open). */
  refused: string | null;
}

/** The spa's active services that clients may book online, as the picker's select lists them. */
export function bookableServices(spaId: number): PickerService[] {
  return db
    .select({ id: services.id, name: services.name, duration: services.duration, priceCents: services.priceCents, priceUnit: services.priceUnit })
    .from(services)
    .where(and(eq(services.spaId, spaId), eq(services.active, true), eq(services.bookableOnline, true)))
    .orderBy(asc(services.name))
    .all()
    .map((service) => ({ id: service.id, name: service.name, label: `${service.name} · ${durationLabel(service.duration)} · ${priceLabel(service)}` }));
}

/** A spa's online booking: the spa if it publishes its availability and has a treatment clients may book online, with those treatments; else null. */
export function onlineBookingOf(spaId: number): { spa: BookableSpa; services: PickerService[] } | null {
  const spa = findBookableSpa(db, spaId);
  const list = spa ? bookableServices(spaId) : [];
  return spa && list.length > 0 ? { spa, services: list } : null;
}

/** Whether `start` is still open for the service; the same rules as the booking itself, each refusal in words. */
export function checkChosenTime(
  spaId: number,
  serviceId: number,
  start: number,
  now: number,
  except?: number,
): { ok: true; label: string } | { ok: false; message: string } {
  const service = findBookableService(db, spaId, serviceId);
  const spa = findBookableSpa(db, spaId);
  if (!service || !spa) return { ok: false, message: 'This service cannot be booked online.' };
  const calendar = loadCalendar(db, spaId, start, start + (service.duration + service.bufferAfterMinutes) * MINUTE, except);
  const check = checkTime(calendar, service, { start, now });
  if (check.ok) return { ok: true, label: whenLabel(start) };
  if (check.reason === 'taken') return { ok: false, message: `${OPEN_TIME_MESSAGES.taken}. Choose another.` };
  return {
    ok: false,
    message: timeRefusal(check.reason, { name: spa.name, minNoticeMinutes: calendar.rules.minNoticeMinutes, horizonDays: spa.horizonDays }).message,
  };
}

/**
 * The picker as the address asks for it; null when the spa does not take
 * online bookings. A service that is not the spa's (or not bookable online)
 * counts as none chosen; a time that is not open any more shows the week it
 * was in, with the reason.
 */
export function pickerFor(
  spaId: number,
  query: { service?: string | null; from?: string | null; start?: string | null },
  now = Date.now(),
  /** A booking to leave out of the calendar: the one the client is moving. */
  except?: number,
): PickerView | null {
  const online = onlineBookingOf(spaId);
  if (!online) return null;
  const { spa, services: list } = online;
  const asked = parseId(query.service ?? null);
  const serviceId = list.some((service) => service.id === asked) ? asked : null;
  const view: PickerView = { spa, services: list, serviceId, week: null, chosen: null, refused: null };
  if (serviceId === null) return view;

  let from = query.from ?? null;
  const start = query.start ? parseInstant(query.start) : null;
  if (start !== null) {
    const checked = checkChosenTime(spaId, serviceId, start, now, except);
    const date = pacificMinutes(start).date;
    if (checked.ok) return { ...view, chosen: { start: new Date(start).toISOString(), label: checked.label, date } };
    view.refused = checked.message;
    from ??= date;
  } else if (query.start) {
    view.refused = OPEN_TIME_MESSAGES.start;
  }
  const params = new URLSearchParams({ service: String(serviceId) });
  if (from) params.set('from', from);
  let week = slotsFor(spaId, params, now, except);
  // A malformed ?from= (a hand-edited address) shows the current week instead.
  if (!week.ok) week = slotsFor(spaId, new URLSearchParams({ service: String(serviceId) }), now, except);
  view.week = week.ok ? week.value : null;
  return view;
}
