// Bookings and their leads: requests, the lifecycle, and the reads each side
// needs. Who may do what is decided in ../booking-lifecycle.ts; this module
// loads, asks and writes. Mail goes out from booking-mail.ts after a write
// has committed, never inside it.
import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import { bookings, cities, leads, services, spas, users, type BookingStatus } from '#db/schema.ts';
import type { BookingRequest } from '#lib/booking-schema.ts';
import {
  canMoveLead,
  decideBookingChange,
  DEFAULT_CANCELLATION_WINDOW_HOURS,
  type BookingActor,
  type BookingChange,
  type BookingState,
  type Decision,
  type LeadStatus,
  leadStatusForBooking,
} from '#lib/booking-lifecycle.ts';
import { conflict, invalid, notFound, ok, type Result } from '#lib/result.ts';
import { centsToDecimal } from '#lib/money.ts';
import { db } from '../db.ts';
import { spaInbox } from '../db-helpers.ts';
import { rateLimitKeyForEmail } from '#lib/rate-limit-key.ts';
import { hashClientAddress } from '../client-address.ts';
import { hitAll, type Limit, type RateLimitResult } from '../rate-limit.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { hashToken, randomToken, tokenMatchesHash } from '../auth/tokens.ts';
import { protectionFor } from '../billing/protection.ts';

/** 32 base32 characters: the manage link's secret. */
export const MANAGE_TOKEN_PATTERN = /^[a-z2-7]{32}$/;

// --- reads ------------------------------------------------------------------

/** Everything the mails and the manage page show about one booking. */
export function bookingDetails(id: number) {
  const row = db
    .select({
      booking: bookings,
      service: { id: services.id, name: services.name, duration: services.duration, priceCents: services.priceCents, priceUnit: services.priceUnit },
      spa: { id: spas.id, name: spas.name, slug: spas.slug, address: spas.address, phone: spas.phone, email: spas.email, ownerId: spas.ownerId },
      cityName: cities.name,
      /** Where the spa's mail goes (db-helpers.ts); null for a request that names no spa, or a spa without an address. */
      inbox: spaInbox,
    })
    .from(bookings)
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .leftJoin(spas, eq(bookings.spaId, spas.id))
    .leftJoin(cities, eq(spas.cityId, cities.id))
    .leftJoin(users, eq(spas.ownerId, users.id))
    .where(eq(bookings.id, id))
    .get();
  return row ?? null;
}

export type BookingDetails = NonNullable<ReturnType<typeof bookingDetails>>;

/**
 * A user's bookings, newest first, with the service embedded (spec 3 and 7).
 * Requests sent before signing in count too: the address they were sent from
 * is the one the magic link proved.
 */
/** The bookings that are `user`'s: made while signed in, or before, with their address. */
export const bookingsOfUser = (user: Pick<SessionUser, 'id' | 'email'>) =>
  or(eq(bookings.userId, user.id), and(isNull(bookings.userId), eq(bookings.email, user.email.toLowerCase())));

export function listUserBookings(user: Pick<SessionUser, 'id' | 'email'>, limit?: number) {
  const query = db
    .select({
      id: bookings.id,
      status: bookings.status,
      preferredDate: bookings.preferredDate,
      scheduledAt: bookings.scheduledAt,
      message: bookings.message,
      createdAt: bookings.createdAt,
      manageToken: bookings.manageToken,
      spa: { id: spas.id, name: spas.name, slug: spas.slug },
      service: { id: services.id, name: services.name, duration: services.duration, priceCents: services.priceCents, priceUnit: services.priceUnit },
    })
    .from(bookings)
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .leftJoin(spas, eq(bookings.spaId, spas.id))
    .where(bookingsOfUser(user))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  return limit ? query.limit(limit).all() : query.all();
}

export type UserBooking = ReturnType<typeof listUserBookings>[number];

/** The JSON of a booking in GET /api/bookings and after a change. */
export function userBookingJson(booking: UserBooking) {
  return {
    id: booking.id,
    status: booking.status,
    preferredDate: booking.preferredDate,
    scheduledAt: booking.scheduledAt?.toISOString() ?? null,
    message: booking.message,
    createdAt: booking.createdAt.toISOString(),
    spa: booking.spa,
    service: booking.service && {
      id: booking.service.id,
      name: booking.service.name,
      duration: booking.service.duration,
      price: centsToDecimal(booking.service.priceCents),
      priceUnit: booking.service.priceUnit,
    },
  };
}

