// GET /api/spas/{id}/slots (issue 24): a spa's open times for one service as
// public JSON, ready to show: every label is made here (Pacific wall time), so
// a browser needs no time-zone code. The query is checked; days are capped.
import { z } from 'zod';
import { pacificMinutes, whenLabel } from '#lib/availability.ts';
import { addDays, TIME_ZONE } from '#lib/dates.ts';
import { centsToDecimal } from '#lib/money.ts';
import { parseId } from '#lib/ids.ts';
import { asc, eq } from 'drizzle-orm';
import { clinicians } from '#db/schema.ts';
import { db } from '../db.ts';
import { nextOpenTimeFor, openTimesFor } from './calendar.ts';
import { forgetNextOpen } from './next-open.ts';
import { fieldErrors, malformed, ok, type Result } from '#lib/result.ts';

/** At most four weeks in one answer; the picker pages a week at a time. */
export const MAX_DAYS = 28;
export const DEFAULT_DAYS = 7;

const slotsQuerySchema = z.object({
  service: z.string('Name the service: ?service={id}').transform((value, context) => {
    const id = parseId(value);
    if (id === null) context.addIssue({ code: 'custom', message: 'Name the service by its id' });
    return id ?? 0;
  }),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the first day as YYYY-MM-DD')
    .refine(
      (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      'Give the first day as YYYY-MM-DD',
    )
    .optional(),
  days: z
    .string()
    .regex(/^\d{1,3}$/, `Give a whole number of days from 1 to ${MAX_DAYS}`)
    .transform(Number)
    .pipe(z.number().min(1, `Give a whole number of days from 1 to ${MAX_DAYS}`).max(MAX_DAYS, `At most ${MAX_DAYS} days at a time`))
    .optional(),
});

export type SlotsAnswer = ReturnType<typeof slotsJson>;

function slotsJson(
  found: Extract<ReturnType<typeof openTimesFor>, { ok: true }>['value'],
  from: string,
  days: number,
  today: string,
  now: number,
  except?: number,
) {
  const staff = new Map(
    db
      .select({ id: clinicians.id, name: clinicians.name, role: clinicians.role })
      .from(clinicians)
      .where(eq(clinicians.spaId, found.spa.id))
      .orderBy(asc(clinicians.name))
      .all()
      .map((c) => [c.id, c]),
  );
  const named = new Set(found.days.flatMap((day) => day.times.flatMap((t) => t.clinicianIds)));
  // "Next available": the first time of these days, else the first after them (a week with nothing open says when to look).
  const firstDay = found.days.find((day) => day.times.length > 0);
  const first = firstDay ? { ...firstDay.times[0]!, date: firstDay.date } : nextOpenTimeFor(db, found.spa.id, found.service, addDays(from, days), now, except);
  return {
    spa: { id: found.spa.id, name: found.spa.name, slug: found.spa.slug, mode: found.spa.bookingMode },
    service: {
      id: found.service.id,
      name: found.service.name,
      duration: found.service.duration,
      price: centsToDecimal(found.service.priceCents),
      priceUnit: found.service.priceUnit,
    },
    timeZone: TIME_ZONE,
    from,
    days,
    previous: from > today ? (addDays(from, -days) < today ? today : addDays(from, -days)) : null,
    // No later window once it would start past the spa's horizon.
    next: addDays(from, days) <= addDays(today, found.spa.horizonDays) ? addDays(from, days) : null,
    nextAvailable: first ? { start: new Date(first.start).toISOString(), label: whenLabel(first.start), date: first.date } : null,
    clinicians: [...named].map((id) => staff.get(id)).filter((c) => c !== undefined),
    dates: found.days.map((day) => ({
      date: day.date,
      label: day.label,
      times: day.times.map((t) => ({ start: new Date(t.start).toISOString(), label: t.label, clinicianIds: t.clinicianIds })),
    })),
  };
}

/**
 * Answers kept for a few seconds, as JSON text, per spa, service and window.
 * The same spa page is opened by many visitors, and a busy spa's answer costs
 * a read of its month and the engine's run; the endpoint's own Cache-Control
 * already lets browsers keep it this long. A booking or a settings change made
 * in this process forgets the spa's answers at once; one made by another
 * server process is seen when the entry expires, and a time taken meanwhile
 * is refused by the booking's own check (409 with fresh alternatives).
 * An answer past SLOTS_CACHE_MS but within SLOTS_STALE_MS is still sent while
 * it is worked out again after the request, one answer at a time between other
 * requests: the answers a spa page asks for all fall due together, and worked
 * out in the request they kept every visitor waiting behind the lot
 * (scripts/bench-slots.ts: p99 0.3-1 s at 100 connections).
 */
export const SLOTS_CACHE_MS = 10_000;
/** Never older than the endpoint's Cache-Control max-age lets a browser keep it. */
export const SLOTS_STALE_MS = 15_000;
const MAX_CACHED = 2_000;
type Query = { service: string | null; from: string | null; days: string | null };
const cache = new Map<string, { spaId: number; at: number; body: string }>();
const due = new Map<string, { spaId: number; query: Query; now: number }>();
let refreshing = false;

/** Forgets the spa's cached answers, search's next open time included (after a booking or a change of its settings in this process). */
export function forgetSlots(spaId: number): void {
  for (const [key, entry] of cache) if (entry.spaId === spaId) cache.delete(key);
  forgetNextOpen(spaId);
}

function store(key: string, spaId: number, query: Query, now: number): Result<string> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== null) params.set(name, value);
  const answer = slotsFor(spaId, params, now);
  cache.delete(key);
  if (!answer.ok) return answer;
  const body = JSON.stringify(answer.value);
  cache.set(key, { spaId, at: now, body });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return ok(body);
}

