// POST /api/clicks: a visitor followed a spa's outbound link (phone, website,
// booking link, directions, social feed). Fire and forget from the browser
// (src/components/Analytics.astro, src/lib/client/analytics.ts); the link itself works without it.
import type { APIRoute } from 'astro';
import { clickEventSchema } from '#lib/click-event.ts';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { allowClick, recordClick } from '#lib/server/directory/clicks.ts';
import { json, publicOrigin, readBody, refusalResponse } from '#lib/server/http.ts';

export const prerender = false;

const BODY_LIMIT = 1024;

export const POST: APIRoute = async (context) => {
  const { request } = context;
  // Cross-origin posts never get here: src/middleware.ts refuses them (403).
  const address = clientAddressOf(context);
  const allowed = allowClick(address);
  if (!allowed.ok) return refusalResponse(allowed);
  const click = await readBody(request, clickEventSchema, BODY_LIMIT);
  if (!click.ok) return refusalResponse(click);
  const result = recordClick(click.value, {
    address,
    userAgent: request.headers.get('user-agent'),
    userId: context.locals.user?.id ?? null,
    referer: request.headers.get('referer'),
    origin: publicOrigin,
  });
  return result.ok ? json({ ok: true }, 202) : refusalResponse(result);
};