export function bookingJson(details: BookingDetails) {
  const { booking, service, spa } = details;
  return {
    id: booking.id,
    status: booking.status,
    name: booking.name,
    email: booking.email,
    phone: booking.phone,
    serviceId: booking.serviceId,
    spaId: booking.spaId,
    preferredDate: booking.preferredDate,
    scheduledAt: booking.scheduledAt?.toISOString() ?? null,
    message: booking.message,
    createdAt: booking.createdAt.toISOString(),
    updatedAt: booking.updatedAt.toISOString(),
    service: service && {
      id: service.id,
      name: service.name,
      duration: service.duration,
      price: centsToDecimal(service.priceCents),
      priceUnit: service.priceUnit,
    },
    spa: spa && { id: spa.id, name: spa.name, slug: spa.slug },
  };
}

// --- requests ---------------------------------------------------------------

/** The spa a request is for: the service's spa, or the one named; both must be listed and active. */
function resolveTarget(request: BookingRequest): Result<{ spaId: number | null; cityId: number | null; serviceId: number | null }, 'invalid'> {
  if (request.serviceId != null) {
    const service = db
      .select({ id: services.id, spaId: services.spaId, cityId: spas.cityId })
      .from(services)
      .innerJoin(spas, eq(services.spaId, spas.id))
      .where(and(eq(services.id, request.serviceId), eq(services.active, true), eq(spas.active, true)))
      .get();
    if (!service) return invalid({ serviceId: 'This service is not offered any more; choose another.' });
    if (request.spaId != null && request.spaId !== service.spaId) {
      return invalid({ serviceId: 'This service is offered by another provider.' });
    }
    return ok({ spaId: service.spaId, cityId: service.cityId, serviceId: service.id });
  }
  if (request.spaId != null) {
    const spa = db
      .select({ id: spas.id, cityId: spas.cityId })
      .from(spas)
      .where(and(eq(spas.id, request.spaId), eq(spas.active, true)))
      .get();
    if (!spa) return invalid({ spaId: 'This provider is not listed any more; choose another.' });
    return ok({ spaId: spa.id, cityId: spa.cityId, serviceId: null });
  }
  // A general consultation request from the home page: the directory answers it.
  return ok({ spaId: null, cityId: null, serviceId: null });
}

/**
 * Booking requests allowed per hour. Each request mails two inboxes, so the
 * form must not become a way to flood one:
 * - per e-mail address (victim+1@ and victim+2@ count as one, see
 *   rateLimitKeyForEmail): plenty for a person, too few to mail-bomb anyone;
 * - per client address (IPv6 by /64): a household or an office books a few
 *   times an hour, not ten;
 * - per spa: a spa's inbox gets at most this many requests an hour from the
 *   form; a spa that really gets more will hear from us first.
 */
export const BOOKING_LIMITS = { perEmail: 5, perClient: 10, perSpa: 30 } as const;
const HOUR_MS = 3_600_000;

/** The spa a request would reach, for its limit: the service's spa, else the one named, else the directory itself. */
function spaLimitKey(request: Pick<BookingRequest, 'serviceId' | 'spaId'>): string {
  if (request.serviceId != null) {
    const service = db.select({ spaId: services.spaId }).from(services).where(eq(services.id, request.serviceId)).get();
    if (service) return `spa-${service.spaId}`;
  }
  return request.spaId != null ? `spa-${request.spaId}` : 'directory';
}

/**
 * Counts a request against its client, its address and its spa, in that
 * order; the first limit that refuses answers (429 with Retry-After). The
 * client's address comes from clientAddressOf and is kept only as a keyed
 * hash; a request whose address is unknown skips that limit.
 */
export function allowBookingRequest(
  request: Pick<BookingRequest, 'email' | 'serviceId' | 'spaId'>,
  clientAddress: string | null,
  now = Date.now(),
): RateLimitResult {
  const limits: Limit[] = [];
  if (clientAddress) limits.push({ key: `booking:client:${hashClientAddress(clientAddress)}`, limit: BOOKING_LIMITS.perClient, windowMs: HOUR_MS });
  limits.push({ key: `booking:email:${rateLimitKeyForEmail(request.email)}`, limit: BOOKING_LIMITS.perEmail, windowMs: HOUR_MS });
  limits.push({ key: `booking:spa:${spaLimitKey(request)}`, limit: BOOKING_LIMITS.perSpa, windowMs: HOUR_MS });
  return hitAll(limits, now);
}

