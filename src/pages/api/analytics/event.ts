import type { APIRoute } from 'astro';
import { parseAnalyticsEvent } from '#lib/analytics-event.ts';
import { acceptEvent, clientAddressOf } from '#lib/server/directory/analytics.ts';
import { apiError, invalid, json, readJson } from '#lib/server/http.ts';

export const prerender = false;

const BODY_LIMIT = 4096;

export const POST: APIRoute = async (context) => {
  const { request } = context;
  // Cross-origin posts never get here: src/middleware.ts refuses them (403).
  const body = await readJson(request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const event = parseAnalyticsEvent(body.value);
  if (!event.success) return invalid(event.error, 422);
  const outcome = acceptEvent(event.data, { address: clientAddressOf(context), userId: context.locals.user?.id ?? null });
  if (outcome.status === 'rate_limited') {
    return apiError(429, 'rate_limited', 'Too many events.', undefined, { 'Retry-After': String(outcome.retryAfterSeconds) });
  }
  // A repeated view is answered like a stored one: the sender learns nothing, the count does not grow.
  return json({ ok: true }, 202);
};
