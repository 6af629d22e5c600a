// No-show protection (issue 25) through the real database, the real Stripe
// SDK against the local stand-in and real signed webhooks: the policy stored
// at booking in dollars, the card step (SetupIntent or deposit) secured only
// by Stripe's webhook, deposits refunded on a cancellation in time or by the
// spa, a late cancellation's fee offered to the owner, "Mark no-show" and a
// fee charged once off-session (double clicks, two tabs), a bank that asks
// for authentication, a declined card, an editor's refund with a reason, and
// the database's own floor under the amounts.
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, bookingPayments, bookings, cities, clinicians, mailQueue, services, spas } from '#db/schema.ts';
import { closedWeek } from '#lib/opening-hours.ts';
import type { NoShowPolicy } from '#lib/no-show-policy.ts';
import { outcomeOf } from '#lib/result.ts';
import { CARD, DEPOSIT, standInForBilling } from '#tests/support/stripe-client.ts';
import type { StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent } from '#tests/support/stripe-webhooks.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { bookOpenTime } from '../availability/book.ts';
import { announceBookingChange } from '../bookings/booking-mail.ts';
import { bookingDetails, changeBooking, createBooking } from '../bookings/bookings.ts';
import { requestBooking } from '../bookings/request.ts';
import { db } from '../db.ts';
import { useStripeClient } from './billing.ts';
import { chargeFee, chargeFeeAgain, feeOffer, markNoShow, refundFee, waiveFee } from './fees.ts';
import { ledgerOfBooking } from './ledger.ts';
import { secureState, startSecureStep } from './protection.ts';
import { lapseUnfinishedCardSteps } from './unfinished.ts';
import { handleStripeWebhook } from './webhooks.ts';

const TAG = testTag('no-show');
const SECRET = 'whsec_test_no_show';
const ORIGIN = 'http://127.0.0.1:4321';
const HOUR = 3_600_000;
let standIn: StripeStandIn;
let stripe: Stripe;
let n = 0;
const fixture = { cityId: 0, cardSpa: 0, depositSpa: 0, cardService: 0, depositService: 0 };
const owner = () => people.owner!;
const people: Record<'owner' | 'other' | 'editor', ReturnType<typeof insertUser> | undefined> = { owner: undefined, other: undefined, editor: undefined };

beforeAll(async () => {
  ({ standIn, stripe } = await standInForBilling());
  people.owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  people.other = insertUser(`${TAG}-other@example.com`, 'owner');
  people.editor = insertUser(`${TAG}-editor@example.com`, 'admin');
  fixture.cityId = db
    .insert(cities)
    .values({ name: `City ${TAG}`, slug: `${TAG}-city` })
    .returning()
    .get().id;
  const nineToFive = [['09:00', '17:00']] as const;
  const spa = (key: string, policy: NoShowPolicy, extra: Partial<typeof spas.$inferInsert> = {}) =>
    db
      .insert(spas)
      .values({
        name: `Spa ${key}`,
        slug: `${TAG}-${key}`,
        cityId: fixture.cityId,
        ownerId: owner().id,
        noShowPolicy: policy,
        cancellationWindowHours: 24,
        ...extra,
      })
      .returning()
      .get().id;
  fixture.cardSpa = spa('card', CARD);
  fixture.depositSpa = spa('deposit', DEPOSIT, {
    openingHours: { ...closedWeek(), mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive, sat: nineToFive },
    bookingMode: 'instant',
    bookingHorizonDays: 30,
  });
  const service = (spaId: number, name: string) =>
    db.insert(services).values({ spaId, name, treatment: 'botox', duration: 30, priceCents: 20_000, category: 'injectable' }).returning().get().id;
  fixture.cardService = service(fixture.cardSpa, 'Card Facial');
  fixture.depositService = service(fixture.depositSpa, 'Deposit Botox');
  db.insert(clinicians)
    .values({ spaId: fixture.depositSpa, name: 'Ana', role: 'NP', licenseNumber: `${TAG}1`.slice(-12).toUpperCase(), treatments: ['botox'] })
    .run();
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  useStripeClient(stripe);
});

