// The payment-intent endpoint's logic against the local Stripe stand-in, with
// the real SDK: stored price only, one intent per double click, bookings of
// other people untouched, and "paid" only from a signed webhook.
import { eq, like } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent } from '#tests/support/stripe-webhooks.ts';
import { bookings, cities, services, spas, users } from '#db/schema.ts';
import { createPaymentIntentFor } from './payments.ts';
import { outcomeOf, type Result } from '#lib/result.ts';
import { handleStripeWebhook } from './webhooks.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import type { SessionUser } from '../auth/sessions.ts';

const TAG = testTag('pay-test');
const SECRET = 'whsec_test_payments';
let standIn: StripeStandIn;
let stripe: Stripe;
const people = {} as Record<'alice' | 'bob', SessionUser>;
const fixture = { paid: 0, free: 0, consultation: 0, inactive: 0 };

function makeUser(who: string): SessionUser {
  const row = db
    .insert(users)
    .values({ email: `${TAG}-${who}@example.com`, firstName: who })
    .returning()
    .get();
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, profileImageUrl: row.profileImageUrl, role: row.role };
}

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  people.alice = makeUser('alice');
  people.bob = makeUser('bob');
  const cityId = db.select({ id: cities.id }).from(cities).limit(1).get()!.id;
  const spaId = db
    .insert(spas)
    .values({ name: `Pay Spa ${TAG}`, slug: `${TAG}-spa`, cityId })
    .returning()
    .get().id;
  const service = (name: string, priceCents: number, active = true) =>
    db.insert(services).values({ spaId, name, priceCents, duration: 60, category: 'facial', active }).returning().get().id;
  fixture.paid = service('Signature Facial', 25_000);
  fixture.free = service('Skin Check', 0);
  fixture.consultation = service('Laser Consultation', 5_000);
  fixture.inactive = service('Retired Peel', 9_000, false);
});

afterAll(async () => {
  await standIn.close();
});

/** The value, or the refusal as `error`, to read what an endpoint would answer. */
const bodyOf = (result: Result<{ clientSecret: string }>) => (result.ok ? { ...result.value, error: undefined } : { clientSecret: undefined, error: result });
const bookingsOf = (user: SessionUser) => db.select().from(bookings).where(eq(bookings.userId, user.id)).all();
const snapshot = () =>
  JSON.stringify(
    db
      .select()
      .from(bookings)
      .where(like(bookings.email, `${TAG}%`))
      .all(),
  );

