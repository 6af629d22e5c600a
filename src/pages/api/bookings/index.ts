// POST /api/bookings: a booking or consultation request (spec 7), from the
// booking form or any client. GET /api/bookings: the signed-in user's bookings.
import type { APIRoute } from 'astro';
import { bookingRequestSchema } from '#lib/booking-schema.ts';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { getUser, requireApiUser } from '#lib/server/auth/auth.ts';
import { announceNewBooking } from '#lib/server/bookings/booking-mail.ts';
import { allowBookingRequest, bookingDetails, bookingJson, createBooking, listUserBookings, userBookingJson } from '#lib/server/bookings/bookings.ts';
import { apiError, invalid, json, publicOrigin, readJson } from '#lib/server/http.ts';

export const prerender = false;

/** A request is a few short fields and a message of at most 2,000 characters. */
const BODY_LIMIT = 16_384;

export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = bookingRequestSchema.safeParse(body.value);
  if (!parsed.success) return invalid(parsed.error, 422);

  const limit = allowBookingRequest(parsed.data, clientAddressOf(context));
  if (!limit.allowed) {
    return apiError(429, 'rate_limited', 'Too many booking requests. Try again later or call us.', undefined, { 'Retry-After': String(limit.retryAfterSeconds) });
  }
  const created = createBooking(parsed.data, { userId: getUser(context)?.id });
  if (!created.ok) return apiError(422, 'invalid_request', 'Some fields are not valid.', created.fields);

  const details = bookingDetails(created.id)!;
  announceNewBooking(details, publicOrigin);
  return json(bookingJson(details), 201, { Location: `/api/bookings/${created.id}` });
};

export const GET: APIRoute = (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  return json(listUserBookings(user).map(userBookingJson));
};