export type CreatedBooking = Result<{ id: number; manageToken: string }, 'invalid'>;

/** What a booking and its lead both record: who asked, for what, and of whom. */
export function whatWasAsked(request: Pick<BookingRequest, 'name' | 'email' | 'phone' | 'message'>, spaId: number | null, serviceId: number | null) {
  return { name: request.name, email: request.email, phone: request.phone ?? null, message: request.message ?? null, spaId, serviceId };
}

/** Stores a request and its lead in one transaction: both or neither. */
export function createBooking(request: BookingRequest, options: { userId?: number | null } = {}): CreatedBooking {
  const resolved = resolveTarget(request);
  if (!resolved.ok) return resolved;
  const target = resolved.value;
  const manageToken = randomToken(20);
  const asked = whatWasAsked(request, target.spaId, target.serviceId);
  const id = db.transaction((tx) => {
    const booking = tx
      .insert(bookings)
      .values({
        ...asked,
        userId: options.userId ?? null,
        preferredDate: request.preferredDate ?? null,
        manageToken,
        // The spa's no-show policy as it comes to for this booking (none when it asks nothing): stored, never recomputed.
        ...protectionFor(tx, target.spaId, target.serviceId),
      })
      .returning({ id: bookings.id })
      .get();
    tx.insert(leads)
      .values({
        ...asked,
        bookingId: booking.id,
        cityId: target.cityId,
        source: request.source ?? null,
        medium: request.medium ?? null,
        campaign: request.campaign ?? null,
      })
      .run();
    return booking.id;
  });
  return ok({ id, manageToken });
}

// --- the lifecycle ----------------------------------------------------------

/** A manage link opens its booking until this many days after the appointment (issue 23, item 10). */
export const MANAGE_LINK_DAYS_AFTER = 30;

/**
 * When a manage link stops opening its booking: 30 days after the
 * appointment (its time once set, else the end of the preferred day, else
 * the day it was asked for). A link in an old mail, a forwarded message or
 * a proxy's log is then no key to anything.
 */
export function manageLinkExpiresAt(booking: { scheduledAt: Date | null; preferredDate: string | null; createdAt: Date }): Date {
  const day = 86_400_000;
  const preferred = booking.preferredDate ? Date.parse(`${booking.preferredDate.slice(0, 10)}T00:00:00Z`) : Number.NaN;
  // The end of the preferred day wherever it is: a day and a half after its UTC midnight covers every time zone.
  const appointment = booking.scheduledAt?.getTime() ?? (Number.isNaN(preferred) ? booking.createdAt.getTime() : preferred + 1.5 * day);
  return new Date(appointment + MANAGE_LINK_DAYS_AFTER * day);
}

/** The booking a manage link opens, or null for an unknown, malformed or expired token. */
export function findBookingIdByManageToken(token: string, now = new Date()): number | null {
  if (!MANAGE_TOKEN_PATTERN.test(token)) return null;
  const row = db
    .select({ id: bookings.id, scheduledAt: bookings.scheduledAt, preferredDate: bookings.preferredDate, createdAt: bookings.createdAt })
    .from(bookings)
    .where(eq(bookings.manageToken, token))
    .get();
  if (!row || now >= manageLinkExpiresAt(row)) return null;
  return row.id;
}

/** How the person asking relates to this booking; null when they have no part in it. */
export function actorFor(details: BookingDetails, who: { user?: SessionUser | null; manageToken?: string }): BookingActor | null {
  const { user } = who;
  if (user?.role === 'admin') return 'admin';
  if (user && details.spa?.ownerId === user.id) return 'owner';
  if (user && (details.booking.userId === user.id || (details.booking.userId === null && details.booking.email === user.email.toLowerCase()))) {
    return 'client';
  }
  if (who.manageToken && details.booking.manageToken && tokenMatchesHash(who.manageToken, hashToken(details.booking.manageToken))) return 'client';
  return null;
}

const stale = () => conflict('The booking changed while you were looking at it. Reload and try again.');

