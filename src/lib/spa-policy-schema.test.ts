import { describe, expect, it } from 'vitest';
import { CANCELLATION_WINDOW_MESSAGE, NO_SHOW_MESSAGES, noShowPolicySchema, spaPolicySchema } from './spa-policy-schema.ts';

describe('spaPolicySchema', () => {
  it.each([
    ['24', 24],
    [' 48 ', 48],
    ['0', 0],
    ['168', 168],
  ])('accepts %j as %d hours', (raw, hours) => {
    expect(spaPolicySchema.parse({ cancellationWindowHours: raw })).toEqual({ cancellationWindowHours: hours });
  });

  it.each(['', '169', '-1', '1.5', '24h', '1e2', '0x10', 'twenty'])('refuses %j with the field message', (raw) => {
    const result = spaPolicySchema.safeParse({ cancellationWindowHours: raw });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['cancellationWindowHours'], message: CANCELLATION_WINDOW_MESSAGE });
  });

  it('refuses a missing field', () => {
    expect(spaPolicySchema.safeParse({}).success).toBe(false);
  });
});

describe('noShowPolicySchema', () => {
  const form = (fields: Record<string, string>) =>
    noShowPolicySchema.safeParse({
      protection: 'card',
      depositKind: 'percent',
      depositAmount: '',
      lateFeeKind: 'none',
      lateFeeAmount: '',
      noShowFeeKind: 'none',
      noShowFeeAmount: '',
      ...fields,
    });

  it('reads none, a card with its fees, a deposit in dollars or percent', () => {
    expect(form({ protection: 'none' })).toEqual({ success: true, data: null });
    expect(form({ lateFeeKind: 'percent', lateFeeAmount: '50', noShowFeeKind: 'fixed', noShowFeeAmount: '75.50' }).data).toEqual({
      mode: 'card',
      deposit: null,
      lateCancelFee: { kind: 'percent', percent: 50 },
      noShowFee: { kind: 'fixed', cents: 7_550 },
    });
    expect(form({ protection: 'deposit', depositKind: 'fixed', depositAmount: ' 40 ' }).data).toMatchObject({
      mode: 'deposit',
      deposit: { kind: 'fixed', cents: 4_000 },
    });
  });

  it.each([
    [{ protection: 'cash' }, 'protection', NO_SHOW_MESSAGES.protection],
    [{}, 'lateFeeKind', NO_SHOW_MESSAGES.cardNeedsFee],
    [{ lateFeeKind: 'percent', lateFeeAmount: '101' }, 'lateFeeAmount', NO_SHOW_MESSAGES.amount],
    [{ lateFeeKind: 'fixed', lateFeeAmount: '-5' }, 'lateFeeAmount', NO_SHOW_MESSAGES.amount],
    [{ noShowFeeKind: 'fixed', noShowFeeAmount: '20000' }, 'noShowFeeAmount', NO_SHOW_MESSAGES.amount],
    [{ noShowFeeKind: 'percent', noShowFeeAmount: '12.5' }, 'noShowFeeAmount', NO_SHOW_MESSAGES.amount],
    [{ protection: 'deposit', depositAmount: '' }, 'depositAmount', NO_SHOW_MESSAGES.deposit],
    [{ protection: 'deposit', depositKind: 'gold', depositAmount: '5' }, 'depositKind', NO_SHOW_MESSAGES.kind],
  ])('refuses %j naming %s', (fields, path, message) => {
    const result = form(fields as Record<string, string>);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: [path], message });
  });
});
