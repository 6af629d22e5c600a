// POST /api/owner/create-spa (spec 7): registers a spa from the signup form
// (src/lib/server/listings/signup.ts). 201 with the listing awaiting review, or
// { url } of Stripe Checkout for a signed-in owner's paid plan; 422 with the
// fields, 429 when signups from this client or to this address are too many.
import type { APIRoute } from 'astro';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { getUser } from '#lib/server/auth/auth.ts';
import { getStripe } from '#lib/server/billing/billing.ts';
import { json, publicOrigin, readJson, refusalResponse } from '#lib/server/http.ts';
import { registerSpa, signupJson } from '#lib/server/listings/signup.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, 16_384);
  if (!body.ok) return refusalResponse(body);
  const outcome = await registerSpa(body.value, { user: getUser(context), clientAddress: clientAddressOf(context), origin: publicOrigin, stripe: getStripe() });
  if (!outcome.ok) return refusalResponse(outcome);
  return outcome.value.kind === 'checkout' ? json({ url: outcome.value.url }) : json(signupJson(outcome.value), 201);
};