/** Works out the due answers one per turn of the event loop, so requests are read between them. */
function refreshNext(): void {
  const next = due.entries().next();
  if (next.done) {
    refreshing = false;
    return;
  }
  const [key, { spaId, query, now }] = next.value;
  due.delete(key);
  // A forgotten answer stays forgotten: the next request works it out afresh.
  if (cache.has(key)) store(key, spaId, query, now);
  setImmediate(refreshNext);
}

/** slotsFor's answer as JSON text, from the cache when fresh (or fresh enough, and then worked out again just after). */
export function slotsJsonFor(spaId: number, params: URLSearchParams, now = Date.now()): Result<string> {
  const query: Query = { service: params.get('service'), from: params.get('from'), days: params.get('days') };
  const key = `${spaId}?${query.service}&${query.from}&${query.days}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < SLOTS_CACHE_MS) return ok(hit.body);
  if (hit && now - hit.at < SLOTS_STALE_MS) {
    due.set(key, { spaId, query, now });
    if (!refreshing) {
      refreshing = true;
      setImmediate(refreshNext);
    }
    return ok(hit.body);
  }
  return store(key, spaId, query, now);
}

/**
 * The answer for a query string: the open times, or why not (invalid query,
 * unknown spa or service). `except`: a booking to leave out of the calendar
 * (the one a client is moving to another time).
 */
export function slotsFor(spaId: number, query: URLSearchParams, now = Date.now(), except?: number): Result<SlotsAnswer> {
  const parsed = slotsQuerySchema.safeParse({
    service: query.get('service') ?? undefined,
    from: query.get('from') ?? undefined,
    days: query.get('days') ?? undefined,
  });
  if (!parsed.success) return malformed('Some query parameters are not valid.', { code: 'invalid_request', fields: fieldErrors(parsed.error) });
  const today = pacificMinutes(now).date;
  // Days before today have no open time: start at today.
  const from = parsed.data.from && parsed.data.from > today ? parsed.data.from : today;
  const days = parsed.data.days ?? DEFAULT_DAYS;
  const found = openTimesFor(db, spaId, parsed.data.service, from, days, now, except);
  if (!found.ok) return found;
  return ok(slotsJson(found.value, from, days, today, now, except));
}
