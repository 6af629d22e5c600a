// POST /api/stripe/portal { spaId } -> { url }: the owner manages billing in
// Stripe's customer portal (rulings: Listings, tiers and billing).
import type { APIRoute } from 'astro';
import { requireApiUser } from '../../../lib/server/auth.ts';
import { getStripe, paymentsNotConfigured } from '../../../lib/server/billing.ts';
import { openBillingPortal } from '../../../lib/server/billing-checkout.ts';
import { publicOrigin, readJson } from '../../../lib/server/http.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) return user;
  const stripe = getStripe();
  if (!stripe) return paymentsNotConfigured();
  const body = await readJson(context.request, 4_096);
  if (!body.ok) return body.response;
  return openBillingPortal(user, body.value, stripe, { origin: publicOrigin });
};
