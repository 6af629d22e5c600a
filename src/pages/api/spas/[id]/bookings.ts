// POST /api/spas/{id}/bookings (issue 24): book one of the spa's open times.
// JSON in and out; the cross-origin guard (src/middleware.ts) has already
// refused a post from another origin. The form twin is /booking/time.
//   201 { booking, message, manageUrl, next? }  instant: confirmed; request: pending, the time held;
//                                                a spa asking for a card: pending, and `next` is the card step
//   409 { error: { code: 'slot_taken', details: { alternatives } } }   "That time was just taken", with the next open times
//   422 { error: { fields } }                   invalid, or a time the spa does not give
//   404, 429 (Retry-After)
import type { APIRoute } from 'astro';
import { whenLabel } from '#lib/availability.ts';
import { parseId } from '#lib/ids.ts';
import { getUser } from '#lib/server/auth/auth.ts';
import { bookOpenTime } from '#lib/server/availability/book.ts';
import { bookingJson } from '#lib/server/bookings/bookings.ts';
import { manageUrl } from '#lib/server/bookings/booking-mail.ts';
import { secureStepPath } from '#lib/server/billing/protection.ts';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { notFound } from '#lib/result.ts';
import { json, publicOrigin, readJson, refusalResponse } from '#lib/server/http.ts';

export const prerender = false;

/** A booking is a few short fields and a message of at most 2,000 characters. */
const BODY_LIMIT = 16_384;

export const POST: APIRoute = async (context) => {
  const spaId = parseId(context.params.id);
  if (spaId === null) return refusalResponse(notFound('Provider not found.'));
  const body = await readJson(context.request, BODY_LIMIT);
  if (!body.ok) return refusalResponse(body);
  const result = bookOpenTime(spaId, body.value, { clientAddress: clientAddressOf(context), user: getUser(context), origin: publicOrigin });
  if (!result.ok) return refusalResponse(result);
  const { details, message } = result.value;
  const { booking } = details;
  const appointment = {
    start: booking.scheduledAt!.toISOString(),
    end: booking.endsAt!.toISOString(),
    label: whenLabel(booking.scheduledAt!.getTime()),
    clinicianId: booking.clinicianId,
    room: booking.room,
  };
  const next = secureStepPath(details);
  return json({ booking: bookingJson(details), appointment, message, manageUrl: manageUrl(details, publicOrigin), ...(next ? { next } : {}) }, 201, {
    Location: `/api/bookings/${result.value.id}`,
  });
};
