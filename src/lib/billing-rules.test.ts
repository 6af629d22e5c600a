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
    expect(decideCharge(facial, 250)).toEqual({ ok: true, amountCents: 25_000 });
    expect(decideCharge(facial, '250.00')).toEqual({ ok: true, amountCents: 25_000 });
    expect(decideCharge(facial, undefined)).toEqual({ ok: true, amountCents: 25_000 });
  });

  it('refuses a tampered amount with a clear message', () => {
    const decision = decideCharge(facial, 1);
    expect(decision).toMatchObject({ ok: false, status: 422, code: 'amount_mismatch' });
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
  it('maps intent statuses', () => {
    expect(paymentStatusFromIntent('succeeded')).toBe('paid');
    expect(paymentStatusFromIntent('requires_payment_method')).toBe('failed');
    expect(paymentStatusFromIntent('processing')).toBe('processing');
    expect(paymentStatusFromIntent('requires_confirmation')).toBe('unpaid');
  });

  it('never undoes a payment and ignores older news', () => {
    expect(shouldApplyPaymentEvent({ status: 'paid', eventCreated: 10 }, { status: 'failed', created: 20 })).toBe(false);
    expect(shouldApplyPaymentEvent({ status: 'failed', eventCreated: 20 }, { status: 'paid', created: 10 })).toBe(true);
    expect(shouldApplyPaymentEvent({ status: 'processing', eventCreated: 20 }, { status: 'failed', created: 10 })).toBe(false);
    expect(shouldApplyPaymentEvent({ status: null, eventCreated: null }, { status: 'failed', created: 10 })).toBe(true);
  });

  it('keeps a refund final: a late "succeeded" cannot make it paid again', () => {
    expect(shouldApplyPaymentEvent({ status: 'refunded', eventCreated: 30 }, { status: 'paid', created: 10 })).toBe(false);
    expect(shouldApplyPaymentEvent({ status: 'refunded', eventCreated: 10 }, { status: 'paid', created: 30 })).toBe(false);
  });

  it('counts a refund as full only when the whole charge went back', () => {
    expect(isFullRefund({ refunded: true, amount: 18_500, amount_refunded: 18_500 })).toBe(true);
    expect(isFullRefund({ refunded: false, amount: 18_500, amount_refunded: 18_500 })).toBe(true);
    expect(isFullRefund({ refunded: false, amount: 18_500, amount_refunded: 5_000 })).toBe(false);
    expect(isFullRefund({ refunded: false, amount: 0, amount_refunded: 0 })).toBe(false);
  });
});

describe('subscriptions', () => {
  it('folds Stripe statuses into the spec’s four', () => {
    expect(subscriptionStatusFromStripe('trialing')).toBe('active');
    expect(subscriptionStatusFromStripe('incomplete')).toBe('past_due');
    expect(subscriptionStatusFromStripe('incomplete_expired')).toBe('canceled');
    expect(subscriptionStatusFromStripe('paused')).toBe('unpaid');
    expect(subscriptionStatusFromStripe('unpaid')).toBe('unpaid');
  });

  it('keeps the paid tier while active or past due, FREE otherwise', () => {
    expect(tierForSubscription('ELITE', 'active')).toBe('ELITE');
    expect(tierForSubscription('PREMIUM', 'past_due')).toBe('PREMIUM');
    expect(tierForSubscription('ELITE', 'unpaid')).toBe('FREE');
    expect(tierForSubscription('ELITE', 'canceled')).toBe('FREE');
  });

  it('ignores older events and never revives a canceled subscription', () => {
    expect(shouldApplySubscriptionEvent(null, { status: 'active', created: 1 })).toBe(true);
    expect(shouldApplySubscriptionEvent({ status: 'active', lastEventCreated: 5 }, { status: 'past_due', created: 4 })).toBe(false);
    expect(shouldApplySubscriptionEvent({ status: 'active', lastEventCreated: 5 }, { status: 'past_due', created: 5 })).toBe(true);
    expect(shouldApplySubscriptionEvent({ status: 'canceled', lastEventCreated: 5 }, { status: 'active', created: 9 })).toBe(false);
    expect(shouldApplySubscriptionEvent({ status: 'canceled', lastEventCreated: 5 }, { status: 'canceled', created: 9 })).toBe(true);
  });

  it('counts Elite slots with open checkouts', () => {
    expect(eliteSlotsLeft(1, 0)).toBe(2);
    expect(eliteSlotsLeft(1, 2)).toBe(0);
    expect(eliteSlotsLeft(3, 1)).toBe(0);
  });
});
