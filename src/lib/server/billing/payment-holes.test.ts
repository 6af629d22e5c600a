// The payment holes of the second security review (issue 23, items 3 to 5),
// each as the attack it was, against the local Stripe stand-in with the real
// SDK and real signed webhooks:
//   3. Elite checkout holds: not for a listing awaiting review, not renewable
//      by the same listing, one at a time per account and few a day, the
//      endpoint rate-limited, and an abandoned checkout expired at Stripe.
//   4. The tier follows the subscription's current price (a portal switch),
//      and a switch to Elite respects the city's cap, also two at once.
//   5. A superseded payment intent is cancelled; a payment on one never marks
//      the booking paid: it is refunded once and the client is told.
import { and, eq, like } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInWithPrices } from '#tests/support/stripe-client.ts';
import type { StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent } from '#tests/support/stripe-webhooks.ts';
import { bookingPayments, bookings, checkoutHolds, cities, mailQueue, services, spas, subscriptions, users } from '#db/schema.ts';
import { CHECKOUT_LIMITS, ELITE_HOLD_LIMITS } from '#lib/billing-rules.ts';
import { outcomeOf, type Result } from '#lib/result.ts';
import { releaseAbandonedCheckout, startSubscriptionCheckout } from './checkout.ts';
import { createPaymentIntentFor } from './payments.ts';
import { handleStripeWebhook } from './webhooks.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import type { SessionUser } from '../auth/sessions.ts';

const TAG = testTag('holes-test');
const SECRET = 'whsec_test_holes';
const ORIGIN = 'http://localhost:4321';
let standIn: StripeStandIn;
let stripe: Stripe;
let n = 0;

function makeUser(who: string, role: SessionUser['role'] = 'owner'): SessionUser {
  const row = db
    .insert(users)
    .values({ email: `${TAG}-${who}-${n++}@example.com`, role })
    .returning()
    .get();
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, profileImageUrl: row.profileImageUrl, role: row.role };
}
const makeCity = (name: string) =>
  db
    .insert(cities)
    .values({ name: `${name} ${TAG}`, slug: `${TAG}-${name}-${n++}` })
    .returning()
    .get().id;
function makeSpa(owner: SessionUser | null, cityId: number, values: Partial<typeof spas.$inferInsert> = {}): number {
  const key = n++;
  return db
    .insert(spas)
    .values({ name: `Spa ${key}`, slug: `${TAG}-spa-${key}`, cityId, ownerId: owner?.id ?? null, ...values })
    .returning({ id: spas.id })
    .get().id;
}
const checkout = (user: SessionUser, body: Record<string, unknown>, now?: Date) =>
  startSubscriptionCheckout(user, { billing: 'monthly', ...body }, stripe, { origin: ORIGIN, ...(now ? { now } : {}) });
const urlOf = (result: Result<{ url: string }>) => (result.ok ? result.value.url : null);
const webhook = async (type: string, object: Record<string, unknown>, created?: number) => {
  const { payload, header } = signEvent(makeEvent(type, structuredClone(object), created), SECRET);
  const answer = await handleStripeWebhook(payload, header, { secret: SECRET, stripe, origin: ORIGIN });
  expect(answer.ok).toBe(true);
  return answer;
};
const holdsOf = (spaId: number) => db.select().from(checkoutHolds).where(eq(checkoutHolds.spaId, spaId)).all();
const sessionOf = (spaId: number) =>
  [...standIn.checkoutSessions.values()].filter((s) => (s.metadata as Record<string, string>).spa_id === String(spaId)).at(-1)!;
const mailsTo = (email: string) =>
  db
    .select()
    .from(mailQueue)
    .all()
    .filter((m) => (m.message as { to: string }).to === email);

beforeAll(async () => {
  ({ standIn, stripe } = await standInWithPrices());
});

afterAll(async () => {
  await standIn.close();
  const tagged = db
    .select({ id: cities.id })
    .from(cities)
    .where(like(cities.slug, `${TAG}%`))
    .all();
  for (const { id } of tagged) {
    const ids = db.select({ id: spas.id }).from(spas).where(eq(spas.cityId, id)).all();
    for (const spa of ids) db.delete(subscriptions).where(eq(subscriptions.spaId, spa.id)).run();
  }
});