const email = () => `${TAG}-client-${++n}@example.com`;
const row = (id: number) => db.select().from(bookings).where(eq(bookings.id, id)).get()!;
const mailsTo = (to: string) =>
  db
    .select()
    .from(mailQueue)
    // Sent at once (reminders are scheduled for later, with their own time).
    .where(and(like(sql`json_extract(${mailQueue.message}, '$.to')`, to), isNull(mailQueue.notBefore)))
    .all()
    .map((m) => m.message as { subject: string; text: string; icalEvent?: { content: string } });
const deliver = async (type: string, object: unknown) => {
  const { payload, header } = signEvent(makeEvent(type, structuredClone(object) as Record<string, unknown>), SECRET);
  const answer = await handleStripeWebhook(payload, header, { secret: SECRET, stripe, origin: ORIGIN });
  expect(answer.ok).toBe(true);
  return answer;
};

/** A request with a card on file, its card saved through Stripe (webhook), confirmed by the owner for `at`. */
async function securedCardBooking(at: Date, now = new Date()) {
  const created = createBooking({ name: 'Card Client', email: email(), serviceId: fixture.cardService, spaId: fixture.cardSpa });
  if (!created.ok) throw new Error('no booking');
  const { id, manageToken } = created.value;
  const step = await startSecureStep(manageToken, stripe);
  expect(step).toMatchObject({ ok: true, value: { kind: 'setup' } });
  const setup = standIn.succeedSetupIntent(row(id).stripeSetupIntentId!, 'pm_card_visa');
  await deliver('setup_intent.succeeded', setup);
  const confirmed = changeBooking(id, { status: 'confirmed', scheduledAt: at }, { user: owner() }, now);
  expect(confirmed.ok).toBe(true);
  return { id, token: manageToken };
}