/** The booking before and after the change; refused as not_found (also for someone with no part in it), conflict (changed meanwhile, or the lifecycle says no), forbidden or invalid. */
export type ChangeResult = Result<{ before: BookingDetails; after: BookingDetails }, 'not_found' | Exclude<Decision, { ok: true }>['reason']>;

/**
 * Applies a change if the lifecycle allows it. The write is conditional on the
 * status (and calendar sequence) read, so two people acting at once cannot
 * both move the booking.
 */
export function changeBooking(
  id: number,
  change: BookingChange,
  who: { user?: SessionUser | null; manageToken?: string },
  now = new Date(),
  /** The calendar sequence of the version the person was looking at, when known (the dashboard's forms). */
  seenSequence?: number,
): ChangeResult {
  const before = bookingDetails(id);
  const actor = before && actorFor(before, who);
  // Someone with no part in a booking learns nothing about it, not even that it exists.
  if (!before || !actor) return notFound('Booking not found.');
  if (seenSequence !== undefined && seenSequence !== before.booking.calendarSequence) return stale();

  const decided = decideBookingChange(withCancellationWindow(before.booking), change, actor, now);
  if (!decided.ok) return decided;
  const decision = decided.value;

  // The client's calendar must apply confirmations, new times and cancellations of a confirmed booking.
  const calendarChanges = decision.status === 'confirmed' || (decision.status === 'cancelled' && before.booking.status === 'confirmed');
  // The booking's lead follows it in the same transaction (issue 26).
  const result = db.transaction((tx) => {
    const changed = tx
      .update(bookings)
      .set({
        status: decision.status,
        // Only a confirmation or a new time sets the time; cancelling or
        // completing leaves whatever is stored.
        ...(decision.status === 'confirmed' ? { scheduledAt: decision.scheduledAt } : {}),
        // A cancellation inside the window with the fee accepted: the spa may then charge it (billing/fees.ts).
        ...(decision.lateCancel ? { lateCancelledAt: now } : {}),
        updatedAt: now,
        ...firstAnswer(actor, now),
        ...(calendarChanges ? { calendarSequence: sql`${bookings.calendarSequence} + 1` } : {}),
      })
      // Every change the calendar sees raises the sequence, so matching it too
      // refuses a change made against a time that was replaced meanwhile.
      .where(and(eq(bookings.id, id), eq(bookings.status, before.booking.status), eq(bookings.calendarSequence, before.booking.calendarSequence)))
      .run();
    if (changed.changes === 1) leadFollowsBooking(tx, id, decision.status, now);
    return changed;
  });
  if (result.changes === 0) return stale();
  return ok({ before, after: bookingDetails(id)! });
}

/** The spa's cancellation window in hours (the default for a request that names no spa). */
export function cancellationWindowOf(spaId: number | null): number {
  const spa = spaId === null ? undefined : db.select({ hours: spas.cancellationWindowHours }).from(spas).where(eq(spas.id, spaId)).get();
  return spa?.hours ?? DEFAULT_CANCELLATION_WINDOW_HOURS;
}

/** The booking as the lifecycle judges a cancellation: with its spa's window (a protected booking's own, as agreed at booking). */
export function withCancellationWindow<T extends BookingState & { spaId: number | null; policyWindowHours?: number | null }>(
  booking: T,
): T & { cancellationWindowHours: number } {
  return { ...booking, cancellationWindowHours: booking.policyWindowHours ?? cancellationWindowOf(booking.spaId) };
}

/**
 * The spa's first answer to a request (any change by the owner or an admin:
 * a confirmation, a new time, a decline), kept once, in the same statement as
 * the change; the client's own cancellation is no answer (response-time.ts).
 */
function firstAnswer(actor: BookingActor, now: Date) {
  return actor === 'client' ? {} : { firstAnsweredAt: sql`coalesce(${bookings.firstAnsweredAt}, ${now.getTime()})` };
}

// --- leads ------------------------------------------------------------------

/** Moves the booking's lead where the booking's new status takes it (leadStatusForBooking). */
function leadFollowsBooking(tx: Pick<typeof db, 'select' | 'update'>, bookingId: number, status: BookingStatus, now: Date): void {
  for (const lead of tx.select({ id: leads.id, status: leads.status }).from(leads).where(eq(leads.bookingId, bookingId)).all()) {
    const next = leadStatusForBooking(status, lead.status);
    if (next !== lead.status) tx.update(leads).set({ status: next, updatedAt: now }).where(eq(leads.id, lead.id)).run();
  }
}