describe('23.3 Elite checkout holds', () => {
  it('a listing awaiting review cannot hold an Elite slot, nor can a new listing at signup; nothing is written', async () => {
    const owner = makeUser('pending');
    const cityId = makeCity('pending');
    const pending = makeSpa(owner, cityId, { active: false, reviewStatus: 'pending' });
    const spasBefore = db.select().from(spas).where(eq(spas.cityId, cityId)).all();
    const refused = await checkout(owner, { tier: 'ELITE', spaId: pending });
    expect(refused).toMatchObject({ ok: false, reason: 'conflict', code: 'elite_needs_approval' });
    const signup = await checkout(owner, {
      tier: 'ELITE',
      spaData: { name: 'Throwaway Spa', cityId, address: '1 Main St', phone: '(949) 555-0100', email: 'throwaway@example.com' },
    });
    expect(signup).toMatchObject({ ok: false, code: 'elite_needs_approval' });
    expect(db.select().from(spas).where(eq(spas.cityId, cityId)).all()).toEqual(spasBefore);
    expect(db.select().from(checkoutHolds).where(eq(checkoutHolds.cityId, cityId)).all()).toEqual([]);
    // Premium is still open to it: its plan puts it live (docs/decisions/0021).
    expect((await checkout(owner, { tier: 'PREMIUM', spaId: pending })).ok).toBe(true);
  });

  it('posting again gives the same checkout back, with the hold’s time unchanged', async () => {
    const owner = makeUser('again');
    const spaId = makeSpa(owner, makeCity('again'));
    const t0 = new Date();
    const first = urlOf(await checkout(owner, { tier: 'ELITE', spaId }, t0));
    const [hold] = holdsOf(spaId);
    const sessions = standIn.checkoutSessions.size;
    for (const minutes of [1, 10, 29]) {
      const again = await checkout(owner, { tier: 'ELITE', spaId }, new Date(t0.getTime() + minutes * 60_000));
      expect(urlOf(again)).toBe(first);
    }
    expect(holdsOf(spaId)).toEqual([hold]);
    expect(standIn.checkoutSessions.size).toBe(sessions);
  });

  it('an account holds one slot at a time, and starts only a few holds a day', async () => {
    const owner = makeUser('many');
    const cityId = makeCity('many');
    const [a, b, c] = [makeSpa(owner, cityId), makeSpa(owner, cityId), makeSpa(owner, cityId)];
    const t0 = new Date();
    expect((await checkout(owner, { tier: 'ELITE', spaId: a }, t0)).ok).toBe(true);
    const second = await checkout(owner, { tier: 'ELITE', spaId: b }, t0);
    expect(second).toMatchObject({ ok: false, reason: 'conflict', code: 'elite_hold_open' });
    expect(holdsOf(b)).toEqual([]);

    // Each hold is abandoned (the cancel link), then the next one starts: a listing twice a day, the account four times.
    const cancel = async (spaId: number) => {
      const release = new URL(String(sessionOf(spaId).cancel_url)).searchParams.get('release');
      expect(await releaseAbandonedCheckout(release, stripe)).toBe(true);
    };
    await cancel(a);
    expect((await checkout(owner, { tier: 'ELITE', spaId: a }, t0)).ok).toBe(true);
    await cancel(a);
    const third = await checkout(owner, { tier: 'ELITE', spaId: a }, t0);
    expect(third).toMatchObject({ ok: false, reason: 'rate_limited', code: 'elite_hold_limit' });
    expect(ELITE_HOLD_LIMITS.perListingPerDay).toBe(2);
    expect((await checkout(owner, { tier: 'ELITE', spaId: b }, t0)).ok).toBe(true);
    await cancel(b);
    expect((await checkout(owner, { tier: 'ELITE', spaId: c }, t0)).ok).toBe(true);
    await cancel(c);
    const fifth = await checkout(owner, { tier: 'ELITE', spaId: c }, t0);
    expect(fifth).toMatchObject({ ok: false, reason: 'rate_limited', code: 'elite_hold_limit' });
    // A day later the account may try again.
    expect((await checkout(owner, { tier: 'ELITE', spaId: c }, new Date(t0.getTime() + 25 * 3_600_000))).ok).toBe(true);
  });

  it('the endpoint is rate-limited per account and per address, Premium included', async () => {
    const owner = makeUser('limited');
    const spaId = makeSpa(owner, makeCity('limited'));
    const results: string[] = [];
    for (let i = 0; i < CHECKOUT_LIMITS.perAccount + 2; i++) {
      results.push(outcomeOf(await startSubscriptionCheckout(owner, { tier: 'PREMIUM', billing: 'monthly', spaId }, stripe, { origin: ORIGIN })));
    }
    expect(results.filter((r) => r === 'ok')).toHaveLength(CHECKOUT_LIMITS.perAccount);
    expect(results.slice(-2)).toEqual(['rate_limited', 'rate_limited']);
    const others = Array.from({ length: CHECKOUT_LIMITS.perClient + 1 }, (_, i) => makeUser(`address-${i}`));
    const fromOneAddress = [];
    for (const other of others) {
      fromOneAddress.push(
        outcomeOf(await startSubscriptionCheckout(other, { tier: 'PREMIUM', billing: 'monthly' }, stripe, { origin: ORIGIN, clientAddress: '203.0.113.77' })),
      );
    }
    // Each of them has no spa (422), but the last is refused before anything is read.
    expect(fromOneAddress.slice(0, -1).every((r) => r === 'invalid')).toBe(true);
    expect(fromOneAddress.at(-1)).toBe('rate_limited');
  });

  it('the cancel link expires the session at Stripe and frees the slot; a wrong secret or a paid checkout changes nothing', async () => {
    const cityId = makeCity('abandon');
    for (let i = 0; i < 2; i++) makeSpa(null, cityId, { tier: 'ELITE' });
    const [a, b] = [makeUser('abandon-a'), makeUser('abandon-b')];
    const [spaA, spaB] = [makeSpa(a, cityId), makeSpa(b, cityId)];
    expect((await checkout(a, { tier: 'ELITE', spaId: spaA })).ok).toBe(true);
    expect(await checkout(b, { tier: 'ELITE', spaId: spaB })).toMatchObject({ code: 'elite_capacity' });
    const session = sessionOf(spaA);
    const release = new URL(String(session.cancel_url)).searchParams.get('release')!;
    expect(release).toMatch(/^\d+\.[a-z2-7]{32}$/);
    const [holdId] = release.split('.');
    for (const forged of [`${holdId}.${'a'.repeat(32)}`, `${Number(holdId) + 1}.${release.split('.')[1]}`, 'x', null]) {
      expect(await releaseAbandonedCheckout(forged, stripe)).toBe(false);
    }
    expect(holdsOf(spaA)[0]!.releasedAt).toBeNull();
    expect(standIn.checkoutSessions.get(String(session.id))!.status).toBe('open');

    expect(await releaseAbandonedCheckout(release, stripe)).toBe(true);
    expect(standIn.checkoutSessions.get(String(session.id))!.status).toBe('expired');
    expect(holdsOf(spaA)[0]!.releasedAt).not.toBeNull();
    expect(await releaseAbandonedCheckout(release, stripe)).toBe(false);
    expect((await checkout(b, { tier: 'ELITE', spaId: spaB })).ok).toBe(true);

    // A checkout that was paid is never expired by its cancel link.
    const paid = sessionOf(spaB);
    standIn.completeCheckout(String(paid.id));
    const paidRelease = new URL(String(paid.cancel_url)).searchParams.get('release');
    expect(await releaseAbandonedCheckout(paidRelease, stripe)).toBe(false);
    expect(standIn.checkoutSessions.get(String(paid.id))!.status).toBe('complete');
  });
});

