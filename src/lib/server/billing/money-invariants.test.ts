// Money is never taken twice and never refunded twice (issue 25): two worlds
// of 96 protected bookings (cards that pay, cards whose bank asks for
// authentication, declined cards, deposits with a failed first try) go
// through the same life: the card step, confirmations, no-shows, late
// cancellations and cancellations in time, the owner's fees, the clients'
// authentications, refunds. The clean world gets every Stripe webhook once,
// in order, and one owner click per fee. The messy world gets them shuffled,
// duplicated (1 to 5 times), delivered 8 at a time, with old ones redelivered
// late, stale failures after successes and badly signed ones mixed in, and
// 50+ owner clicks at once (double clicks, the owner and an editor in two
// tabs). Both end with the same charges, refunds and bookings.
import { eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingPayments, bookings, cities, services, spas } from '#db/schema.ts';
import type { NoShowPolicy } from '#lib/no-show-policy.ts';
import { CARD, DEPOSIT, standInForBilling } from '#tests/support/stripe-client.ts';
import type { StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent, type TestEvent } from '#tests/support/stripe-webhooks.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { bookingDetails, changeBooking, createBooking } from '../bookings/bookings.ts';
import { db } from '../db.ts';
import { drainMail } from '../mail/mail.ts';
import { chargeFee } from './fees.ts';
import { ledgerOfBooking } from './ledger.ts';
import { settleCancellation, startSecureStep } from './protection.ts';
import { markNoShow } from './fees.ts';
import { handleStripeWebhook } from './webhooks.ts';
import { random, shuffle } from '#tests/support/shuffle.ts';
import { logger } from '#lib/log.ts';

const log = logger('money-invariants');

const TAG = testTag('money');
const SECRET = 'whsec_test_money';
const ORIGIN = 'http://127.0.0.1:4321';
const HOUR = 3_600_000;
const CARDS = 64;
const DEPOSITS = 32;
let standIn: StripeStandIn;
let stripe: Stripe;
let owner: ReturnType<typeof insertUser>;
let editor: ReturnType<typeof insertUser>;
let cityId = 0;

beforeAll(async () => {
  ({ standIn, stripe } = await standInForBilling());
  owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  editor = insertUser(`${TAG}-editor@example.com`, 'admin');
  cityId = db
    .insert(cities)
    .values({ name: `City ${TAG}`, slug: `${TAG}-city` })
    .returning()
    .get().id;
});

afterAll(async () => {
  // The webhooks queued mail; it goes out before the worker's next file starts.
  await drainMail();
  await standIn.close();
});

interface Delivery {
  event: TestEvent;
  badSignature?: boolean;
}

type Mode = 'clean' | 'messy';

/** Delivers events as Stripe would in the mode: once and in order, or shuffled, duplicated and concurrent. */
async function deliverAll(events: TestEvent[], mode: Mode, rand: () => number, stats: { deliveries: number; refused: number }) {
  const deliveries: Delivery[] =
    mode === 'clean'
      ? events.map((event) => ({ event }))
      : shuffle(
          events.flatMap((event) => [
            ...Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({ event })),
            ...(rand() < 0.1 ? [{ event, badSignature: true }] : []),
          ]),
          rand,
        );
  const batch = mode === 'clean' ? 1 : 8;
  for (let i = 0; i < deliveries.length; i += batch) {
    await Promise.all(
      deliveries.slice(i, i + batch).map(async ({ event, badSignature }) => {
        const { payload, header } = signEvent(event, badSignature ? 'whsec_wrong' : SECRET);
        const answer = await handleStripeWebhook(payload, header, { secret: SECRET, stripe, origin: ORIGIN });
        stats.deliveries++;
        if (badSignature) {
          expect(answer.ok).toBe(false);
          stats.refused++;
        } else expect(answer.ok).toBe(true);
      }),
    );
  }
}

