// POST /api/stripe/webhook: Stripe's event deliveries (src/lib/server/billing/webhooks.ts).
// The raw body is what Stripe signed, so it is read as bytes, never re-serialised.
// server/serve.ts caps bodies at 64 KiB (Stripe events are far smaller).
import type { APIRoute } from 'astro';
import { getStripe, webhookSecret } from '#lib/server/billing/billing.ts';
import { handleStripeWebhook } from '#lib/server/billing/webhooks.ts';
import { apiError, json, MAX_BODY_BYTES, payloadTooLarge, readBodyBytes } from '#lib/server/http.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request }) => {
  const stripe = getStripe();
  if (!stripe) return apiError(503, 'payments_not_configured', 'Payments are not configured on this site.');
  const bytes = await readBodyBytes(request, MAX_BODY_BYTES).catch(() => null);
  if (!bytes) return payloadTooLarge(MAX_BODY_BYTES);
  let payload: string;
  try {
    payload = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return apiError(400, 'invalid_encoding', 'The body is not valid UTF-8.');
  }
  try {
    const answer = await handleStripeWebhook(payload, request.headers.get('stripe-signature'), { secret: webhookSecret(), stripe });
    return json(answer.body, answer.status);
  } catch (error) {
    // Nothing was stored (the transaction rolled back): Stripe will deliver again.
    console.error('billing: webhook failed:', error instanceof Error ? error.message : error);
    return apiError(500, 'webhook_failed', 'The event could not be processed; it will be retried.');
  }
};
