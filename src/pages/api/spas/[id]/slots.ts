// GET /api/spas/{id}/slots?service=&from=&days= (issue 24): a spa's open times
// for one service, public, cached briefly (a time taken meanwhile answers 409
// with fresh alternatives when booked). src/lib/server/availability/slots.ts
// has the query's rules and the answer's shape.
// With &booking={manage token}: the times as the client moving that booking
// sees them (their own booking left out of the calendar), private and never cached.
import type { APIRoute } from 'astro';
import { parseId } from '#lib/ids.ts';
import { notFound } from '#lib/result.ts';
import { json, refusalResponse } from '#lib/server/http.ts';
import { movableBookingId } from '#lib/server/availability/move.ts';
import { slotsFor, slotsJsonFor } from '#lib/server/availability/slots.ts';

export const prerender = false;

export const GET: APIRoute = ({ params, url }) => {
  const spaId = parseId(params.id);
  if (spaId === null) return refusalResponse(notFound('Provider not found.'));
  const token = url.searchParams.get('booking');
  if (token !== null) {
    const except = movableBookingId(token, spaId);
    if (except === null) return refusalResponse(notFound('Booking not found.'));
    const moving = slotsFor(spaId, url.searchParams, Date.now(), except);
    if (!moving.ok) return refusalResponse(moving);
    return json(moving.value, 200, { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' });
  }
  // A query that does not parse is the client's mistake in the address: 400 (malformed), as other GET endpoints answer.
  const result = slotsJsonFor(spaId, url.searchParams);
  if (!result.ok) return refusalResponse(result);
  return new Response(result.value, { headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=15' } });
};
