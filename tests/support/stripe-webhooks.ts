// Real signed Stripe webhooks for tests: events shaped like Stripe's, signed
// with the SDK's own generateTestHeaderString (the same HMAC Stripe uses), so
// the site's constructEvent checks them exactly as it checks Stripe's.
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

const sdk = new Stripe('sk_test_signing_only');

export interface TestEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Record<string, unknown> };
}

export function makeEvent(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)): TestEvent {
  return {
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    type,
    created,
    api_version: '2026-10-28.endive',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    // A snapshot, as Stripe sends: later changes to the object do not alter a sent event.
    data: { object: structuredClone(object) },
  };
}

/** The raw body and Stripe-Signature header for an event. */
export function signEvent(event: TestEvent, secret: string, timestamp?: number): { payload: string; header: string } {
  const payload = JSON.stringify(event, null, 2);
  const header = sdk.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
  return { payload, header };
}

/** Posts a signed event to a running site, as Stripe (or `stripe listen --forward-to`) would. */
export async function sendWebhook(siteUrl: string, event: TestEvent, secret: string, path = '/api/stripe/webhook'): Promise<Response> {
  const { payload, header } = signEvent(event, secret);
  return fetch(new URL(path, siteUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': header, 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
    body: payload,
  });
}
