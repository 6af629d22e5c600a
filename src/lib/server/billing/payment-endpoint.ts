// The opening every payment endpoint shares (POST /api/create-payment-intent,
// /api/stripe/checkout, /api/stripe/portal): a signed-in user (401), Stripe
// configured (503), a JSON body of at most `limit` bytes, then the handler,
// whose result (payments.ts, checkout.ts) becomes the answer here.
import type { APIContext, APIRoute } from 'astro';
import type Stripe from 'stripe';
import type { Result } from '#lib/result.ts';
import { requireApiUser } from '../auth/auth.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { readJson, refusalResponse, resultResponse } from '../http.ts';
import { getStripe, paymentsNotConfigured } from './billing.ts';

export function paymentEndpoint(
  limit: number,
  handle: (user: SessionUser, body: unknown, stripe: Stripe, context: APIContext) => Promise<Result<unknown>>,
): APIRoute {
  return async (context) => {
    const user = requireApiUser(context);
    if (user instanceof Response) return user;
    const stripe = getStripe();
    if (!stripe) return refusalResponse(paymentsNotConfigured());
    const body = await readJson(context.request, limit);
    if (!body.ok) return refusalResponse(body);
    return resultResponse(await handle(user, body.value, stripe, context));
  };
}
