// GET and PATCH /api/bookings/{id}: one booking, for the people it concerns
// (its client, the spa's owner, an admin). PATCH moves it through the
// lifecycle (src/lib/booking-lifecycle.ts) and tells the client by mail.
import type { APIRoute } from 'astro';
import { bookingChangeSchema } from '#lib/booking-schema.ts';
import { parseId } from '#lib/ids.ts';
import { requireApiUser } from '#lib/server/auth/auth.ts';
import { announceBookingChange } from '#lib/server/bookings/booking-mail.ts';
import { actorFor, bookingDetails, bookingJson, changeBooking } from '#lib/server/bookings/bookings.ts';
import { notFound } from '#lib/result.ts';
import { json, publicOrigin, readPatch, refusalResponse } from '#lib/server/http.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const id = parseId(context.params.id);
  const details = id === null ? null : bookingDetails(id);
  if (!details || !actorFor(details, { user })) return refusalResponse(notFound('Booking not found.'));
  return json(bookingJson(details));
};

export const PATCH: APIRoute = async (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const patch = await readPatch(context, 'Booking', bookingChangeSchema, 2_048);
  if (!patch.ok) return refusalResponse(patch);

  const result = changeBooking(patch.value.id, patch.value.change, { user });
  if (!result.ok) return refusalResponse(result);
  const { before, after } = result.value;
  announceBookingChange(before, after, actorFor(after, { user }) === 'client', publicOrigin);
  return json(bookingJson(after));
};
