// The card step of a booking whose spa asks for a card on file or a deposit
// (no-show protection, src/lib/server/billing/protection.ts). The manage
// link's secret is the key, as on the manage page.
//   POST -> { kind: 'setup' | 'deposit' | 'authenticate', clientSecret, amountCents } for Stripe.js to confirm,
//           or { kind: 'done' }; 404 unknown, 410 left unfinished too long, 503 without Stripe
//   GET  -> { secureStatus, status, authenticationPending }: where it stands (Stripe's webhook decides)
import type { APIRoute } from 'astro';
import { notFound } from '#lib/result.ts';
import { getStripe, paymentsNotConfigured } from '#lib/server/billing/billing.ts';
import { secureState, startSecureStep } from '#lib/server/billing/protection.ts';
import { json, readText, refusalResponse, resultResponse } from '#lib/server/http.ts';

export const prerender = false;

export const POST: APIRoute = async ({ params, request }) => {
  const stripe = getStripe();
  if (!stripe) return refusalResponse(paymentsNotConfigured());
  // Nothing is read from the body (the amounts are the booking's); it is only drained, capped.
  const body = await readText(request, 1_024);
  if (!body.ok) return refusalResponse(body);
  return resultResponse(await startSecureStep(params.token ?? '', stripe));
};

export const GET: APIRoute = ({ params }) => {
  const state = secureState(params.token ?? '');
  return state ? json(state) : refusalResponse(notFound('Booking not found.'));
};
