// POST /api/stripe/webhook: Stripe's event deliveries (src/lib/server/billing/webhooks.ts).
// The raw body is what Stripe signed, so it is read as bytes, never re-serialised.
// server/serve.ts caps bodies at 64 KiB (Stripe events are far smaller).
import type { APIRoute } from 'astro';
import { getStripe, paymentsNotConfigured, webhookSecret } from '#lib/server/billing/billing.ts';
import { handleStripeWebhook } from '#lib/server/billing/webhooks.ts';
import { apiError, errorBody, json, MAX_BODY_BYTES, readText, refusalResponse, statusOf } from '#lib/server/http.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request }) => {
  const stripe = getStripe();
  if (!stripe) return refusalResponse(paymentsNotConfigured());
  const payload = await readText(request, MAX_BODY_BYTES);
  if (!payload.ok) return refusalResponse(payload);
  try {
    const answer = await handleStripeWebhook(payload.value, request.headers.get('stripe-signature'), { secret: webhookSecret(), stripe });
    return answer.ok ? json({ received: true, ...answer.value }) : json({ received: false, ...errorBody(answer) }, statusOf(answer));
  } catch (error) {
    // Nothing was stored (the transaction rolled back): Stripe will deliver again.
    console.error('billing: webhook failed:', error instanceof Error ? error.message : error);
    return apiError(500, 'webhook_failed', 'The event could not be processed; it will be retried.');
  }
};
