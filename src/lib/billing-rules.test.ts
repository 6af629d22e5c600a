import { describe, expect, it } from 'vitest';
import {
  annualSavingsCents,
  decideCharge,
  eliteSlotsLeft,
  isFullRefund,
  findPlan,
  parseBilling,
  parsePaidTier,
  paymentStatusFromIntent,
  planByLookupKey,
  planPrices,
  PLANS,
  shouldApplyPaymentEvent,
  shouldApplySubscriptionEvent,
  subscriptionStatusFromStripe,
  tierForSubscription,
} from './billing-rules.ts';

describe('plans', () => {
  it('has the spec prices and lookup keys', () => {
    expect(PLANS.map((p) => [p.lookupKey, p.amountCents, p.interval])).toEqual([
      ['premium_monthly', 9_700, 'month'],
      ['premium_annual', 97_000, 'year'],
      ['elite_monthly', 19_700, 'month'],
      ['elite_annual', 197_000, 'year'],
    ]);
    expect(findPlan('ELITE', 'annual').amountCents).toBe(197_000);
    expect(planByLookupKey('premium_annual')?.tier).toBe('PREMIUM');
    expect(planByLookupKey('gold_monthly')).toBeUndefined();
  });

  it('saves $194 a year on Premium and $394 on Elite', () => {
    expect(annualSavingsCents('PREMIUM')).toBe(19_400);
    expect(annualSavingsCents('ELITE')).toBe(39_400);
  });

  it('shows the plan cards’ prices in whole dollars', () => {
    expect(planPrices('PREMIUM')).toEqual({ monthly: '$97', annual: '$970', annualSavings: '$194' });
    expect(planPrices('ELITE')).toEqual({ monthly: '$197', annual: '$1,970', annualSavings: '$394' });
  });

  it('reads the spec client’s yearly as annual and refuses anything else', () => {
    expect(parseBilling('yearly')).toBe('annual');
    expect(parseBilling('annual')).toBe('annual');
    expect(parseBilling('monthly')).toBe('monthly');
    expect(parseBilling('weekly')).toBeNull();
    expect(parsePaidTier('elite')).toBe('ELITE');
    expect(parsePaidTier('FREE')).toBeNull();
    expect(parsePaidTier(3)).toBeNull();
  });
});

describe('decideCharge', () => {
  const facial = { name: 'HydraFacial', priceCents: 25_000 };

  it('charges the stored price whatever the browser sends', () => {
    expect(decideCharge(facial, 250)).toEqual({ ok: true, value: 25_000 });
    expect(decideCharge(facial, '250.00')).toEqual({ ok: true, value: 25_000 });
    expect(decideCharge(facial, undefined)).toEqual({ ok: true, value: 25_000 });
  });

  it('refuses a tampered amount with a clear message', () => {
    const decision = decideCharge(facial, 1);
    expect(decision).toMatchObject({ ok: false, reason: 'invalid', code: 'amount_mismatch' });
    if (!decision.ok) expect(decision.message).toContain('$250.00');
    expect(decideCharge(facial, 250.01)).toMatchObject({ ok: false, code: 'amount_mismatch' });
    expect(decideCharge(facial, -250)).toMatchObject({ ok: false, code: 'invalid_amount' });
    expect(decideCharge(facial, 'free')).toMatchObject({ ok: false, code: 'invalid_amount' });
    expect(decideCharge(facial, Number.NaN)).toMatchObject({ ok: false, code: 'invalid_amount' });
  });

  it('refuses complimentary services', () => {
    expect(decideCharge({ name: 'Skin check', priceCents: 0 }, 0)).toMatchObject({ ok: false, code: 'complimentary' });
    expect(decideCharge({ name: 'Botox Consultation', priceCents: 5_000 }, 50)).toMatchObject({ ok: false, code: 'complimentary' });
  });
});