describe('createPaymentIntentFor', () => {
  it('charges the stored price and ties the intent to the visitor’s booking', async () => {
    const result = await createPaymentIntentFor(people.alice, { serviceId: fixture.paid, amount: 250 }, stripe);
    expect(result.ok).toBe(true);
    const { clientSecret } = bodyOf(result);
    expect(clientSecret).toMatch(/^pi_.+_secret_/);
    const [booking] = bookingsOf(people.alice);
    expect(booking).toMatchObject({ serviceId: fixture.paid, paymentStatus: 'unpaid', paymentAmountCents: 25_000, status: 'pending' });
    const intent = standIn.paymentIntents.get(booking!.stripePaymentIntentId!)!;
    expect(intent.amount).toBe(25_000);
    expect(intent.metadata).toMatchObject({ booking_id: String(booking!.id) });
  });

  it('refuses a tampered amount (422) and changes nothing', async () => {
    const before = snapshot();
    const calls = standIn.requests.length;
    for (const amount of [1, 0.5, 249.99, '1', -250, 'NaN']) {
      const result = await createPaymentIntentFor(people.alice, { serviceId: fixture.paid, amount }, stripe);
      expect(outcomeOf(result)).toBe('invalid');
      const { error } = bodyOf(result);
      expect(['amount_mismatch', 'invalid_amount']).toContain(error!.code);
    }
    const mismatch = bodyOf(await createPaymentIntentFor(people.alice, { serviceId: fixture.paid, amount: 1 }, stripe));
    expect(mismatch.error!.message).toContain('$250.00');
    expect(snapshot()).toBe(before);
    expect(standIn.requests.length).toBe(calls);
  });

  it('refuses complimentary services (422), unknown and inactive ones (404), bad bodies (422)', async () => {
    const before = snapshot();
    expect(outcomeOf(await createPaymentIntentFor(people.bob, { serviceId: fixture.free, amount: 0 }, stripe))).toBe('invalid');
    expect(outcomeOf(await createPaymentIntentFor(people.bob, { serviceId: fixture.consultation, amount: 50 }, stripe))).toBe('invalid');
    expect(outcomeOf(await createPaymentIntentFor(people.bob, { serviceId: 999_999_999, amount: 1 }, stripe))).toBe('not_found');
    expect(outcomeOf(await createPaymentIntentFor(people.bob, { serviceId: fixture.inactive, amount: 90 }, stripe))).toBe('not_found');
    expect(outcomeOf(await createPaymentIntentFor(people.bob, { serviceId: 'x' }, stripe))).toBe('invalid');
    expect(outcomeOf(await createPaymentIntentFor(people.bob, null, stripe))).toBe('invalid');
    expect(snapshot()).toBe(before);
  });

  it('makes one intent for a double click', async () => {
    const [a, b] = await Promise.all([
      createPaymentIntentFor(people.bob, { serviceId: fixture.paid, amount: 250 }, stripe),
      createPaymentIntentFor(people.bob, { serviceId: fixture.paid, amount: 250 }, stripe),
    ]);
    const [first, second] = [bodyOf(a), bodyOf(b)];
    expect(first.clientSecret).toBe(second.clientSecret);
    expect(bookingsOf(people.bob)).toHaveLength(1);
    // A later visit reuses the unpaid intent instead of making another.
    const again = bodyOf(await createPaymentIntentFor(people.bob, { serviceId: fixture.paid, amount: 250 }, stripe));
    expect(again.clientSecret).toBe(first.clientSecret);
    const intents = [...standIn.paymentIntents.values()].filter((pi) => (pi.metadata as Record<string, string>).user_id === String(people.bob.id));
    expect(intents).toHaveLength(1);
  });

  it('never touches another user’s booking', async () => {
    const aliceBefore = JSON.stringify(bookingsOf(people.alice));
    const bobBooking = bookingsOf(people.bob)[0]!;
    // Bob pays for the service Alice has an open booking for: he gets his own.
    await createPaymentIntentFor(people.bob, { serviceId: fixture.paid, amount: 250 }, stripe);
    expect(JSON.stringify(bookingsOf(people.alice))).toBe(aliceBefore);
    expect(bookingsOf(people.bob).map((b) => b.id)).toEqual([bobBooking.id]);
  });

  it('shows paid only after the signed webhook, and a paid booking is not charged twice', async () => {
    const booking = bookingsOf(people.alice)[0]!;
    expect(booking.paymentStatus).toBe('unpaid');
    expect(booking.paidAt).toBeNull();
    const intent = standIn.setPaymentIntent(booking.stripePaymentIntentId!, { status: 'succeeded', amount_received: 25_000 });
    const { payload, header } = signEvent(makeEvent('payment_intent.succeeded', intent), SECRET);
    const answer = await handleStripeWebhook(payload, header, { secret: SECRET, stripe });
    expect(answer.ok).toBe(true);
    const after = db.select().from(bookings).where(eq(bookings.id, booking.id)).get()!;
    expect(after.paymentStatus).toBe('paid');
    expect(after.paidAt).not.toBeNull();
    // A late failure of the same intent does not undo it.
    const late = signEvent(
      makeEvent('payment_intent.payment_failed', { ...intent, status: 'requires_payment_method' }, Math.floor(Date.now() / 1000) + 60),
      SECRET,
    );
    await handleStripeWebhook(late.payload, late.header, { secret: SECRET, stripe });
    expect(db.select().from(bookings).where(eq(bookings.id, booking.id)).get()!.paymentStatus).toBe('paid');
    // Paying again for the same service starts a new booking; the paid one stays as it is.
    const next = await createPaymentIntentFor(people.alice, { serviceId: fixture.paid, amount: 250 }, stripe);
    expect(next.ok).toBe(true);
    expect(bookingsOf(people.alice)).toHaveLength(2);
  });

  it('answers 502 when Stripe fails, with the booking left unpaid', async () => {
    const carol = makeUser('carol');
    standIn.failNext(1);
    const result = await createPaymentIntentFor(carol, { serviceId: fixture.paid, amount: 250 }, standIn.client());
    expect(['upstream_failed']).toContain(outcomeOf(result));
    expect(bookingsOf(carol)[0]?.stripePaymentIntentId ?? null).toBeNull();
  });
});
