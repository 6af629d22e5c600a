// POST /api/create-payment-intent { serviceId, amount } -> { clientSecret } (spec 7).
// Signed-in only; the amount charged is the service's stored price
// (src/lib/server/billing-payments.ts).
import type { APIRoute } from 'astro';
import { requireApiUser } from '../../lib/server/auth.ts';
import { getStripe, paymentsNotConfigured } from '../../lib/server/billing.ts';
import { createPaymentIntentFor } from '../../lib/server/billing-payments.ts';
import { readJson } from '../../lib/server/http.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const stripe = getStripe();
  if (!stripe) return paymentsNotConfigured();
  const body = await readJson(context.request, 4_096);
  if (!body.ok) return body.response;
  return createPaymentIntentFor(user, body.value, stripe);
};