describe('23.4 the tier follows the subscription’s current price', () => {
  /** An owner's spa on a paid plan through checkout and its webhook; the Stripe subscription. */
  async function subscribed(cityId: number, tier: 'PREMIUM' | 'ELITE') {
    const owner = makeUser(`plan-${tier}`);
    const spaId = makeSpa(owner, cityId);
    expect((await checkout(owner, { tier, spaId })).ok).toBe(true);
    const session = sessionOf(spaId);
    const sub = standIn.completeCheckout(String(session.id));
    await webhook('checkout.session.completed', standIn.checkoutSessions.get(String(session.id))!);
    return { owner, spaId, sub };
  }
  const tierOf = (spaId: number) => db.select({ tier: spas.tier }).from(spas).where(eq(spas.id, spaId)).get()!.tier;
  const lookupKeyOf = (subId: string) => (standIn.subscriptions.get(subId)!.items as { data: { price: { lookup_key: string } }[] }).data[0]!.price.lookup_key;

  it('a switch in the portal changes the tier both ways (the checkout’s metadata notwithstanding)', async () => {
    const cityId = makeCity('switch');
    const { spaId, sub } = await subscribed(cityId, 'PREMIUM');
    expect(tierOf(spaId)).toBe('PREMIUM');
    await webhook('customer.subscription.updated', standIn.switchPlan(String(sub.id), 'elite_monthly'));
    expect(tierOf(spaId)).toBe('ELITE');
    expect(
      db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.stripeSubscriptionId, String(sub.id)))
        .get(),
    ).toMatchObject({ tier: 'ELITE' });
    await webhook('customer.subscription.updated', standIn.switchPlan(String(sub.id), 'premium_annual'));
    expect(tierOf(spaId)).toBe('PREMIUM');
    expect(
      db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.stripeSubscriptionId, String(sub.id)))
        .get(),
    ).toMatchObject({
      tier: 'PREMIUM',
      billing: 'annual',
    });
  });

  it('a switch to Elite in a full city keeps the spa Premium, puts the plan back at Stripe and tells the owner', async () => {
    const cityId = makeCity('full');
    for (let i = 0; i < 3; i++) makeSpa(null, cityId, { tier: 'ELITE' });
    const { owner, spaId, sub } = await subscribed(cityId, 'PREMIUM');
    const spaBefore = db.select().from(spas).where(eq(spas.id, spaId)).get();
    const switched = standIn.switchPlan(String(sub.id), 'elite_annual');
    await webhook('customer.subscription.updated', switched);
    expect(db.select().from(spas).where(eq(spas.id, spaId)).get()).toEqual(spaBefore);
    expect(lookupKeyOf(String(sub.id))).toBe('premium_annual');
    const undo = standIn.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${String(sub.id)}`);
    expect(undo).toHaveLength(1);
    expect(undo[0]!.params).toMatchObject({ proration_behavior: 'create_prorations', metadata: { tier: 'PREMIUM' } });
    expect(mailsTo(owner.email).map((m) => (m.message as { subject: string }).subject)).toEqual([expect.stringContaining('Elite is full in your city')]);
    // The undo's own event, and the switch delivered again, change nothing more.
    await webhook('customer.subscription.updated', standIn.subscriptions.get(String(sub.id))!);
    await webhook('customer.subscription.updated', switched);
    expect(tierOf(spaId)).toBe('PREMIUM');
    expect(mailsTo(owner.email)).toHaveLength(1);
  });

  it('two switches to Elite at once for the last slot: one spa becomes Elite, the other stays Premium; an open checkout holds its slot too', async () => {
    const cityId = makeCity('race');
    for (let i = 0; i < 2; i++) makeSpa(null, cityId, { tier: 'ELITE' });
    const a = await subscribed(cityId, 'PREMIUM');
    const b = await subscribed(cityId, 'PREMIUM');
    const deliveries = [
      signEvent(makeEvent('customer.subscription.updated', structuredClone(standIn.switchPlan(String(a.sub.id), 'elite_monthly'))), SECRET),
      signEvent(makeEvent('customer.subscription.updated', structuredClone(standIn.switchPlan(String(b.sub.id), 'elite_monthly'))), SECRET),
    ];
    const answers = await Promise.all(
      deliveries.map(({ payload, header }) => handleStripeWebhook(payload, header, { secret: SECRET, stripe, origin: ORIGIN })),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    const tiers = [tierOf(a.spaId), tierOf(b.spaId)].sort();
    expect(tiers).toEqual(['ELITE', 'PREMIUM']);
    expect(
      db
        .select()
        .from(spas)
        .where(and(eq(spas.cityId, cityId), eq(spas.tier, 'ELITE')))
        .all(),
    ).toHaveLength(3);

    // Another city with one slot left, held by someone's open checkout: a portal switch cannot take it.
    const held = makeCity('held');
    for (let i = 0; i < 2; i++) makeSpa(null, held, { tier: 'ELITE' });
    const c = await subscribed(held, 'PREMIUM');
    const holder = makeUser('holder');
    expect((await checkout(holder, { tier: 'ELITE', spaId: makeSpa(holder, held) })).ok).toBe(true);
    await webhook('customer.subscription.updated', standIn.switchPlan(String(c.sub.id), 'elite_monthly'));
    expect(tierOf(c.spaId)).toBe('PREMIUM');
  });
});

describe('23.5 superseded payment intents', () => {
  let spaId = 0;
  beforeAll(() => {
    spaId = makeSpa(null, makeCity('intents'));
  });
  const service = (priceCents: number) =>
    db
      .insert(services)
      .values({ spaId, name: `Peel ${n++}`, priceCents, duration: 45, category: 'facial' })
      .returning()
      .get();
  const bookingOf = (client: SessionUser) => db.select().from(bookings).where(eq(bookings.userId, client.id)).get()!;
  const ledgerOf = (bookingId: number) => db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, bookingId)).all();
  const refundsOf = (intentId: string) => [...standIn.refunds.values()].filter((r) => r.payment_intent === intentId);

  it('a price change cancels the old intent at Stripe before the new one exists', async () => {
    const client = makeUser('price-change', 'client');
    const peel = service(10_000);
    expect((await createPaymentIntentFor(client, { serviceId: peel.id, amount: 100 }, stripe)).ok).toBe(true);
    const old = bookingOf(client).stripePaymentIntentId!;
    db.update(services).set({ priceCents: 12_000 }).where(eq(services.id, peel.id)).run();
    expect((await createPaymentIntentFor(client, { serviceId: peel.id, amount: 120 }, stripe)).ok).toBe(true);
    expect(standIn.paymentIntents.get(old)!.status).toBe('canceled');
    const current = bookingOf(client).stripePaymentIntentId!;
    expect(current).not.toBe(old);
    expect(standIn.paymentIntents.get(current)!.amount).toBe(12_000);
  });

  it('two forms opened at once across a price change: one intent is current, the other is withdrawn at Stripe', async () => {
    const client = makeUser('race', 'client');
    const peel = service(10_000);
    const first = createPaymentIntentFor(client, { serviceId: peel.id, amount: 100 }, stripe);
    db.update(services).set({ priceCents: 11_000 }).where(eq(services.id, peel.id)).run();
    const second = createPaymentIntentFor(client, { serviceId: peel.id, amount: 110 }, stripe);
    const outcomes = (await Promise.all([first, second])).map(outcomeOf).sort();
    expect(outcomes).toEqual(['conflict', 'ok']);
    const booking = bookingOf(client);
    const intents = [...standIn.paymentIntents.values()].filter((pi) => (pi.metadata as Record<string, string>).booking_id === String(booking.id));
    expect(intents).toHaveLength(2);
    expect(intents.filter((pi) => pi.status !== 'canceled').map((pi) => pi.id)).toEqual([booking.stripePaymentIntentId]);
  });

  it('an old intent the client paid before it was cancelled never marks the booking paid: refunded once, the client told once', async () => {
    const client = makeUser('old-paid', 'client');
    const peel = service(10_000);
    await createPaymentIntentFor(client, { serviceId: peel.id, amount: 100 }, stripe);
    const old = bookingOf(client).stripePaymentIntentId!;
    // The client confirms the old form while the price changes: Stripe now refuses to cancel it.
    standIn.succeedPaymentIntent(old);
    db.update(services).set({ priceCents: 12_000 }).where(eq(services.id, peel.id)).run();
    const second = await createPaymentIntentFor(client, { serviceId: peel.id, amount: 120 }, stripe);
    expect(second).toMatchObject({ ok: false, code: 'already_paid' });

    // Make the booking's current intent another one (a new form opened at the new price before the payment landed).
    const booking = bookingOf(client);
    const current = await stripe.paymentIntents.create({ amount: 12_000, currency: 'usd', metadata: { booking_id: String(booking.id) } });
    db.update(bookings).set({ stripePaymentIntentId: current.id }).where(eq(bookings.id, booking.id)).run();
    const before = bookingOf(client);
    const paidOld = standIn.paymentIntents.get(old)!;
    for (let i = 0; i < 3; i++) await webhook('payment_intent.succeeded', paidOld);
    expect(bookingOf(client)).toEqual(before);
    expect(refundsOf(old)).toHaveLength(1);
    expect(refundsOf(old)[0]).toMatchObject({ amount: 10_000, status: 'succeeded' });
    expect(ledgerOf(booking.id)).toMatchObject([{ kind: 'refund', amountCents: 10_000, status: 'succeeded', stripePaymentIntentId: old, actorRole: 'system' }]);
    expect(mailsTo(client.email).filter((m) => (m.message as { subject: string }).subject.startsWith('Refunded: a second payment'))).toHaveLength(1);
  });

  it('paying twice: the current intent pays the booking, a second succeeded intent is refunded', async () => {
    const client = makeUser('twice', 'client');
    const peel = service(9_000);
    await createPaymentIntentFor(client, { serviceId: peel.id, amount: 90 }, stripe);
    const booking = bookingOf(client);
    await webhook('payment_intent.succeeded', standIn.succeedPaymentIntent(booking.stripePaymentIntentId!));
    expect(bookingOf(client)).toMatchObject({ paymentStatus: 'paid', stripePaymentIntentId: booking.stripePaymentIntentId });
    const stray = await stripe.paymentIntents.create({ amount: 9_000, currency: 'usd', metadata: { booking_id: String(booking.id) } });
    await webhook('payment_intent.succeeded', standIn.succeedPaymentIntent(stray.id));
    expect(bookingOf(client)).toMatchObject({ paymentStatus: 'paid', stripePaymentIntentId: booking.stripePaymentIntentId });
    expect(refundsOf(stray.id)).toHaveLength(1);
    expect(refundsOf(booking.stripePaymentIntentId!)).toHaveLength(0);
    expect(ledgerOf(booking.id).filter((row) => row.kind === 'refund')).toHaveLength(1);
  });
});
