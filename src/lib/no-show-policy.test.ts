import { describe, expect, it } from 'vitest';
import { amountFor, lateCancelFeeAt, policyLines, settleFee, snapshotFor, type NoShowPolicy } from './no-show-policy.ts';

const card: NoShowPolicy = { mode: 'card', deposit: null, lateCancelFee: { kind: 'percent', percent: 50 }, noShowFee: { kind: 'fixed', cents: 15_000 } };
const deposit: NoShowPolicy = { mode: 'deposit', deposit: { kind: 'percent', percent: 20 }, lateCancelFee: null, noShowFee: { kind: 'fixed', cents: 1_000 } };

describe('amountFor', () => {
  it('is whole cents, never more than the price, and nothing for nothing', () => {
    expect(amountFor({ kind: 'percent', percent: 33 }, 10_001)).toBe(3_300);
    expect(amountFor({ kind: 'fixed', cents: 50_000 }, 12_000)).toBe(12_000);
    expect(amountFor({ kind: 'percent', percent: 100 }, 8_000)).toBe(8_000);
    expect(amountFor({ kind: 'percent', percent: 1 }, 40)).toBeNull();
    expect(amountFor(null, 8_000)).toBeNull();
    expect(amountFor({ kind: 'fixed', cents: 500 }, 0)).toBeNull();
  });
});

describe('snapshotFor', () => {
  it('a card on file: the fees in cents, capped at the price', () => {
    expect(snapshotFor(card, 10_000, 24)).toEqual({
      protection: 'card',
      policyPriceCents: 10_000,
      policyWindowHours: 24,
      depositCents: null,
      lateCancelFeeCents: 5_000,
      noShowFeeCents: 10_000,
    });
  });
  it('a deposit: fees are taken from it (never more; none set means all of it)', () => {
    expect(snapshotFor(deposit, 20_000, 48)).toMatchObject({ depositCents: 4_000, lateCancelFeeCents: 4_000, noShowFeeCents: 1_000 });
    expect(snapshotFor({ ...deposit, noShowFee: { kind: 'percent', percent: 90 } }, 20_000, 48)).toMatchObject({ noShowFeeCents: 4_000 });
  });
  it('nothing to protect: no policy, a free treatment, a card policy whose fees come to nothing', () => {
    expect(snapshotFor(null, 10_000, 24)).toBeNull();
    expect(snapshotFor(card, 0, 24)).toBeNull();
    expect(snapshotFor({ ...card, lateCancelFee: null, noShowFee: null }, 10_000, 24)).toBeNull();
  });
});

describe('settleFee', () => {
  it('takes a fee from the deposit and refunds the rest; without one it is charged', () => {
    expect(settleFee(1_000, 4_000)).toEqual({ chargeCents: 0, keepDepositCents: 1_000, refundDepositCents: 3_000 });
    expect(settleFee(4_000, 4_000)).toEqual({ chargeCents: 0, keepDepositCents: 4_000, refundDepositCents: 0 });
    expect(settleFee(5_000, 0)).toEqual({ chargeCents: 5_000, keepDepositCents: 0, refundDepositCents: 0 });
  });
});

describe('policyLines', () => {
  it('says it in dollars, never only a percentage', () => {
    const lines = policyLines(snapshotFor(card, 10_000, 24)!);
    expect(lines).toEqual([
      'A card on file: your card is saved securely with Stripe when you book. Nothing is charged now.',
      'Cancel at least 24 hours before your appointment and nothing is charged.',
      'Cancelling later than that: the spa may charge a $50.00 late-cancellation fee to your saved card.',
      'Missing your appointment: the spa may charge a $100.00 no-show fee to your saved card.',
      'If the spa cancels, nothing is charged.',
      'A fee is only ever charged by the spa, once, and you get a receipt by e-mail.',
    ]);
    expect(lines.join(' ')).not.toMatch(/%/);
    const withDeposit = policyLines(snapshotFor(deposit, 20_000, 1)!);
    expect(withDeposit).toContain('A deposit of $40.00 is charged when you book and counts toward your bill.');
    expect(withDeposit).toContain('Cancel at least 1 hour before your appointment and your deposit is refunded in full.');
    expect(withDeposit).toContain('Cancelling later than that: the spa may keep your $40.00 deposit.');
    expect(withDeposit).toContain('Missing your appointment: the spa may keep $10.00 of your deposit and refunds the rest.');
    expect(withDeposit).toContain('If the spa cancels, nothing is charged and your deposit is refunded in full.');
  });
  it('without a window there is no late cancellation', () => {
    expect(policyLines(snapshotFor(card, 10_000, 0)!).join(' ')).not.toContain('late');
  });
});

describe('lateCancelFeeAt', () => {
  const at = new Date('2027-03-10T18:00:00Z');
  const booking = { scheduledAt: at, policyWindowHours: 24, lateCancelFeeCents: 5_000, secureStatus: 'secured' };
  it('applies inside the window only, to a booking whose card was saved', () => {
    expect(lateCancelFeeAt(booking, new Date(at.getTime() - 25 * 3_600_000))).toBeNull();
    expect(lateCancelFeeAt(booking, new Date(at.getTime() - 24 * 3_600_000))).toBe(5_000);
    expect(lateCancelFeeAt({ ...booking, secureStatus: 'awaiting' }, new Date(at.getTime() - 3_600_000))).toBeNull();
    expect(lateCancelFeeAt({ ...booking, lateCancelFeeCents: null }, new Date(at.getTime() - 3_600_000))).toBeNull();
  });
});
