// POST /api/bookings: a booking or consultation request (spec 7), from the
// booking form or any client. GET /api/bookings: the signed-in user's bookings.
import type { APIRoute } from 'astro';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { getUser, requireApiUser } from '#lib/server/auth/auth.ts';
import { bookingJson, listUserBookings, userBookingJson } from '#lib/server/bookings/bookings.ts';
import { requestBooking } from '#lib/server/bookings/request.ts';
import { secureStepPath } from '#lib/server/billing/protection.ts';
import { json, publicOrigin, readJson, refusalResponse } from '#lib/server/http.ts';

export const prerender = false;

/** A request is a few short fields and a message of at most 2,000 characters. */
const BODY_LIMIT = 16_384;

export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, BODY_LIMIT);
  if (!body.ok) return refusalResponse(body);
  const result = requestBooking(body.value, { clientAddress: clientAddressOf(context), userId: getUser(context)?.id, origin: publicOrigin });
  if (!result.ok) return refusalResponse(result);
  // `next`: a spa that asks for a card on file or a deposit takes the client to the card step (no-show protection).
  const next = secureStepPath(result.value.details);
  return json({ ...bookingJson(result.value.details), ...(next ? { next } : {}) }, 201, { Location: `/api/bookings/${result.value.id}` });
};

export const GET: APIRoute = (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  return json(listUserBookings(user).map(userBookingJson));
};
