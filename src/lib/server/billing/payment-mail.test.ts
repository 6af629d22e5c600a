// The mails Stripe's payment webhooks send, through the durable queue: the spa
// hears once that a booking was paid (payment_intent.succeeded), the client
// once that it was refunded in full (charge.refunded). Redeliveries, late and
// out-of-order events send nothing more and never undo a refund.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent, type TestEvent } from '#tests/support/stripe-webhooks.ts';
import { bookings, cities, services, spas, users } from '#db/schema.ts';
import { createPaymentIntentFor } from './payments.ts';
import { handleStripeWebhook } from './webhooks.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import type { SessionUser } from '../auth/sessions.ts';

const queued = vi.hoisted(() => [] as { to: string; subject: string; text: string }[]);
vi.mock('../mail/mail.ts', () => ({
  scheduleMail: () => {},
  unscheduleMail: () => {},
  sendMailInBackground: (message: { to: string; subject: string; text: string }) => void queued.push(message),
  sendMail: async () => {},
}));

const TAG = testTag('paymail-test');
const SECRET = 'whsec_test_payment_mail';
const ORIGIN = 'http://localhost:4321';
const OWNER = `${TAG}-owner@example.com`;
let standIn: StripeStandIn;
let stripe: Stripe;
let serviceId = 0;
let n = 0;

function makeClient(): SessionUser {
  const row = db
    .insert(users)
    .values({ email: `${TAG}-client-${n++}@example.com`, firstName: 'Dana' })
    .returning()
    .get();
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: null, profileImageUrl: null, role: row.role };
}
const deliver = (event: TestEvent) => {
  const { payload, header } = signEvent(event, SECRET);
  return handleStripeWebhook(payload, header, { secret: SECRET, stripe, origin: ORIGIN });
};
/** A client's booking with a payment intent, as /checkout leaves it. */
async function bookingWithIntent() {
  const client = makeClient();
  expect((await createPaymentIntentFor(client, { serviceId }, stripe)).ok).toBe(true);
  const booking = db.select().from(bookings).where(eq(bookings.userId, client.id)).get()!;
  const intent = standIn.paymentIntents.get(booking.stripePaymentIntentId!)!;
  return { client, booking, intent };
}
const succeeded = (intent: Record<string, unknown>, created?: number) =>
  makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: intent.amount }, created);
const refunded = (intent: Record<string, unknown>, amountRefunded: number, created?: number) =>
  makeEvent(
    'charge.refunded',
    {
      id: `ch_${n++}`,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: amountRefunded,
      refunded: amountRefunded === intent.amount,
      payment_intent: intent.id,
    },
    created,
  );
const statusOf = (id: number) => db.select({ status: bookings.paymentStatus }).from(bookings).where(eq(bookings.id, id)).get()!.status;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  const owner = db.insert(users).values({ email: OWNER, role: 'owner' }).returning().get();
  const cityId = db.select({ id: cities.id }).from(cities).limit(1).get()!.id;
  const spaId = db
    .insert(spas)
    .values({ name: `Mail Spa ${TAG}`, slug: `${TAG}-spa`, cityId, ownerId: owner.id })
    .returning()
    .get().id;
  serviceId = db.insert(services).values({ spaId, name: 'Signature Facial', priceCents: 18_500, duration: 60, category: 'facial' }).returning().get().id;
});
beforeEach(() => {
  queued.length = 0;
});
afterAll(async () => {
  await standIn.close();
});

describe('payment_intent.succeeded', () => {
  it('queues one mail to the spa’s owner with the amount, however often Stripe delivers', async () => {
    const { client, booking, intent } = await bookingWithIntent();
    const event = succeeded(intent);
    expect(await deliver(event)).toMatchObject({ ok: true, value: { result: 'applied' } });
    expect(statusOf(booking.id)).toBe('paid');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ to: OWNER, subject: 'Paid online: Signature Facial for Dana' });
    expect(queued[0]!.text).toContain('$185.00');
    expect(queued[0]!.text).toContain(client.email);

    expect(await deliver(event)).toMatchObject({ ok: true, value: { duplicate: true } });
    expect(await deliver(succeeded(intent))).toMatchObject({ ok: true, value: { result: 'ignored' } });
    expect(queued).toHaveLength(1);
  });

  it('sends nothing for a failed payment', async () => {
    const { booking, intent } = await bookingWithIntent();
    await deliver(makeEvent('payment_intent.payment_failed', { ...intent, status: 'requires_payment_method' }));
    expect(statusOf(booking.id)).toBe('failed');
    expect(queued).toHaveLength(0);
  });
});

describe('charge.refunded', () => {
  it('marks a paid booking refunded when the whole charge is refunded and tells the client once', async () => {
    const { client, booking, intent } = await bookingWithIntent();
    await deliver(succeeded(intent));
    queued.length = 0;

    // A partial refund leaves the booking paid and says nothing.
    expect(await deliver(refunded(intent, 5_000))).toMatchObject({ ok: true, value: { result: 'ignored' } });
    expect(statusOf(booking.id)).toBe('paid');
    expect(queued).toHaveLength(0);

    const full = refunded(intent, Number(intent.amount));
    expect(await deliver(full)).toMatchObject({ ok: true, value: { result: 'applied' } });
    expect(statusOf(booking.id)).toBe('refunded');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ to: client.email, subject: 'Refunded: Signature Facial at Mail Spa ' + TAG });
    expect(queued[0]!.text).toContain('$185.00');
    await deliver(full);
    await deliver(refunded(intent, Number(intent.amount)));
    expect(queued).toHaveLength(1);
  });

  it('wins over a "succeeded" that arrives after it (Stripe sends in any order)', async () => {
    const { booking, intent } = await bookingWithIntent();
    const t = Math.floor(Date.now() / 1000);
    await deliver(refunded(intent, Number(intent.amount), t + 5));
    expect(statusOf(booking.id)).toBe('refunded');
    expect(await deliver(succeeded(intent, t))).toMatchObject({ ok: true, value: { result: 'ignored' } });
    expect(statusOf(booking.id)).toBe('refunded');
    // The spa is not told of a payment that is already refunded.
    expect(queued.filter((m) => m.to === OWNER)).toHaveLength(0);
  });

  it('ignores a refund of a charge that is no booking’s', async () => {
    expect(
      await deliver(
        makeEvent('charge.refunded', { id: 'ch_x', object: 'charge', amount: 100, amount_refunded: 100, refunded: true, payment_intent: 'pi_unknown' }),
      ),
    ).toMatchObject({ ok: true, value: { result: 'unknown' } });
    expect(queued).toHaveLength(0);
  });
});
