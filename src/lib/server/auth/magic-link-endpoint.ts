// POST /api/auth/request (every sign-in form, spec 7; owners send `for: 'owner'`)
// and POST /api/magic-auth/send (owners, after a free spa is created): the same
// handler, each with its default purpose.
import type { APIRoute } from 'astro';
import { magicLinkRequestSchema } from '#lib/auth-schemas.ts';
import { clientAddressOf } from '../directory/analytics.ts';
import { json, publicOrigin, readBody, refusalResponse } from '../http.ts';
import { requestMagicLink, type MagicLinkPurpose } from './magic-links.ts';

export const magicLinkEndpoint =
  (purpose: MagicLinkPurpose): APIRoute =>
  async (context) => {
    const body = await readBody(context.request, magicLinkRequestSchema, 2048);
    if (!body.ok) return refusalResponse(body);
    // The limits (per inbox, per client) are requestMagicLink's: the no-JS form page shares them.
    const result = await requestMagicLink({
      email: body.value.email,
      next: body.value.next,
      purpose: body.value.for ?? purpose,
      origin: publicOrigin,
      clientAddress: clientAddressOf(context),
    });
    // The same answer whether or not the address has an account.
    return result.ok ? json({ sent: true, expiresInMinutes: 15 }) : refusalResponse(result);
  };
