// A booking request, as POST /api/bookings (JSON) and the no-JS page
// /booking/request (a form) both take it: parse, limit, store, mail. The
// result's reason says what went wrong, so neither caller guesses it from a message.
import { bookingRequestSchema, type BookingRequest } from '#lib/booking-schema.ts';
import { ok, parseWith, rateLimited, type Result, type Schema } from '#lib/result.ts';
import { announceNewBooking } from './booking-mail.ts';
import { allowBookingRequest, bookingDetails, createBooking, type BookingDetails } from './bookings.ts';

/**
 * The stored request; refused as invalid (a field, or a service or spa that
 * is not bookable) or rate_limited (over a limit of BOOKING_LIMITS).
 */
export type BookingRequestResult = Result<{ id: number; details: BookingDetails }, 'invalid' | 'rate_limited'>;

export interface RequestContext {
  /** The client's address (clientAddressOf), for its limit; null skips that limit. */
  clientAddress: string | null;
  /** The signed-in member who asked, whose account then lists the request. */
  userId?: number | null;
  /** The site's origin, for the links in the two mails. */
  origin: string;
  /** The payload's schema: the request's own, or the form's (which adds the consent box, dropped here). */
  schema?: Schema<BookingRequest>;
}

export function requestBooking(input: unknown, context: RequestContext): BookingRequestResult {
  const parsed = parseWith(context.schema ?? bookingRequestSchema, input);
  if (!parsed.ok) return parsed;
  const { consent: _consent, ...request } = parsed.value as BookingRequest & { consent?: true };

  const limit = allowBookingRequest(request, context.clientAddress);
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds, 'Too many booking requests. Try again later or call us.');

  const created = createBooking(request, { userId: context.userId });
  if (!created.ok) return created;
  const details = bookingDetails(created.value.id)!;
  // A request waiting for its card step (no-show protection) is announced when Stripe says the card is saved (billing/protection.ts).
  if (details.booking.secureStatus !== 'awaiting') announceNewBooking(details, context.origin);
  return ok({ id: created.value.id, details });
}