describe('booking under a policy', () => {
  it('stores the policy in dollars, sends the client to the card step and tells nobody until Stripe says the card is saved', async () => {
    const to = email();
    const result = requestBooking({ name: 'Rae', email: to, serviceId: fixture.cardService, spaId: fixture.cardSpa }, { clientAddress: null, origin: ORIGIN });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const booking = row(result.value.id);
    expect(booking).toMatchObject({
      protection: 'card',
      secureStatus: 'awaiting',
      status: 'pending',
      policyPriceCents: 20_000,
      policyWindowHours: 24,
      depositCents: null,
      lateCancelFeeCents: 10_000,
      noShowFeeCents: 15_000,
    });
    expect(mailsTo(to)).toEqual([]);
    // The owner cannot confirm it before the card is saved.
    const early = changeBooking(booking.id, { status: 'confirmed', scheduledAt: new Date(Date.now() + 48 * HOUR) }, { user: owner() });
    expect(early).toMatchObject({ ok: false, code: 'card_pending' });

    const [first, second] = await Promise.all([startSecureStep(booking.manageToken!, stripe), startSecureStep(booking.manageToken!, stripe)]);
    expect(
      first.ok && second.ok && first.value.kind === 'setup' && second.value.kind === 'setup' && first.value.clientSecret === second.value.clientSecret,
    ).toBe(true);
    const setup = standIn.setupIntents.get(row(booking.id).stripeSetupIntentId!)!;
    expect(setup).toMatchObject({ usage: 'off_session', customer: row(booking.id).stripeCustomerId });
    expect(secureState(booking.manageToken!)).toMatchObject({ secureStatus: 'awaiting' });

    // The browser's word is not enough: only Stripe's signed webhook secures it, once however often it comes.
    const saved = standIn.succeedSetupIntent(setup.id as string, 'pm_card_visa');
    for (let i = 0; i < 3; i++) await deliver('setup_intent.succeeded', saved);
    expect(row(booking.id)).toMatchObject({ secureStatus: 'secured', stripePaymentMethodId: saved.payment_method });
    const received = mailsTo(to);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toContain('We received your request');
    expect(received[0]!.text).toContain('the spa may charge a $150.00 no-show fee to your saved card');
  });

  it('without Stripe keys a spa’s policy asks nothing: the client books as before', () => {
    useStripeClient(null);
    const created = createBooking({ name: 'Plain', email: email(), serviceId: fixture.cardService, spaId: fixture.cardSpa });
    expect(created.ok && row(created.value.id)).toMatchObject({ protection: 'none', secureStatus: null, noShowFeeCents: null });
  });

  it('an instant open time with a deposit stays pending until the deposit is paid; then it is confirmed, with the policy in the mail and the invitation', async () => {
    const to = email();
    const now = Date.parse('2027-06-01T15:00:00Z');
    const booked = bookOpenTime(
      fixture.depositSpa,
      { name: 'Dee', email: to, serviceId: fixture.depositService, start: '2027-06-03T17:00:00.000Z' },
      { clientAddress: null, origin: ORIGIN, now },
    );
    expect(booked.ok).toBe(true);
    if (!booked.ok) return;
    expect(booked.value.message).toMatch(/^Held for 30 minutes/);
    expect(row(booked.value.id)).toMatchObject({ status: 'pending', protection: 'deposit', depositCents: 5_000, secureStatus: 'awaiting' });
    expect(mailsTo(to)).toEqual([]);
    // The step is open 30 minutes from when the booking was made (its `now` here).
    db.update(bookings).set({ createdAt: new Date() }).where(eq(bookings.id, booked.value.id)).run();

    const step = await startSecureStep(row(booked.value.id).manageToken!, stripe);
    expect(step).toMatchObject({ ok: true, value: { kind: 'deposit', amountCents: 5_000 } });
    const [deposit] = ledgerOfBooking(booked.value.id);
    const intent = standIn.paymentIntents.get(deposit!.stripePaymentIntentId!)!;
    expect(intent).toMatchObject({ amount: 5_000, setup_future_usage: 'off_session', metadata: { purpose: 'deposit' } });

    const paid = standIn.succeedPaymentIntent(intent.id as string, 'pm_card_visa');
    await deliver('payment_intent.succeeded', paid);
    await deliver('payment_intent.succeeded', paid);
    expect(row(booked.value.id)).toMatchObject({ status: 'confirmed', secureStatus: 'secured', stripePaymentMethodId: paid.payment_method });
    expect(ledgerOfBooking(booked.value.id)).toMatchObject([{ kind: 'deposit', status: 'succeeded', amountCents: 5_000 }]);
    const mails = mailsTo(to);
    expect(mails.map((m) => m.subject).sort()).toEqual([expect.stringMatching(/^Confirmed: /), 'Receipt: $50.00 deposit for Deposit Botox']);
    const confirmation = mails.find((m) => m.subject.startsWith('Confirmed'))!;
    expect(confirmation.text).toContain('A deposit of $50.00 is charged when you book and counts toward your bill.');
    expect(confirmation.icalEvent!.content.replace(/\r\n /g, '')).toContain('A deposit of $50.00 is charged when you book');
  });
});

