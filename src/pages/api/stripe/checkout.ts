// POST /api/stripe/checkout { tier, billing, spaId?, cityId?, spaData? } -> { url }
// (spec 7): a Stripe Checkout session for a Premium or Elite plan.
// Only the spa's owner may subscribe it; Elite is capped per city including
// open checkouts (src/lib/server/billing-checkout.ts).
import type { APIRoute } from 'astro';
import { requireApiUser } from '../../../lib/server/auth.ts';
import { getStripe, paymentsNotConfigured } from '../../../lib/server/billing.ts';
import { startSubscriptionCheckout } from '../../../lib/server/billing-checkout.ts';
import { publicOrigin, readJson } from '../../../lib/server/http.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const stripe = getStripe();
  if (!stripe) return paymentsNotConfigured();
  const body = await readJson(context.request, 16_384);
  if (!body.ok) return body.response;
  return startSubscriptionCheckout(user, body.value, stripe, { origin: publicOrigin });
};
