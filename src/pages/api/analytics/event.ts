import type { APIRoute } from 'astro';
import { parseAnalyticsEvent } from '../../../lib/analytics-event.ts';
import { clientAddressOf, recordEvent } from '../../../lib/server/analytics.ts';
import { invalid, json, readJson } from '../../../lib/server/http.ts';

export const prerender = false;

const BODY_LIMIT = 4096;

export const POST: APIRoute = async (context) => {
  const { request } = context;
  // Cross-origin posts never get here: src/middleware.ts refuses them (403).
  const body = await readJson(request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const event = parseAnalyticsEvent(body.value);
  if (!event.success) return invalid(event.error, 422);
  recordEvent(event.data, { address: clientAddressOf(context), userAgent: request.headers.get('user-agent'), userId: context.locals.user?.id ?? null });
  return json({ ok: true }, 202);
};
