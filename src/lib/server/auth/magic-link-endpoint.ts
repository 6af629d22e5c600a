// POST /api/auth/request (every sign-in form, spec 7; owners send `for: 'owner'`)
// and POST /api/magic-auth/send (owners, after a free spa is created): the same
// handler, each with its default purpose.
import type { APIRoute } from 'astro';
import { magicLinkRequestSchema } from '#lib/auth-schemas.ts';
import { logger } from '#lib/log.ts';
import { clientAddressOf } from '../directory/analytics.ts';
import { apiError, invalid, json, publicOrigin, readJson } from '../http.ts';
import { requestMagicLink, type MagicLinkPurpose } from './magic-links.ts';

const log = logger('auth');

function rateLimited(retryAfterSeconds: number): Response {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const response = apiError(429, 'rate_limited', `Too many sign-in links requested. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  response.headers.set('Retry-After', String(retryAfterSeconds));
  return response;
}

export const magicLinkEndpoint =
  (purpose: MagicLinkPurpose): APIRoute =>
  async (context) => {
    const body = await readJson(context.request, 2048);
    if (!body.ok) return body.response;
    const parsed = magicLinkRequestSchema.safeParse(body.value);
    if (!parsed.success) return invalid(parsed.error, 422);
    // The limits (per inbox, per client) are requestMagicLink's: the no-JS form page shares them.
    try {
      const result = await requestMagicLink({
        email: parsed.data.email,
        next: parsed.data.next,
        purpose: parsed.data.for ?? purpose,
        origin: publicOrigin,
        clientAddress: clientAddressOf(context),
      });
      if (!result.ok) return rateLimited(result.retryAfterSeconds);
      // The same answer whether or not the address has an account.
      return json({ sent: true, expiresInMinutes: 15 });
    } catch (error) {
      log.error('could not send a sign-in link', error);
      return apiError(502, 'mail_failed', 'Failed to send magic link. Please try again.');
    }
  };
