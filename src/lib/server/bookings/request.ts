// A booking request, as POST /api/bookings (JSON) and the no-JS page
// /booking/request (a form) both take it: parse, limit, store, mail. The
// result says its status, so neither caller guesses it from a message.
import { bookingRequestSchema, type BookingRequest } from '#lib/booking-schema.ts';
import { fieldErrors } from '../http.ts';
import { announceNewBooking } from './booking-mail.ts';
import { allowBookingRequest, bookingDetails, createBooking, type BookingDetails } from './bookings.ts';

export type BookingRequestResult =
  | { ok: true; status: 201; id: number; details: BookingDetails }
  /** A field is not valid, or names a service or spa that is not bookable. */
  | { ok: false; status: 422; fields: Record<string, string> }
  /** Over a limit of BOOKING_LIMITS (per client, address or spa). */
  | { ok: false; status: 429; retryAfterSeconds: number };

type Schema = { safeParse(input: unknown): { success: true; data: BookingRequest } | { success: false; error: Parameters<typeof fieldErrors>[0] } };

export interface RequestContext {
  /** The client's address (clientAddressOf), for its limit; null skips that limit. */
  clientAddress: string | null;
  /** The signed-in member who asked, whose account then lists the request. */
  userId?: number | null;
  /** The site's origin, for the links in the two mails. */
  origin: string;
  /** The payload's schema: the request's own, or the form's (which adds the consent box, dropped here). */
  schema?: Schema;
}

export function requestBooking(input: unknown, context: RequestContext): BookingRequestResult {
  const parsed = (context.schema ?? bookingRequestSchema).safeParse(input);
  if (!parsed.success) return { ok: false, status: 422, fields: fieldErrors(parsed.error) };
  const { consent: _consent, ...request } = parsed.data as BookingRequest & { consent?: true };

  const limit = allowBookingRequest(request, context.clientAddress);
  if (!limit.allowed) return { ok: false, status: 429, retryAfterSeconds: limit.retryAfterSeconds };

  const created = createBooking(request, { userId: context.userId });
  if (!created.ok) return { ok: false, status: 422, fields: created.fields };
  const details = bookingDetails(created.id)!;
  announceNewBooking(details, context.origin);
  return { ok: true, status: 201, id: created.id, details };
}
