// POST /api/stripe/checkout { tier, billing, spaId?, cityId?, spaData? } -> { url }
// (spec 7): a Stripe Checkout session for a Premium or Elite plan.
// Only the spa's owner may subscribe it; Elite is capped per city including
// open checkouts, and checkouts are rate-limited per account and address
// (src/lib/server/billing/checkout.ts).
import { paymentEndpoint } from '#lib/server/billing/payment-endpoint.ts';
import { startSubscriptionCheckout } from '#lib/server/billing/checkout.ts';
import { clientAddressOf } from '#lib/server/directory/analytics.ts';
import { publicOrigin } from '#lib/server/http.ts';

export const prerender = false;

export const POST = paymentEndpoint(16_384, (user, body, stripe, context) =>
  startSubscriptionCheckout(user, body, stripe, { origin: publicOrigin, clientAddress: clientAddressOf(context) }),
);