describe('cancellations', () => {
  async function paidDepositBooking() {
    const created = createBooking({ name: 'Dep', email: email(), serviceId: fixture.depositService, spaId: fixture.depositSpa });
    if (!created.ok) throw new Error('no booking');
    const step = await startSecureStep(created.value.manageToken, stripe);
    expect(step.ok).toBe(true);
    const [deposit] = ledgerOfBooking(created.value.id);
    await deliver('payment_intent.succeeded', standIn.succeedPaymentIntent(deposit!.stripePaymentIntentId!, 'pm_card_visa'));
    return { id: created.value.id, token: created.value.manageToken, intentId: deposit!.stripePaymentIntentId! };
  }
  const refundsOf = (intentId: string) => [...standIn.refunds.values()].filter((r) => r.payment_intent === intentId);
  const settled = async (bookingId: number) => {
    // The refund runs after the cancellation's commit: wait for the ledger to say it is done.
    for (let i = 0; i < 50 && !ledgerOfBooking(bookingId).some((r) => r.kind === 'refund' && r.status !== 'pending'); i++)
      await new Promise((r) => setTimeout(r, 20));
  };

  it('a cancellation in time refunds the deposit in full, at once and once; so does the spa’s', async () => {
    for (const who of ['client', 'owner'] as const) {
      const booking = await paidDepositBooking();
      const now = new Date();
      const cancelled = changeBooking(booking.id, { status: 'cancelled' }, who === 'client' ? { manageToken: booking.token } : { user: owner() }, now);
      expect(cancelled.ok).toBe(true);
      if (!cancelled.ok) return;
      announceBookingChange(cancelled.value.before, cancelled.value.after, who === 'client', ORIGIN);
      // The ledger row is written before Stripe is asked: the manage page shows the refund the moment it renders.
      expect(ledgerOfBooking(booking.id).filter((r) => r.kind === 'refund')).toHaveLength(1);
      await settled(booking.id);
      expect(refundsOf(booking.intentId)).toMatchObject([{ amount: 5_000, status: 'succeeded' }]);
      expect(ledgerOfBooking(booking.id).find((r) => r.kind === 'refund')).toMatchObject({ status: 'succeeded', amountCents: 5_000 });
      // Announced twice (a retried request): still one refund.
      announceBookingChange(cancelled.value.before, cancelled.value.after, who === 'client', ORIGIN);
      await settled(booking.id);
      expect(refundsOf(booking.intentId)).toHaveLength(1);
    }
  });

  it('inside the window the client cancels only accepting the fee shown; it is then offered to the owner, not charged', async () => {
    const at = new Date(Date.now() + 48 * HOUR);
    const { id, token } = await securedCardBooking(at);
    const late = new Date(at.getTime() - 3 * HOUR);
    const before = row(id);
    const refused = changeBooking(id, { status: 'cancelled' }, { manageToken: token }, late);
    expect(refused).toMatchObject({ ok: false, code: 'fee_applies', details: { feeCents: 10_000 } });
    expect(changeBooking(id, { status: 'cancelled', acceptFeeCents: 1 }, { manageToken: token }, late)).toMatchObject({ ok: false, code: 'fee_applies' });
    expect(row(id)).toEqual(before);
    const cancelled = changeBooking(id, { status: 'cancelled', acceptFeeCents: 10_000 }, { manageToken: token }, late);
    expect(cancelled.ok).toBe(true);
    expect(row(id)).toMatchObject({ status: 'cancelled', lateCancelledAt: late, feeDecision: null });
    expect(feeOffer(bookingDetails(id)!)).toMatchObject({ kind: 'late_cancel_fee', feeCents: 10_000, chargeCents: 10_000 });
    expect(ledgerOfBooking(id)).toEqual([]);
  });
});