async function live(name: string, mode: Mode, seed: number) {
  const rand = random(seed);
  const stats = { deliveries: 0, refused: 0, ownerActions: 0, concurrentOwnerActions: 0 };
  let t = Math.floor(Date.now() / 1000) - 50_000;
  const spa = (key: string, policy: NoShowPolicy) =>
    db
      .insert(spas)
      .values({ name: `Spa ${name} ${key}`, slug: `${TAG}-${name}-${key}`, cityId, ownerId: owner.id, noShowPolicy: policy })
      .returning()
      .get().id;
  const service = (spaId: number) =>
    db
      .insert(services)
      .values({ spaId, name: `Treatment ${name}`, duration: 60, priceCents: 20_000, category: 'facial' })
      .returning()
      .get().id;
  const cardSpa = spa('card', CARD);
  const depositSpa = spa('deposit', DEPOSIT);
  const cardService = service(cardSpa);
  const depositService = service(depositSpa);

  // The bookings, and the card step of each (Stripe's objects made; the clients confirm them).
  const people = Array.from({ length: CARDS + DEPOSITS }, (_, i) => {
    const deposit = i >= CARDS;
    const created = createBooking({
      name: `Client ${i}`,
      email: `${TAG}-${name}-${i}@example.com`,
      serviceId: deposit ? depositService : cardService,
      spaId: deposit ? depositSpa : cardSpa,
    });
    if (!created.ok) throw new Error('no booking');
    const card = deposit ? 'pm_card_visa' : i % 8 === 5 ? 'pm_card_authenticationRequired' : i % 8 === 7 ? 'pm_card_chargeDeclined' : 'pm_card_visa';
    return { i, deposit, card, ...created.value };
  });
  const firstEvents: TestEvent[] = [];
  for (const person of people) {
    const step = await startSecureStep(person.manageToken, stripe);
    expect(step.ok).toBe(true);
    if (!person.deposit) {
      const setup = standIn.succeedSetupIntent(db.select().from(bookings).where(eq(bookings.id, person.id)).get()!.stripeSetupIntentId!, person.card);
      firstEvents.push(makeEvent('setup_intent.succeeded', setup, t++));
    } else {
      const intentId = ledgerOfBooking(person.id)[0]!.stripePaymentIntentId!;
      if (person.i % 3 === 0) {
        const declined = {
          ...standIn.paymentIntents.get(intentId)!,
          status: 'requires_payment_method',
          last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
        };
        firstEvents.push(makeEvent('payment_intent.payment_failed', declined, t++));
      }
      firstEvents.push(makeEvent('payment_intent.succeeded', standIn.succeedPaymentIntent(intentId, person.card), t++));
    }
  }
  await deliverAll(firstEvents, mode, rand, stats);

  // Confirmations, then the visits' fates: a no-show, a late cancellation, a cancellation in time (the client's or the spa's), or nothing.
  const now = new Date();
  const at = new Date(now.getTime() + 72 * HOUR);
  for (const person of people) {
    expect(changeBooking(person.id, { status: 'confirmed', scheduledAt: at }, { user: owner }, now).ok).toBe(true);
    const fate = person.i % 5;
    if (fate === 0) expect(markNoShow(person.id, owner, new Date(at.getTime() + HOUR)).ok).toBe(true);
    if (fate === 1) {
      const fee = bookingDetails(person.id)!.booking.lateCancelFeeCents!;
      expect(
        changeBooking(person.id, { status: 'cancelled', acceptFeeCents: fee }, { manageToken: person.manageToken }, new Date(at.getTime() - 3 * HOUR)).ok,
      ).toBe(true);
    }
    if (fate === 2 || fate === 3) {
      const cancelled = changeBooking(person.id, { status: 'cancelled' }, fate === 2 ? { manageToken: person.manageToken } : { user: owner }, now);
      expect(cancelled.ok).toBe(true);
      if (cancelled.ok) {
        const settles = mode === 'clean' ? 1 : 3;
        await Promise.all(Array.from({ length: settles }, () => settleCancellation(cancelled.value.after, stripe, ORIGIN)));
      }
    }
  }

  // The owner's fees: once each in the clean world; in the messy one, every fee pressed 2 to 5 times at once, by the owner and an editor.
  const withFees = people.filter((p) => p.i % 5 === 0 || p.i % 5 === 1);
  const clicks = withFees.flatMap((p) => {
    const fee = bookingDetails(p.id)!.booking;
    const kind = p.i % 5 === 0 ? 'no_show_fee' : 'late_cancel_fee';
    const amountCents = kind === 'no_show_fee' ? fee.noShowFeeCents! : fee.lateCancelFeeCents!;
    const times = mode === 'clean' ? 1 : 2 + Math.floor(rand() * 4);
    return Array.from({ length: times }, (_, k) => () => chargeFee(p.id, { kind, amountCents }, k % 2 ? editor : owner, stripe, ORIGIN));
  });
  stats.ownerActions = clicks.length;
  if (mode === 'clean') for (const click of clicks) expect((await click()).ok).toBe(true);
  else {
    const answers = await Promise.all(shuffle(clicks, rand).map((click) => click()));
    stats.concurrentOwnerActions = answers.length;
    expect(answers.every((answer) => answer.ok)).toBe(true);
  }

  // What Stripe says afterwards: each fee's success or failure, the clients who confirm with their bank, every refund.
  const laterEvents: TestEvent[] = [];
  const ids = people.map((p) => p.id);
  const rows = () => db.select().from(bookingPayments).where(inArray(bookingPayments.bookingId, ids)).all();
  for (const row of rows()) {
    if ((row.kind === 'no_show_fee' || row.kind === 'late_cancel_fee') && row.stripePaymentIntentId && !people[ids.indexOf(row.bookingId)]!.deposit) {
      let intent = standIn.paymentIntents.get(row.stripePaymentIntentId)!;
      if (row.status === 'requires_action') intent = standIn.succeedPaymentIntent(row.stripePaymentIntentId);
      if (intent.status === 'succeeded') {
        laterEvents.push(makeEvent('payment_intent.succeeded', intent, t++));
        // A stale failure, sent before the success but delivered after it.
        if (mode === 'messy') laterEvents.push(makeEvent('payment_intent.payment_failed', { ...intent, status: 'requires_payment_method' }, t - 5));
      } else laterEvents.push(makeEvent('payment_intent.payment_failed', intent, t++));
    }
    if (row.kind === 'refund' && row.stripeRefundId) laterEvents.push(makeEvent('refund.updated', standIn.refunds.get(row.stripeRefundId)!, t++));
  }
  // Old deliveries again, late (Stripe retries what it thinks was missed).
  const late = mode === 'messy' ? firstEvents.filter(() => rand() < 0.3) : [];
  await deliverAll([...laterEvents, ...late], mode, rand, stats);

  // The end: each booking as its client and owner see it, and the money at Stripe.
  const intents = [...standIn.paymentIntents.values()].filter((pi) => ids.includes(Number((pi.metadata as Record<string, string>).booking_id)));
  const charged = intents.filter((pi) => pi.status === 'succeeded');
  const refunds = [...standIn.refunds.values()].filter((r) => intents.some((pi) => pi.id === r.payment_intent));
  const ledger = rows();
  return {
    stats,
    state: {
      bookings: people.map((p) => {
        const b = db.select().from(bookings).where(eq(bookings.id, p.id)).get()!;
        return {
          i: p.i,
          status: b.status,
          secureStatus: b.secureStatus,
          feeDecision: b.feeDecision,
          noShow: b.noShowAt !== null,
          lateCancel: b.lateCancelledAt !== null,
          ledger: ledger
            .filter((r) => r.bookingId === p.id)
            .map((r) => `${r.kind}:${r.amountCents}:${r.status}`)
            .sort(),
        };
      }),
      chargedCents: charged.reduce((sum, pi) => sum + Number(pi.amount), 0),
      charges: charged.length,
      refundedCents: refunds.reduce((sum, r) => sum + Number(r.amount), 0),
      refunds: refunds.length,
    },
  };
}

