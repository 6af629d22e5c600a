// Booking an open time (issue 24), for POST /api/spas/{id}/bookings and the
// plain form post of /booking/time: parse, limit, then in ONE immediate
// transaction read the spa's calendar, ask the engine whether the time is
// still open (src/lib/availability.ts checkTime), choose the clinician and
// room, and write the booking and its lead. BEGIN IMMEDIATE takes SQLite's
// write lock before the read, so two requests (in one process or in two
// server processes on one file) are answered one after the other and the
// second sees the first's booking: it gets 409 "That time was just taken"
// with fresh alternatives. The triggers of migration 0017 refuse an overlap
// even if a writer skipped this check. Mail goes out after the commit.
import { bookings, leads, spas, type BookingStatus } from '#db/schema.ts';
import { eq } from 'drizzle-orm';
import { checkTime, pacificMinutes, type TimeRefusal } from '#lib/availability.ts';
import { openTimeBookingSchema, OPEN_TIME_MESSAGES, type OpenTimeBooking } from '#lib/open-time-schema.ts';
import { leadStatusForBooking } from '#lib/booking-lifecycle.ts';
import { rateLimitKeyForEmail } from '#lib/rate-limit-key.ts';
import { db } from '../db.ts';
import { hashClientAddress } from '../client-address.ts';
import { hitAll, type Limit } from '../rate-limit.ts';
import { randomToken } from '../auth/tokens.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { BOOKING_LIMITS, bookingDetails, whatWasAsked, type BookingDetails } from '../bookings/bookings.ts';
import { protectionFor, secureLine } from '../billing/protection.ts';
import { findBookableService, findBookableSpa, loadCalendar, openTimesFor, type BookableSpa } from './calendar.ts';
import { announceOpenTimeBooking, confirmationLine } from './mail.ts';
import { forgetSlots } from './slots.ts';
import { conflict, fieldErrors, invalid, notFound, ok, rateLimited, type Refusal, type Result, type Schema } from '#lib/result.ts';

const HOUR_MS = 3_600_000;
const MINUTE = 60_000;

/**
 * Open-time bookings per hour. The client and e-mail limits are the request
 * form's, on the same counters, so switching between the two ways in gains
 * nothing. Per spa the ceiling is higher than the form's 30: every booking
 * takes a real time, so a spa's calendar limits it; the ceiling only stops a
 * flood from many addresses emptying a calendar.
 */
export const OPEN_TIME_LIMITS = { perClient: BOOKING_LIMITS.perClient, perEmail: BOOKING_LIMITS.perEmail, perSpa: 240 } as const;

/** How many alternatives a taken time's answer offers. */
const ALTERNATIVES = 6;

export interface OpenTimeAlternative {
  start: string;
  label: string;
  date: string;
  dateLabel: string;
}

export interface BookedOpenTime {
  id: number;
  status: BookingStatus;
  details: BookingDetails;
  /** "Booked: ... Pacific" or "Requested: ... The spa will confirm." */
  message: string;
}

export type OpenTimeResult = Result<BookedOpenTime, 'invalid' | 'not_found' | 'rate_limited' | 'conflict'>;

/** A taken time's refusal carries the next open times (`details.alternatives`), which the JSON answer and the form page show. */
export const alternativesOf = (refusal: Refusal): OpenTimeAlternative[] =>
  refusal.reason === 'conflict' ? ((refusal.details?.alternatives as OpenTimeAlternative[] | undefined) ?? []) : [];

export interface OpenTimeContext {
  /** The client's address (clientAddressOf); null skips that limit. */
  clientAddress: string | null;
  /** The signed-in member, whose account then lists the booking and whose name and address fill blank fields. */
  user?: SessionUser | null;
  /** The site's origin, for the links in the mails. */
  origin: string;
  /** The payload's schema: the JSON's, or the form's with its consent box. */
  schema?: Schema<OpenTimeBooking>;
  now?: number;
}

