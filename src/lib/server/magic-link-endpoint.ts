// POST /api/auth/request (every sign-in form, spec 7; owners send `for: 'owner'`)
// and POST /api/magic-auth/send (owners, after a free spa is created): the same
// handler, each with its default purpose.
import type { APIRoute } from 'astro';
import { magicLinkRequestSchema } from '../auth-schemas.ts';
import { logger } from '../log.ts';
import { rateLimitKeyForEmail } from '../rate-limit-key.ts';
import { clientAddressOf } from './analytics.ts';
import { hashClientAddress } from './client-address.ts';
import { apiError, invalid, json, publicOrigin, readJson } from './http.ts';
import { LIMIT_PER_EMAIL, requestMagicLink, type MagicLinkPurpose } from './magic-links.ts';
import { hit } from './rate-limit.ts';

const log = logger('auth');

/** The window of magic-links.ts's own limits: 15 minutes. */
const WINDOW_MS = 15 * 60_000;

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
    // victim+1@, victim+2@ ... reach one inbox: one count for all of them
    // (magic-links.ts counts the address as typed as well).
    const inbox = hit(`magic:inbox:${rateLimitKeyForEmail(parsed.data.email)}`, LIMIT_PER_EMAIL, WINDOW_MS);
    if (!inbox.allowed) return rateLimited(inbox.retryAfterSeconds);
    const address = clientAddressOf(context);
    try {
      const result = await requestMagicLink({
        email: parsed.data.email,
        next: parsed.data.next,
        purpose: parsed.data.for ?? purpose,
        origin: publicOrigin,
        // Only the keyed hash reaches the limit's key: the address itself is never stored.
        clientAddress: address && hashClientAddress(address),
      });
      if (!result.ok) return rateLimited(result.retryAfterSeconds);
      // The same answer whether or not the address has an account.
      return json({ sent: true, expiresInMinutes: 15 });
    } catch (error) {
      log.error('could not send a sign-in link', error);
      return apiError(502, 'mail_failed', 'Failed to send magic link. Please try again.');
    }
  };