describe('money invariants', () => {
  it(
    'shuffled, duplicated and delayed webhooks and 50+ concurrent owner clicks end with the charges and refunds of a clean run',
    { timeout: 120_000 },
    async () => {
      const clean = await live('clean', 'clean', 1);
      const messy = await live('messy', 'messy', 20_261_127);
      log.info(
        `money invariants: clean run ${clean.stats.deliveries} deliveries, ${clean.stats.ownerActions} owner clicks; messy run ${messy.stats.deliveries} deliveries (${messy.stats.refused} badly signed, refused), ${messy.stats.concurrentOwnerActions} owner clicks at once; ` +
          `both: ${messy.state.charges} charges, $${messy.state.chargedCents / 100} charged, ${messy.state.refunds} refunds, $${messy.state.refundedCents / 100} refunded`,
      );
      expect(messy.stats.deliveries).toBeGreaterThanOrEqual(500);
      expect(messy.stats.concurrentOwnerActions).toBeGreaterThanOrEqual(50);
      expect(messy.state).toEqual(clean.state);
      // And the clean run is what the policy says: nothing is left pending, every fee that could be charged was, once.
      const ledgers = clean.state.bookings.flatMap((b) => b.ledger);
      expect(ledgers.filter((l) => l.endsWith(':pending'))).toEqual([]);
      expect(clean.state.bookings.filter((b) => b.feeDecision === 'charged')).toHaveLength(clean.state.bookings.filter((b) => b.noShow || b.lateCancel).length);
      expect(clean.state.refunds).toBeGreaterThan(0);
    },
  );
});
