// POST /api/clicks: a visitor followed a spa's outbound link (phone, website,
// booking link, directions, social feed). Fire and forget from the browser
// (src/components/ClickTracker.astro); the link itself works without it.
import type { APIRoute } from 'astro';
import { parseClickEvent } from '#lib/click-event.ts';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { allowClick, recordClick } from '#lib/server/directory/clicks.ts';
import { apiError, invalid, json, publicOrigin, readJson } from '#lib/server/http.ts';

export const prerender = false;

const BODY_LIMIT = 1024;

export const POST: APIRoute = async (context) => {
  const { request } = context;
  // Cross-origin posts never get here: src/middleware.ts refuses them (403).
  const address = clientAddressOf(context);
  const limit = allowClick(address);
  if (!limit.allowed) {
    return apiError(429, 'rate_limited', 'Too many clicks recorded from this address. Try again later.', undefined, {
      'Retry-After': String(limit.retryAfterSeconds),
    });
  }
  const body = await readJson(request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const click = parseClickEvent(body.value);
  if (!click.success) return invalid(click.error, 422);
  const result = recordClick(click.data, {
    address,
    userAgent: request.headers.get('user-agent'),
    userId: context.locals.user?.id ?? null,
    referer: request.headers.get('referer'),
    origin: publicOrigin,
  });
  if (!result.ok) return apiError(result.status, result.code, result.message);
  return json({ ok: true }, 202);
};
