// Webhooks as Stripe really delivers them: signed, at least once, in any
// order. 200 deliveries (shuffled, duplicated, some at the same moment) with
// 20 badly signed ones among them must end in exactly the state a clean,
// in-order run reaches; the bad ones get 400 and change nothing.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInWithPrices } from '#tests/support/stripe-client.ts';
import type { StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent, type TestEvent } from '#tests/support/stripe-webhooks.ts';
import { bookings, cities, services, spas, stripeEvents, subscriptions, users } from '#db/schema.ts';
import { createPaymentIntentFor } from './payments.ts';
import { startSubscriptionCheckout } from './checkout.ts';
import { handleStripeWebhook } from './webhooks.ts';
import { outcomeOf } from '#lib/result.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { random, shuffle } from '#tests/support/shuffle.ts';

const TAG = testTag('webhooks-test');
const SECRET = 'whsec_test_webhooks';
let standIn: StripeStandIn;
let stripe: Stripe;
let counter = 0;

function makeUser(who: string): SessionUser {
  const row = db
    .insert(users)
    .values({ email: `${TAG}-${who}-${counter++}@example.com`, role: 'owner' })
    .returning()
    .get();
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, profileImageUrl: row.profileImageUrl, role: row.role };
}

type Ending = 'active' | 'canceled_at_period_end' | 'past_due' | 'unpaid' | 'deleted';
const ENDINGS: { tier: 'PREMIUM' | 'ELITE'; ending: Ending }[] = [
  { tier: 'ELITE', ending: 'active' },
  { tier: 'ELITE', ending: 'deleted' },
  { tier: 'PREMIUM', ending: 'canceled_at_period_end' },
  { tier: 'PREMIUM', ending: 'past_due' },
  { tier: 'PREMIUM', ending: 'unpaid' },
  { tier: 'ELITE', ending: 'active' },
];

/**
 * One world: a city, six spas going through checkout and a life of
 * subscription events each, and three bookings paid by card (one fails first).
 * Returns the events in the order Stripe created them, and how to read the
 * world's final state.
 */
async function buildWorld(name: string) {
  const cityId = db
    .insert(cities)
    .values({ name: `City ${name}`, slug: `${TAG}-${name}` })
    .returning()
    .get().id;
  const events: TestEvent[] = [];
  let t = Math.floor(Date.now() / 1000) - 10_000;
  const spaIds: number[] = [];
  for (const [i, { tier, ending }] of ENDINGS.entries()) {
    const owner = makeUser(`${name}-owner-${i}`);
    const spaId = db
      .insert(spas)
      .values({ name: `Spa ${name} ${i}`, slug: `${TAG}-${name}-${i}`, cityId, ownerId: owner.id })
      .returning()
      .get().id;
    spaIds.push(spaId);
    const answer = await startSubscriptionCheckout(owner, { tier, billing: i % 2 ? 'annual' : 'monthly', spaId }, stripe, { origin: 'http://localhost:4321' });
    expect(answer.ok).toBe(true);
    const session = [...standIn.checkoutSessions.values()].find((s) => (s.metadata as Record<string, string>).spa_id === String(spaId))!;
    const sub = standIn.completeCheckout(String(session.id));
    const snap = (patch: Record<string, unknown>) => Object.assign(structuredClone(sub), patch);
    events.push(makeEvent('customer.subscription.created', snap({ status: 'incomplete' }), t++));
    events.push(makeEvent('checkout.session.completed', standIn.checkoutSessions.get(String(session.id))!, t++));
    events.push(makeEvent('customer.subscription.updated', snap({ status: 'active' }), t++));
    events.push(
      makeEvent(
        'invoice.payment_failed',
        { id: `in_${spaId}`, object: 'invoice', parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } } },
        t++,
      ),
    );
    events.push(makeEvent('customer.subscription.updated', snap({ status: 'past_due' }), t++));
    events.push(makeEvent('customer.subscription.updated', snap({ status: 'active' }), t++));
    const final =
      ending === 'deleted'
        ? snap({ status: 'canceled', canceled_at: t, ended_at: t })
        : ending === 'canceled_at_period_end'
          ? snap({ status: 'active', cancel_at_period_end: true, canceled_at: t })
          : snap({ status: ending });
    events.push(makeEvent(ending === 'deleted' ? 'customer.subscription.deleted' : 'customer.subscription.updated', final, t++));
    // What Stripe answers from now on, as it would after the last event.
    standIn.setSubscription(String(sub.id), final);
  }

  const bookingIds: number[] = [];
  const spaOfServices = spaIds[0]!;
  const serviceId = db
    .insert(services)
    .values({ spaId: spaOfServices, name: `Peel ${name}`, priceCents: 12_000, duration: 45, category: 'facial' })
    .returning()
    .get().id;
  for (let i = 0; i < 3; i++) {
    const client = makeUser(`${name}-client-${i}`);
    const answer = await createPaymentIntentFor(client, { serviceId, amount: 120 }, stripe);
    expect(answer.ok).toBe(true);
    const booking = db.select().from(bookings).where(eq(bookings.userId, client.id)).get()!;
    bookingIds.push(booking.id);
    const intent = standIn.paymentIntents.get(booking.stripePaymentIntentId!)!;
    if (i === 0) events.push(makeEvent('payment_intent.payment_failed', { ...intent, status: 'requires_payment_method' }, t++));
    if (i < 2) events.push(makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: 12_000 }, t++));
    else events.push(makeEvent('payment_intent.payment_failed', { ...intent, status: 'requires_payment_method' }, t++));
  }

  const state = () => ({
    spas: spaIds.map((id) => {
      const spa = db.select().from(spas).where(eq(spas.id, id)).get()!;
      return { tier: spa.tier, subscriptionStatus: spa.subscriptionStatus, active: spa.active, hasSubscription: Boolean(spa.stripeSubscriptionId) };
    }),
    subscriptions: spaIds.map((id) =>
      db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.spaId, id))
        .all()
        .map((s) => ({
          tier: s.tier,
          status: s.status,
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
          billing: s.billing,
          hasPeriod: s.currentPeriodEnd !== null,
          canceled: s.canceledAt !== null,
        })),
    ),
    bookings: bookingIds.map((id) => {
      const b = db.select().from(bookings).where(eq(bookings.id, id)).get()!;
      return { paymentStatus: b.paymentStatus, paid: b.paidAt !== null, status: b.status };
    }),
  });
  return { events, state, cityId };
}

