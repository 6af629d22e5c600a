import { describe, expect, it } from 'vitest';
import { CANCELLATION_WINDOW_MESSAGE, spaPolicySchema } from './spa-policy-schema.ts';

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