/** The refusal of a time the engine would not give, in words a client can act on. */
export function timeRefusal(reason: Exclude<TimeRefusal, 'taken'>, spa: { name: string; minNoticeMinutes: number; horizonDays: number }): Refusal<'invalid'> {
  const minutes = spa.minNoticeMinutes;
  const notice = minutes % 60 === 0 ? `${minutes / 60} ${minutes === 60 ? 'hour' : 'hours'}` : `${minutes} minutes`;
  const messages: Record<typeof reason, [field: 'start' | 'clinicianId', message: string]> = {
    past: ['start', 'That time has passed. Choose one of the open times.'],
    notice: ['start', `${spa.name} needs at least ${notice}' notice. Choose a later time.`],
    horizon: ['start', `${spa.name} takes online bookings up to ${spa.horizonDays} days ahead.`],
    closed: ['start', `${spa.name} is closed that day. Choose one of the open times.`],
    outside_hours: ['start', 'That is not one of the open times. Choose one from the list.'],
    nobody: ['start', 'Nobody who performs this treatment works at that time. Choose one of the open times.'],
    unknown_clinician: ['clinicianId', OPEN_TIME_MESSAGES.clinician],
    clinician_service: ['clinicianId', 'That clinician does not perform this treatment.'],
    clinician_off: ['clinicianId', 'That clinician does not work at that time.'],
  };
  const [field, message] = messages[reason];
  return invalid({ [field]: message }, message);
}

/** Counts the attempt against the client, the address and the spa; the first limit that refuses answers. */
function allow(request: OpenTimeBooking, spaId: number, clientAddress: string | null, now: number) {
  const limits: Limit[] = [];
  if (clientAddress) limits.push({ key: `booking:client:${hashClientAddress(clientAddress)}`, limit: OPEN_TIME_LIMITS.perClient, windowMs: HOUR_MS });
  limits.push({ key: `booking:email:${rateLimitKeyForEmail(request.email)}`, limit: OPEN_TIME_LIMITS.perEmail, windowMs: HOUR_MS });
  limits.push({ key: `open-time:spa:${spaId}`, limit: OPEN_TIME_LIMITS.perSpa, windowMs: HOUR_MS });
  return hitAll(limits, now);
}

/** The next open times from the day of `start` on (a week), as a taken time's answer offers them. */
export function alternativesFor(spaId: number, serviceId: number, start: number, now: number): OpenTimeAlternative[] {
  const from = pacificMinutes(Math.max(start, now)).date;
  const found = openTimesFor(db, spaId, serviceId, from, 7, now);
  if (!found.ok) return [];
  return found.value.days
    .flatMap((day) =>
      day.times.filter((t) => t.start !== start).map((t) => ({ start: new Date(t.start).toISOString(), label: t.label, date: day.date, dateLabel: day.label })),
    )
    .slice(0, ALTERNATIVES);
}

/** Fills a signed-in member's name and address where the payload left them out. */
function withAccount(input: unknown, user: SessionUser | null | undefined): unknown {
  if (!user || typeof input !== 'object' || input === null) return input;
  const fields = input as Record<string, unknown>;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email.split('@')[0];
  return { ...fields, name: fields.name || name, email: fields.email || user.email };
}

export function bookOpenTime(spaId: number, input: unknown, context: OpenTimeContext): OpenTimeResult {
  const now = context.now ?? Date.now();
  const parsed = (context.schema ?? openTimeBookingSchema).safeParse(withAccount(input, context.user));
  if (!parsed.success) return invalid(fieldErrors(parsed.error));
  const { consent: _consent, ...request } = parsed.data as OpenTimeBooking & { consent?: true };

  const spa = findBookableSpa(db, spaId);
  if (!spa) return notFound('This provider does not take online bookings.');
  const limit = allow(request, spaId, context.clientAddress, now);
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds, 'Too many bookings from you in the last hour. Please call the spa instead.');

  const written = writeBooking(spa, request, context.user?.id ?? null, now);
  if (!written.ok) {
    if (written.reason !== 'conflict') return written;
    return conflict(written.message, {
      code: 'slot_taken',
      fields: written.fields,
      details: { alternatives: alternativesFor(spaId, request.serviceId, request.start, now) },
    });
  }
  forgetSlots(spaId);
  const details = bookingDetails(written.value)!;
  // A booking waiting for its card step (no-show protection) is announced when Stripe says the card is saved (billing/protection.ts).
  if (details.booking.secureStatus !== 'awaiting') announceOpenTimeBooking(details, context.origin);
  return ok({
    id: written.value,
    status: details.booking.status,
    details,
    message: details.booking.secureStatus === 'awaiting' ? secureLine(details) : confirmationLine(details),
  });
}