describe('the owner’s acts', () => {
  const chargesOf = (bookingId: number) =>
    [...standIn.paymentIntents.values()].filter(
      (pi) =>
        (pi.metadata as Record<string, string>).booking_id === String(bookingId) && pi.metadata && (pi.metadata as Record<string, string>).purpose === 'fee',
    );

  it('refuses other owners and forged amounts with no row changed', async () => {
    const at = new Date(Date.now() + 30 * HOUR);
    const { id } = await securedCardBooking(at);
    const after = new Date(at.getTime() + HOUR);
    expect(outcomeOf(markNoShow(id, people.other!, after))).toBe('not_found');
    expect(markNoShow(id, owner(), after).ok).toBe(true);
    const before = { booking: row(id), ledger: ledgerOfBooking(id), intents: standIn.paymentIntents.size };
    expect(outcomeOf(await chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, people.other!, stripe, ORIGIN))).toBe('not_found');
    for (const forged of [
      { kind: 'no_show_fee', amountCents: 1_500_000 },
      { kind: 'no_show_fee', amountCents: 100 },
      { kind: 'late_cancel_fee', amountCents: 15_000 },
    ]) {
      const answer = await chargeFee(id, forged, owner(), stripe, ORIGIN);
      expect(answer).toMatchObject({ ok: false, reason: 'invalid' });
    }
    expect(outcomeOf(await chargeFee(id, { kind: 'no_show_fee', amountCents: 'lots' }, owner(), stripe, ORIGIN))).toBe('invalid');
    expect(outcomeOf(await waiveFee(id, people.other!, stripe, ORIGIN))).toBe('not_found');
    expect({ booking: row(id), ledger: ledgerOfBooking(id), intents: standIn.paymentIntents.size }).toEqual(before);
  });

  it('"Mark no-show" then the fee: charged once, off-session, however many clicks and tabs', async () => {
    const at = new Date(Date.now() + 30 * HOUR);
    const { id } = await securedCardBooking(at);
    const after = new Date(at.getTime() + HOUR);
    expect(outcomeOf(markNoShow(id, owner(), new Date(at.getTime() - HOUR)))).toBe('conflict');
    const marks = [markNoShow(id, owner(), after), markNoShow(id, people.editor!, after)];
    expect(marks.map(outcomeOf).sort()).toEqual(['conflict', 'ok']);
    expect(row(id)).toMatchObject({ status: 'confirmed', noShowAt: after });
    // Completing a no-show, or cancelling it, is refused.
    expect(changeBooking(id, { status: 'completed' }, { user: owner() }, after)).toMatchObject({ ok: false });

    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, i % 2 ? people.editor! : owner(), stripe, ORIGIN)),
    );
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(answers.filter((a) => a.ok && a.value.outcome === 'charged')).toHaveLength(1);
    expect(chargesOf(id)).toHaveLength(1);
    expect(chargesOf(id)[0]).toMatchObject({
      amount: 15_000,
      status: 'succeeded',
      customer: row(id).stripeCustomerId,
      payment_method: row(id).stripePaymentMethodId,
    });
    // One request to Stripe, off-session and confirmed at once, with the fee's idempotency key.
    const asked = standIn.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && (r.params.metadata as Record<string, string>).booking_id === String(id),
    );
    expect(asked.map((r) => [r.params.off_session, r.params.confirm, r.idempotencyKey])).toEqual([['true', 'true', `booking-${id}-fee-1`]]);
    expect(ledgerOfBooking(id)).toMatchObject([{ kind: 'no_show_fee', status: 'succeeded', amountCents: 15_000, actorRole: expect.any(String) }]);
    expect(mailsTo(row(id).email).filter((m) => m.subject.startsWith('Receipt: $150.00 no-show fee'))).toHaveLength(1);
    expect(feeOffer(bookingDetails(id)!)).toBeNull();
  });

  it('a bank that asks for authentication: the client gets the link, confirms, and the fee is paid once (the webhook)', async () => {
    const created = createBooking({ name: 'Auth', email: email(), serviceId: fixture.cardService, spaId: fixture.cardSpa });
    if (!created.ok) return;
    const { id, manageToken } = created.value;
    await startSecureStep(manageToken, stripe);
    await deliver('setup_intent.succeeded', standIn.succeedSetupIntent(row(id).stripeSetupIntentId!, 'pm_card_authenticationRequired'));
    const at = new Date(Date.now() + 30 * HOUR);
    changeBooking(id, { status: 'confirmed', scheduledAt: at }, { user: owner() });
    markNoShow(id, owner(), new Date(at.getTime() + HOUR));
    const answer = await chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, owner(), stripe, ORIGIN);
    expect(answer).toMatchObject({ ok: true, value: { outcome: 'requires_action' } });
    const [fee] = ledgerOfBooking(id);
    expect(fee).toMatchObject({ status: 'requires_action', failureCode: 'authentication_required' });
    const link = mailsTo(row(id).email).find((m) => m.subject.startsWith('Action needed'));
    expect(link?.text).toContain(`/bookings/secure/${manageToken}`);
    // The link's page hands the browser the fee's intent and the saved card.
    const step = await startSecureStep(manageToken, stripe);
    expect(step).toMatchObject({ ok: true, value: { kind: 'authenticate', amountCents: 15_000, paymentMethodId: row(id).stripePaymentMethodId } });
    expect(secureState(manageToken)).toMatchObject({ authenticationPending: true });
    // Pressing again does not charge again while the client's bank is asked.
    expect(await chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, owner(), stripe, ORIGIN)).toMatchObject({
      ok: true,
      value: { outcome: 'already' },
    });
    const paid = standIn.succeedPaymentIntent(fee!.stripePaymentIntentId!);
    await deliver('payment_intent.succeeded', paid);
    await deliver('payment_intent.payment_failed', { ...paid, status: 'requires_payment_method' });
    expect(ledgerOfBooking(id)).toMatchObject([{ status: 'succeeded' }]);
    expect(secureState(manageToken)).toMatchObject({ authenticationPending: false });
    expect(mailsTo(row(id).email).filter((m) => m.subject.startsWith('Receipt: $150.00 no-show fee'))).toHaveLength(1);
  });

  it('a declined card is shown as failed and not retried; "Charge again" is a new attempt only when asked', async () => {
    const created = createBooking({ name: 'Declined', email: email(), serviceId: fixture.cardService, spaId: fixture.cardSpa });
    if (!created.ok) return;
    const { id, manageToken } = created.value;
    await startSecureStep(manageToken, stripe);
    await deliver('setup_intent.succeeded', standIn.succeedSetupIntent(row(id).stripeSetupIntentId!, 'pm_card_chargeDeclined'));
    const at = new Date(Date.now() + 30 * HOUR);
    changeBooking(id, { status: 'confirmed', scheduledAt: at }, { user: owner() });
    markNoShow(id, owner(), new Date(at.getTime() + HOUR));
    expect(await chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, owner(), stripe, ORIGIN)).toMatchObject({
      ok: true,
      value: { outcome: 'failed' },
    });
    expect(ledgerOfBooking(id)).toMatchObject([{ status: 'failed', failureCode: 'card_declined', failureMessage: 'Your card was declined.' }]);
    expect(await chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, owner(), stripe, ORIGIN)).toMatchObject({
      ok: true,
      value: { outcome: 'already' },
    });
    expect(ledgerOfBooking(id)).toHaveLength(1);
    const again = await chargeFeeAgain(id, { kind: 'no_show_fee', amountCents: 15_000 }, owner(), stripe, ORIGIN);
    expect(again).toMatchObject({ ok: true, value: { outcome: 'failed' } });
    expect(ledgerOfBooking(id).map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`booking-${id}-fee-1`, 'failed'],
      [`booking-${id}-fee-2`, 'failed'],
    ]);
  });

  it('with a deposit the fee is kept from it and the rest refunded; a waived fee refunds it all', async () => {
    const make = async () => {
      const created = createBooking({ name: 'Dep fee', email: email(), serviceId: fixture.depositService, spaId: fixture.depositSpa });
      if (!created.ok) throw new Error('no booking');
      const { id, manageToken } = created.value;
      await startSecureStep(manageToken, stripe);
      const [deposit] = ledgerOfBooking(id);
      await deliver('payment_intent.succeeded', standIn.succeedPaymentIntent(deposit!.stripePaymentIntentId!, 'pm_card_visa'));
      const at = new Date(Date.now() + 30 * HOUR);
      changeBooking(id, { status: 'confirmed', scheduledAt: at }, { user: owner() });
      expect(markNoShow(id, owner(), new Date(at.getTime() + HOUR)).ok).toBe(true);
      return { id, intent: deposit!.stripePaymentIntentId! };
    };
    const kept = await make();
    const answer = await chargeFee(kept.id, { kind: 'no_show_fee', amountCents: 2_000 }, owner(), stripe, ORIGIN);
    expect(answer).toMatchObject({ ok: true, value: { outcome: 'kept_from_deposit' } });
    expect(ledgerOfBooking(kept.id).map((r) => [r.kind, r.amountCents, r.status])).toEqual([
      ['deposit', 5_000, 'succeeded'],
      ['no_show_fee', 2_000, 'succeeded'],
      ['refund', 3_000, 'succeeded'],
    ]);
    expect([...standIn.refunds.values()].filter((r) => r.payment_intent === kept.intent).map((r) => r.amount)).toEqual([3_000]);
    // No card charge for it: the deposit paid the fee.
    expect([...standIn.paymentIntents.values()].filter((pi) => (pi.metadata as Record<string, string>).booking_id === String(kept.id))).toHaveLength(1);

    const waived = await make();
    expect(await waiveFee(waived.id, owner(), stripe, ORIGIN)).toMatchObject({ ok: true, value: { refunded: true } });
    expect(await chargeFee(waived.id, { kind: 'no_show_fee', amountCents: 2_000 }, owner(), stripe, ORIGIN)).toMatchObject({
      ok: true,
      value: { outcome: 'already' },
    });
    expect(ledgerOfBooking(waived.id).map((r) => [r.kind, r.amountCents])).toEqual([
      ['deposit', 5_000],
      ['refund', 5_000],
    ]);
  });

  it('an editor refunds a charged fee with a reason, logged; once', async () => {
    const at = new Date(Date.now() + 30 * HOUR);
    const { id } = await securedCardBooking(at);
    markNoShow(id, owner(), new Date(at.getTime() + HOUR));
    await chargeFee(id, { kind: 'no_show_fee', amountCents: 15_000 }, owner(), stripe, ORIGIN);
    const [fee] = ledgerOfBooking(id);
    expect(outcomeOf(await refundFee({ id: fee!.id, reason: 'Client was in hospital.' }, owner(), stripe, ORIGIN))).toBe('not_found');
    expect(await refundFee({ id: fee!.id, reason: ' ' }, people.editor!, stripe, ORIGIN)).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { reason: expect.any(String) },
    });
    const refunds = await Promise.all([1, 2, 3].map(() => refundFee({ id: fee!.id, reason: 'Client was in hospital.' }, people.editor!, stripe, ORIGIN)));
    expect(refunds.filter((r) => r.ok)).toHaveLength(1);
    expect([...standIn.refunds.values()].filter((r) => r.payment_intent === fee!.stripePaymentIntentId)).toHaveLength(1);
    expect(ledgerOfBooking(id).find((r) => r.kind === 'refund')).toMatchObject({ amountCents: 15_000, reason: 'Client was in hospital.', actorRole: 'admin' });
    expect(
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.target, `booking:${id}`), eq(auditLog.action, 'refund-fee')))
        .all(),
    ).toMatchObject([{ detail: '$150.00 no-show fee: Client was in hospital.' }]);
  });
});

