import type { APIRoute } from 'astro';
import { analyticsEventSchema } from '#lib/analytics-event.ts';
import { acceptEvent, clientAddressOf } from '#lib/server/directory/analytics.ts';
import { json, readBody, refusalResponse } from '#lib/server/http.ts';

export const prerender = false;

const BODY_LIMIT = 4096;

export const POST: APIRoute = async (context) => {
  // Cross-origin posts never get here: src/middleware.ts refuses them (403).
  const event = await readBody(context.request, analyticsEventSchema, BODY_LIMIT);
  if (!event.ok) return refusalResponse(event);
  const outcome = acceptEvent(event.value, { address: clientAddressOf(context), userId: context.locals.user?.id ?? null });
  if (!outcome.ok) return refusalResponse(outcome);
  // A repeated view is answered like a stored one: the sender learns nothing, the count does not grow.
  return json({ ok: true }, 202);
};