describe('payment events', () => {
  const statusOfIntent = { succeeded: 'paid', requires_payment_method: 'failed', processing: 'processing', requires_confirmation: 'unpaid' } as const;
  it.each(Object.entries(statusOfIntent))('maps the intent status %s to %s', (intent, status) => {
    expect(paymentStatusFromIntent(intent)).toBe(status);
  });

  describe('never undoes a payment and ignores older news', () => {
    it.each([
      [{ status: 'paid', eventCreated: 10 }, { status: 'failed', created: 20 }, false],
      [{ status: 'failed', eventCreated: 20 }, { status: 'paid', created: 10 }, true],
      [{ status: 'processing', eventCreated: 20 }, { status: 'failed', created: 10 }, false],
      [{ status: null, eventCreated: null }, { status: 'failed', created: 10 }, true],
    ] as const)('stored %j, event %j: applies %s', (stored, event, applies) => {
      expect(shouldApplyPaymentEvent(stored, event)).toBe(applies);
    });
  });

  describe('keeps a refund final: a late "succeeded" cannot make it paid again', () => {
    it.each([
      { eventCreated: 30, created: 10 },
      { eventCreated: 10, created: 30 },
    ])('refunded by an event at $eventCreated, paid at $created', ({ eventCreated, created }) => {
      expect(shouldApplyPaymentEvent({ status: 'refunded', eventCreated }, { status: 'paid', created })).toBe(false);
    });
  });

  describe('counts a refund as full only when the whole charge went back', () => {
    it.each([
      [{ refunded: true, amount: 18_500, amount_refunded: 18_500 }, true],
      [{ refunded: false, amount: 18_500, amount_refunded: 18_500 }, true],
      [{ refunded: false, amount: 18_500, amount_refunded: 5_000 }, false],
      [{ refunded: false, amount: 0, amount_refunded: 0 }, false],
    ])('%j is full: %s', (charge, full) => {
      expect(isFullRefund(charge)).toBe(full);
    });
  });
});

describe('subscriptions', () => {
  const statusOfStripe = { trialing: 'active', incomplete: 'past_due', incomplete_expired: 'canceled', paused: 'unpaid', unpaid: 'unpaid' } as const;
  it.each(Object.entries(statusOfStripe))('folds Stripe’s %s into the spec’s %s', (stripe, status) => {
    expect(subscriptionStatusFromStripe(stripe)).toBe(status);
  });

  describe('keeps the paid tier while active or past due, FREE otherwise', () => {
    it.each([
      ['ELITE', 'active', 'ELITE'],
      ['PREMIUM', 'past_due', 'PREMIUM'],
      ['ELITE', 'unpaid', 'FREE'],
      ['ELITE', 'canceled', 'FREE'],
    ] as const)('%s while %s: %s', (tier, status, kept) => {
      expect(tierForSubscription(tier, status)).toBe(kept);
    });
  });

  describe('ignores older events and never revives a canceled subscription', () => {
    it.each([
      [null, { status: 'active', created: 1 }, true],
      [{ status: 'active', lastEventCreated: 5 }, { status: 'past_due', created: 4 }, false],
      [{ status: 'active', lastEventCreated: 5 }, { status: 'past_due', created: 5 }, true],
      [{ status: 'canceled', lastEventCreated: 5 }, { status: 'active', created: 9 }, false],
      [{ status: 'canceled', lastEventCreated: 5 }, { status: 'canceled', created: 9 }, true],
    ] as const)('stored %j, event %j: applies %s', (stored, event, applies) => {
      expect(shouldApplySubscriptionEvent(stored, event)).toBe(applies);
    });
  });

  it.each([
    [1, 0, 2],
    [1, 2, 0],
    [3, 1, 0],
  ])('counts Elite slots with open checkouts: %i live and %i held leave %i', (activeElite, openHolds, left) => {
    expect(eliteSlotsLeft(activeElite, openHolds)).toBe(left);
  });
});