describe('unfinished card steps', () => {
  it('lapse after 30 minutes (the time is free again), and a deposit that arrives later is refunded automatically', async () => {
    const created = createBooking({ name: 'Slow', email: email(), serviceId: fixture.depositService, spaId: fixture.depositSpa });
    if (!created.ok) return;
    const { id, manageToken } = created.value;
    await startSecureStep(manageToken, stripe);
    const [deposit] = ledgerOfBooking(id);
    expect(lapseUnfinishedCardSteps(db, Date.now() + 29 * 60_000)).toBe(0);
    expect(lapseUnfinishedCardSteps(db, Date.now() + 31 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(row(id)).toMatchObject({ status: 'cancelled', secureStatus: 'expired' });
    expect(await startSecureStep(manageToken, stripe)).toMatchObject({ ok: false });
    await deliver('payment_intent.succeeded', standIn.succeedPaymentIntent(deposit!.stripePaymentIntentId!, 'pm_card_visa'));
    expect(row(id)).toMatchObject({ status: 'cancelled', secureStatus: 'expired' });
    expect(ledgerOfBooking(id).map((r) => [r.kind, r.status, r.actorRole])).toEqual([
      ['deposit', 'succeeded', 'client'],
      ['refund', 'succeeded', 'system'],
    ]);
    expect([...standIn.refunds.values()].filter((r) => r.payment_intent === deposit!.stripePaymentIntentId)).toHaveLength(1);
  });
});

describe('the database’s floor', () => {
  it('refuses a deposit or fee above the price, a changed policy on a booking, and a fee above the booking’s', async () => {
    const insert = (values: Partial<typeof bookings.$inferInsert>) => () =>
      db
        .insert(bookings)
        .values({ name: 'X', email: email(), status: 'pending', ...values })
        .run();
    expect(insert({ protection: 'card', secureStatus: 'awaiting', policyPriceCents: 10_000, policyWindowHours: 24, noShowFeeCents: 10_001 })).toThrow(
      /protection_invalid/,
    );
    expect(insert({ protection: 'deposit', secureStatus: 'awaiting', policyPriceCents: 10_000, policyWindowHours: 24 })).toThrow(/protection_invalid/);
    expect(insert({ protection: 'none', noShowFeeCents: 500 })).toThrow(/protection_invalid/);
    const { id } = await securedCardBooking(new Date(Date.now() + 30 * HOUR));
    expect(() => db.update(bookings).set({ noShowFeeCents: 20_000 }).where(eq(bookings.id, id)).run()).toThrow(/protection_fixed/);
    expect(() =>
      db
        .insert(bookingPayments)
        .values({ bookingId: id, kind: 'no_show_fee', amountCents: 15_001, idempotencyKey: `${TAG}-x`, actorRole: 'owner' })
        .run(),
    ).toThrow(/money_invalid/);
  });
});