export type LeadChangeResult = Result<{ id: number; status: LeadStatus }, 'not_found' | 'conflict'>;

/** Lead status, changed by the spa's owner (or an admin): new -> contacted -> converted or lost. */
export function changeLeadStatus(id: number, to: LeadStatus, user: SessionUser, now = new Date()): LeadChangeResult {
  const lead = db
    .select({ id: leads.id, status: leads.status, ownerId: spas.ownerId })
    .from(leads)
    .leftJoin(spas, eq(leads.spaId, spas.id))
    .where(eq(leads.id, id))
    .get();
  const mayAct = lead && (user.role === 'admin' || (lead.ownerId !== null && lead.ownerId === user.id));
  if (!lead || !mayAct) return notFound('Lead not found.');
  if (!canMoveLead(lead.status, to)) {
    return conflict(`A ${lead.status} lead cannot become ${to}.`, { code: 'invalid_transition' });
  }
  const result = db
    .update(leads)
    .set({ status: to, updatedAt: now })
    .where(and(eq(leads.id, id), eq(leads.status, lead.status)))
    .run();
  if (result.changes === 0) return conflict('The lead changed meanwhile. Reload and try again.');
  return ok({ id, status: to });
}

// --- the owner's side ---------------------------------------------------------

// Left joins: an admin also sees requests that named no spa (from the home
// page); for an owner, the filter on the spa's owner leaves those out.

type Viewer = Pick<SessionUser, 'id' | 'role'>;

/** The rows of the owner's spas; everything for an admin. */
const ofOwnersSpas = (user: Viewer) => (user.role === 'admin' ? undefined : eq(spas.ownerId, user.id));

/**
 * Bookings or leads of the owner's spas, newest first: who asked and when,
 * the spa's and the service's names, and the table's own `columns`.
 */
function listOwnerRows<T extends typeof bookings | typeof leads, C extends SelectedFields>(table: T, columns: C, user: Viewer, limit: number) {
  return db
    .select({
      id: table.id,
      status: table.status,
      name: table.name,
      email: table.email,
      phone: table.phone,
      createdAt: table.createdAt,
      spaName: spas.name,
      serviceName: services.name,
      ...columns,
    })
    .from(table)
    .leftJoin(spas, eq(table.spaId, spas.id))
    .leftJoin(services, eq(table.serviceId, services.id))
    .where(ofOwnersSpas(user))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(limit)
    .all();
}

/** Bookings of the owner's spas (all bookings for an admin), newest first. */
export function listOwnerBookings(user: Viewer, limit = 50) {
  const columns = {
    preferredDate: bookings.preferredDate,
    scheduledAt: bookings.scheduledAt,
    calendarSequence: bookings.calendarSequence,
    message: bookings.message,
    // No-show protection (billing/fees.ts): what the row's payments link says.
    protection: bookings.protection,
    secureStatus: bookings.secureStatus,
    noShowAt: bookings.noShowAt,
    lateCancelledAt: bookings.lateCancelledAt,
    feeDecision: bookings.feeDecision,
  };
  return listOwnerRows(bookings, columns, user, limit);
}

export type OwnerBooking = ReturnType<typeof listOwnerBookings>[number];

/** Leads of the owner's spas, newest first. */
export function listOwnerLeads(user: Viewer, limit = 50) {
  return listOwnerRows(leads, { source: leads.source, medium: leads.medium, campaign: leads.campaign }, user, limit);
}

/** The dashboard's counts: every request and lead, and those still waiting for the spa. */
export function ownerBookingCounts(user: Viewer) {
  const count = (table: typeof bookings | typeof leads, waiting: SQL) =>
    db
      .select({ total: sql<number>`count(*)`, waiting: sql<number>`coalesce(sum(${waiting}), 0)` })
      .from(table)
      .leftJoin(spas, eq(table.spaId, spas.id))
      .where(ofOwnersSpas(user))
      .get();
  const requests = count(bookings, eq(bookings.status, 'pending'));
  const leadCounts = count(leads, eq(leads.status, 'new'));
  return { requests: requests?.total ?? 0, pending: requests?.waiting ?? 0, leads: leadCounts?.total ?? 0, newLeads: leadCounts?.waiting ?? 0 };
}