/** The check and the write, under SQLite's write lock: the booking's id, or why not. */
function writeBooking(spa: BookableSpa, request: OpenTimeBooking, userId: number | null, now: number): Result<number, 'invalid' | 'conflict'> {
  const taken = conflict(OPEN_TIME_MESSAGES.taken, { fields: { start: OPEN_TIME_MESSAGES.taken } });
  try {
    return db.transaction(
      (tx) => {
        const service = findBookableService(tx, spa.id, request.serviceId);
        if (!service) return invalid({ serviceId: 'This service cannot be booked online. Choose another.' }, 'This service cannot be booked online.');
        const rules = tx
          .select({ name: spas.name, minNoticeMinutes: spas.minNoticeMinutes, horizonDays: spas.bookingHorizonDays })
          .from(spas)
          .where(eq(spas.id, spa.id))
          .get()!;
        const calendar = loadCalendar(tx, spa.id, request.start, request.start + (service.duration + service.bufferAfterMinutes) * MINUTE);
        const check = checkTime(calendar, service, { start: request.start, clinicianId: request.clinicianId, now });
        if (!check.ok) return check.reason === 'taken' ? taken : timeRefusal(check.reason, rules);
        const instant = spa.bookingMode === 'instant';
        // The spa's no-show policy as it comes to for this booking: one that asks for a card holds the time, pending, until the card is saved.
        const protection = protectionFor(tx, spa.id, service.id);
        const confirmNow = instant && protection.protection === 'none';
        const asked = whatWasAsked(request, spa.id, service.id);
        const booking = tx
          .insert(bookings)
          .values({
            ...asked,
            userId,
            preferredDate: pacificMinutes(request.start).date,
            scheduledAt: new Date(request.start),
            endsAt: new Date(check.end),
            bufferMinutes: service.bufferAfterMinutes,
            clinicianId: check.clinicianIds[0]!,
            room: check.room,
            bookedVia: instant ? 'instant' : 'hold',
            status: confirmNow ? 'confirmed' : 'pending',
            ...protection,
            manageToken: randomToken(20),
            createdAt: new Date(now),
            updatedAt: new Date(now),
          })
          .returning({ id: bookings.id })
          .get();
        tx.insert(leads)
          .values({
            ...asked,
            // An instant booking is confirmed at once: its lead starts where confirming takes it (issue 26).
            status: leadStatusForBooking(instant ? 'confirmed' : 'pending', 'new'),
            bookingId: booking.id,
            cityId: cityOf(tx, spa.id),
            source: request.source ?? null,
            medium: request.medium ?? null,
            campaign: request.campaign ?? null,
          })
          .run();
        return ok(booking.id);
      },
      { behavior: 'immediate' },
    );
  } catch (error) {
    // The triggers' floor (migration 0017): another writer got there first.
    if (error instanceof Error && /slot_taken/.test(`${error.message} ${(error as { cause?: Error }).cause?.message ?? ''}`)) return taken;
    throw error;
  }
}

function cityOf(tx: Pick<typeof db, 'select'>, spaId: number): number | null {
  return tx.select({ cityId: spas.cityId }).from(spas).where(eq(spas.id, spaId)).get()?.cityId ?? null;
}
