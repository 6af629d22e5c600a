// POST /api/stripe/portal { spaId } -> { url }: the owner manages billing in
// Stripe's customer portal (rulings: Listings, tiers and billing).
import { paymentEndpoint } from '#lib/server/billing/payment-endpoint.ts';
import { openBillingPortal } from '#lib/server/billing/checkout.ts';
import { publicOrigin } from '#lib/server/http.ts';

export const prerender = false;

export const POST = paymentEndpoint(4_096, (user, body, stripe) => openBillingPortal(user, body, stripe, { origin: publicOrigin }));
