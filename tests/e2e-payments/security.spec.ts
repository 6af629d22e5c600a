// The payment holes of the second security review (issue 23, items 3 to 5),
// replayed against the served site with Stripe configured (the local
// stand-in, real signed webhooks): each attack is refused and the rows it
// aimed at are exactly as they were. Part of `npm run test:security`.
import { expect, test, type APIRequestContext } from '@playwright/test';
import Stripe from 'stripe';
import { stripeEnv } from '../../playwright.payments.config.ts';
import { and, asc, eq } from 'drizzle-orm';
import { bookingPayments, bookings, checkoutHolds, services, spas, users, type REVIEW_STATUSES } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { forgetLoopbackLimits } from '../support/limits.ts';
import { messageInOutbox } from '../support/outbox.ts';
import { createSignedInUser, type TestUser } from '../support/sessions.ts';
import { insertCity, insertSpa } from '../support/spas.ts';
import { makeEvent, sendWebhook } from '../support/stripe-webhooks.ts';

const standIn = `http://127.0.0.1:${stripeEnv.STRIPE_API_PORT}`;
const stripe = new Stripe(stripeEnv.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: Number(stripeEnv.STRIPE_API_PORT), protocol: 'http', maxNetworkRetries: 0 });

const post = (request: APIRequestContext, user: TestUser, path: string, data: unknown) =>
  request.post(path, { headers: { Origin: baseURL, Cookie: `session=${user.token}` }, data, maxRedirects: 0 });
const deliver = async (type: string, object: unknown) => {
  const answer = await sendWebhook(baseURL, makeEvent(type, object as Record<string, unknown>), stripeEnv.STRIPE_WEBHOOK_SECRET);
  expect(answer.status, await answer.clone().text()).toBe(200);
};
const control = async (path: string, body: Record<string, string> = {}) => {
  const response = await fetch(`${standIn}${path}`, { method: 'POST', body: new URLSearchParams(body) });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

// Every test connects from 127.0.0.1: its per-address checkout count starts afresh, as an hour having passed would.
test.beforeEach(() => forgetLoopbackLimits());

let n = 0;
function city(name: string): number {
  return insertCity(`${name} ${Date.now()} ${n++}`);
}
function ownerWithSpa(cityId: number, fields: { active?: boolean; review?: (typeof REVIEW_STATUSES)[number] } = {}) {
  const owner = createSignedInUser({ role: 'owner' });
  const spa = insertSpa({ name: `Holes Spa ${owner.id} ${n++}`, cityId, ownerId: owner.id });
  if (fields.active !== undefined || fields.review)
    db.update(spas)
      .set({ active: fields.active ?? true, reviewStatus: fields.review ?? 'approved' })
      .where(eq(spas.id, spa.id))
      .run();
  return { owner, spaId: spa.id };
}
/** Other spas of the city on Elite, filling `count` of its 3 places. */
function eliteSpas(cityId: number, count: number): void {
  for (let i = 0; i < count; i++)
    db.update(spas)
      .set({ tier: 'ELITE' })
      .where(eq(spas.id, insertSpa({ name: `Elite Filler ${cityId} ${i}`, cityId }).id))
      .run();
}
const holdsOfCity = (cityId: number) => db.select().from(checkoutHolds).where(eq(checkoutHolds.cityId, cityId)).orderBy(asc(checkoutHolds.id)).all();
const spaRow = (id: number) => db.select().from(spas).where(eq(spas.id, id)).get();
const bookingRows = (id: number) => db.select().from(bookings).where(eq(bookings.id, id)).all();

test.describe('23.3 Elite checkout holds', () => {
  test('a listing awaiting review cannot hold an Elite slot: 409, 0 rows changed', async ({ request }) => {
    const cityId = city('Pending City');
    const { owner, spaId } = ownerWithSpa(cityId, { active: false, review: 'pending' });
    const before = { spa: spaRow(spaId), holds: holdsOfCity(cityId) };
    const answer = await post(request, owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId });
    expect(answer.status()).toBe(409);
    expect((await answer.json()).error.code).toBe('elite_needs_approval');
    expect({ spa: spaRow(spaId), holds: holdsOfCity(cityId) }).toEqual(before);
  });

  test('re-posting does not renew a hold: the same checkout back, 0 rows changed', async ({ request }) => {
    const cityId = city('Renew City');
    const { owner, spaId } = ownerWithSpa(cityId);
    const first = await post(request, owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId });
    expect(first.status()).toBe(200);
    const { url } = await first.json();
    const before = holdsOfCity(cityId);
    expect(before).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      const again = await post(request, owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'annual', spaId });
      expect(again.status()).toBe(200);
      expect((await again.json()).url).toBe(url);
    }
    expect(holdsOfCity(cityId)).toEqual(before);
  });

  test('one account cannot hold a second slot with another listing: 409, 0 rows changed', async ({ request }) => {
    const cityId = city('Two Listings City');
    const { owner, spaId } = ownerWithSpa(cityId);
    const second = insertSpa({ name: `Second Listing ${owner.id}`, cityId, ownerId: owner.id }).id;
    expect((await post(request, owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId })).status()).toBe(200);
    const before = holdsOfCity(cityId);
    const answer = await post(request, owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId: second });
    expect(answer.status()).toBe(409);
    expect((await answer.json()).error.code).toBe('elite_hold_open');
    expect(holdsOfCity(cityId)).toEqual(before);
  });

  test('the endpoint is rate-limited: the 11th checkout in an hour is 429 and changes nothing', async ({ request }) => {
    const cityId = city('Busy City');
    const { owner, spaId } = ownerWithSpa(cityId);
    for (let i = 0; i < 10; i++)
      expect((await post(request, owner, '/api/stripe/checkout', { tier: 'PREMIUM', billing: 'monthly', spaId })).status()).toBe(200);
    const before = { spa: spaRow(spaId), holds: holdsOfCity(cityId) };
    const answer = await post(request, owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId });
    expect(answer.status()).toBe(429);
    expect(answer.headers()['retry-after']).toMatch(/^\d+$/);
    expect({ spa: spaRow(spaId), holds: holdsOfCity(cityId) }).toEqual(before);
  });

  test('an abandoned checkout is expired at Stripe and its slot is free at once', async ({ request }) => {
    const cityId = city('Abandon City');
    eliteSpas(cityId, 2);
    const a = ownerWithSpa(cityId);
    const b = ownerWithSpa(cityId);
    expect((await post(request, a.owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId: a.spaId })).status()).toBe(200);
    expect((await post(request, b.owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId: b.spaId })).status()).toBe(409);
    const [hold] = holdsOfCity(cityId);
    const session = await stripe.checkout.sessions.retrieve(hold!.checkoutSessionId!);
    // The owner presses "back" on Stripe's page: the cancel link, in their browser.
    const back = await request.get(session.cancel_url!, { headers: { Cookie: `session=${a.owner.token}` } });
    expect(back.status()).toBe(200);
    expect(back.headers()['referrer-policy']).toBe('same-origin');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
    expect(
      db.select({ releasedAt: checkoutHolds.releasedAt }).from(checkoutHolds).where(eq(checkoutHolds.checkoutSessionId, session.id)).get()!.releasedAt,
    ).not.toBeNull();
    expect((await post(request, b.owner, '/api/stripe/checkout', { tier: 'ELITE', billing: 'monthly', spaId: b.spaId })).status()).toBe(200);
  });
});

