// POST /api/create-payment-intent { serviceId, amount } -> { clientSecret } (spec 7).
// Signed-in only; the amount charged is the service's stored price
// (src/lib/server/billing/payments.ts).
import { paymentEndpoint } from '#lib/server/billing/payment-endpoint.ts';
import { createPaymentIntentFor } from '#lib/server/billing/payments.ts';

export const prerender = false;

export const POST = paymentEndpoint(4_096, (user, body, stripe) => createPaymentIntentFor(user, body, stripe));
