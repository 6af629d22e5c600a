// GET /api/spas/{id}/slots?service=&from=&days= (issue 24): a spa's open times
// for one service, public, cached briefly (a time taken meanwhile answers 409
// with fresh alternatives when booked). src/lib/server/availability/slots.ts
// has the query's rules and the answer's shape.
import type { APIRoute } from 'astro';
import { parseId } from '#lib/ids.ts';
import { apiError, notFound } from '#lib/server/http.ts';
import { STATUS_OF } from '#lib/server/availability/result.ts';
import { slotsJsonFor } from '#lib/server/availability/slots.ts';

export const prerender = false;

export const GET: APIRoute = ({ params, url }) => {
  const spaId = parseId(params.id);
  if (spaId === null) return notFound('Provider');
  const result = slotsJsonFor(spaId, url.searchParams);
  if (!result.ok) {
    // A query that does not parse is the client's mistake in the address: 400, as other GET endpoints answer.
    const status = result.reason === 'invalid' ? 400 : STATUS_OF[result.reason];
    return apiError(status, result.reason === 'invalid' ? 'invalid_request' : result.reason, result.message, result.fields);
  }
  return new Response(result.value, { headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=15' } });
};