test('23.4 a switch to Elite in Stripe’s portal respects the city’s cap: the spa stays Premium (0 rows changed), the plan is put back, the owner told', async ({
  request,
}) => {
  const cityId = city('Portal City');
  const { owner, spaId } = ownerWithSpa(cityId);
  const opened = await post(request, owner, '/api/stripe/checkout', { tier: 'PREMIUM', billing: 'monthly', spaId });
  expect(opened.status()).toBe(200);
  // The stand-in's hosted page is /pay/{session id}.
  const sessionId = new URL((await opened.json()).url).pathname.split('/pay/')[1]!;
  await control(`/test/checkout/sessions/${sessionId}/complete`);
  await deliver('checkout.session.completed', await stripe.checkout.sessions.retrieve(sessionId));
  expect(spaRow(spaId)).toMatchObject({ tier: 'PREMIUM' });

  eliteSpas(cityId, 3);
  const before = spaRow(spaId);
  const subscriptionId = (await stripe.checkout.sessions.retrieve(sessionId)).subscription as string;
  await control(`/test/subscriptions/${subscriptionId}/switch`, { lookup_key: 'elite_monthly' });
  await deliver('customer.subscription.updated', await stripe.subscriptions.retrieve(subscriptionId));
  expect(spaRow(spaId)).toEqual(before);
  expect((await stripe.subscriptions.retrieve(subscriptionId)).items.data[0]!.price.lookup_key).toBe('premium_monthly');
  await messageInOutbox(owner.email, 'Elite is full in your city');
});

test('23.5 a payment on a superseded intent never marks the booking paid (0 rows changed): it is refunded once and the client told', async ({ request }) => {
  const cityId = city('Intent City');
  const { spaId } = ownerWithSpa(cityId);
  const service = db
    .insert(services)
    .values({ spaId, name: `Holes Peel ${spaId}`, priceCents: 10000, duration: 45, category: 'facial' })
    .returning({ id: services.id })
    .get().id;
  const client = createSignedInUser({ firstName: 'Superseded' });
  const email = db.select({ email: users.email }).from(users).where(eq(users.id, client.id)).get()!.email;
  expect((await post(request, client, '/api/create-payment-intent', { serviceId: service, amount: 100 })).status()).toBe(200);
  const booking = () => db.select().from(bookings).where(eq(bookings.userId, client.id)).get()!;
  const old = booking().stripePaymentIntentId!;

  // The price changes; the client opens the form again: the old intent is cancelled at Stripe.
  db.update(services).set({ priceCents: 12000 }).where(eq(services.id, service)).run();
  expect((await post(request, client, '/api/create-payment-intent', { serviceId: service, amount: 120 })).status()).toBe(200);
  expect((await stripe.paymentIntents.retrieve(old)).status).toBe('canceled');
  const current = booking().stripePaymentIntentId;
  expect(current).not.toBe(old);

  // A payment lands on an intent that is not the booking's current one (a second payment form): delivered twice.
  const stray = await stripe.paymentIntents.create({ amount: 10_000, currency: 'usd', metadata: { booking_id: String(booking().id) } });
  const paid = await control(`/test/payment_intents/${stray.id}/succeed`);
  const before = bookingRows(booking().id);
  await deliver('payment_intent.succeeded', paid);
  await deliver('payment_intent.succeeded', paid);
  expect(bookingRows(booking().id)).toEqual(before);
  expect(booking()).toMatchObject({ paymentStatus: 'unpaid', stripePaymentIntentId: current });
  const refunds = db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.bookingId, booking().id), eq(bookingPayments.kind, 'refund')))
    .all();
  expect(refunds).toMatchObject([{ amountCents: 10_000, status: 'succeeded' }]);
  expect((await stripe.refunds.retrieve(refunds[0]!.stripeRefundId!)).payment_intent).toBe(stray.id);
  await messageInOutbox(email, 'Refunded: a second payment');
});