const deliver = (event: TestEvent, secret = SECRET) => {
  const { payload, header } = signEvent(event, secret);
  return handleStripeWebhook(payload, header, { secret: SECRET, stripe });
};

beforeAll(async () => {
  ({ standIn, stripe } = await standInWithPrices());
});

afterAll(async () => {
  await standIn.close();
});

describe('handleStripeWebhook', () => {
  it('refuses a missing or bad signature (400) and stores nothing', async () => {
    const event = makeEvent('payment_intent.succeeded', { id: 'pi_x', object: 'payment_intent', status: 'succeeded', metadata: {} });
    const { payload, header } = signEvent(event, SECRET);
    const count = () => db.select().from(stripeEvents).all().length;
    const before = count();
    expect(outcomeOf(await handleStripeWebhook(payload, null, { secret: SECRET, stripe }))).toBe('malformed');
    expect(outcomeOf(await handleStripeWebhook(payload, header, { secret: 'whsec_other', stripe }))).toBe('malformed');
    expect(outcomeOf(await handleStripeWebhook(payload.replace('succeeded', 'failed'), header, { secret: SECRET, stripe }))).toBe('malformed');
    expect(outcomeOf(await handleStripeWebhook(payload, 't=1,v1=deadbeef', { secret: SECRET, stripe }))).toBe('malformed');
    expect(outcomeOf(await handleStripeWebhook(payload, header, { secret: null, stripe }))).toBe('malformed');
    // An old signature (replay beyond Stripe's 5-minute tolerance).
    const old = signEvent(event, SECRET, Math.floor(Date.now() / 1000) - 3_600);
    expect(outcomeOf(await handleStripeWebhook(old.payload, old.header, { secret: SECRET, stripe }))).toBe('malformed');
    expect(count()).toBe(before);
  });

  it('applies each event once', async () => {
    const event = makeEvent('customer.subscription.updated', {
      id: 'sub_unknown',
      object: 'subscription',
      status: 'active',
      metadata: {},
      items: { data: [] },
    });
    expect(await deliver(event)).toMatchObject({ ok: true, value: { result: 'unknown' } });
    expect(await deliver(event)).toMatchObject({ ok: true, value: { duplicate: true } });
  });

  it('200 shuffled, duplicated deliveries with 20 bad signatures end where a clean in-order run does', async () => {
    const clean = await buildWorld('clean');
    for (const event of clean.events) expect((await deliver(event)).ok).toBe(true);
    const expected = clean.state();
    // The clean run is what the rulings say.
    expect(expected.spas.map((s) => s.tier)).toEqual(['ELITE', 'FREE', 'PREMIUM', 'PREMIUM', 'FREE', 'ELITE']);
    expect(expected.spas.map((s) => s.subscriptionStatus)).toEqual(['active', 'canceled', 'active', 'past_due', 'unpaid', 'active']);
    expect(expected.subscriptions[2]![0]!.cancelAtPeriodEnd).toBe(true);
    expect(expected.bookings.map((b) => b.paymentStatus)).toEqual(['paid', 'paid', 'failed']);

    const messy = await buildWorld('messy');
    const rand = random(20261123);
    const good = messy.events.length;
    const deliveries: { event: TestEvent; bad: boolean }[] = [];
    while (deliveries.length < 180) deliveries.push({ event: messy.events[deliveries.length % good]!, bad: false });
    for (let i = 0; i < 20; i++) deliveries.push({ event: messy.events[Math.floor(rand() * good)]!, bad: true });
    const order = shuffle(deliveries, rand);
    expect(order).toHaveLength(200);

    // Bad deliveries are sent alone, with the state compared around them; good ones in bursts of up to 8 at once.
    let burst: Promise<{ ok: boolean }>[] = [];
    const flush = async () => {
      for (const answer of await Promise.all(burst)) expect(answer.ok).toBe(true);
      burst = [];
    };
    for (const delivery of order) {
      if (delivery.bad) {
        await flush();
        const before = JSON.stringify([messy.state(), db.select().from(stripeEvents).all().length]);
        const tampered = { ...delivery.event, data: { object: { ...delivery.event.data.object, status: 'active' } } };
        const { payload, header } = signEvent(delivery.event, SECRET);
        const variants = [
          () => handleStripeWebhook(payload, signEvent(delivery.event, 'whsec_attacker').header, { secret: SECRET, stripe }),
          () => handleStripeWebhook(JSON.stringify(tampered), header, { secret: SECRET, stripe }),
          () => handleStripeWebhook(payload, null, { secret: SECRET, stripe }),
        ];
        expect(outcomeOf(await variants[Math.floor(rand() * variants.length)]!())).toBe('malformed');
        expect(JSON.stringify([messy.state(), db.select().from(stripeEvents).all().length])).toBe(before);
      } else {
        burst.push(deliver(delivery.event));
        if (burst.length >= 8) await flush();
      }
    }
    await flush();
    expect(messy.state()).toEqual(expected);
  }, 60_000);
});
