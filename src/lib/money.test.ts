import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents, discountPercent, formatDollars, formatWholeDollars } from './money.ts';

describe('money', () => {
  it('serves cents as decimal strings', () => {
    expect(centsToDecimal(15000)).toBe('150.00');
    expect(centsToDecimal(1405)).toBe('14.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(7)).toBe('0.07');
    expect(centsToDecimal(-250)).toBe('-2.50');
  });

  it('refuses fractions of a cent', () => {
    expect(() => centsToDecimal(10.5)).toThrow(RangeError);
  });

  it('parses decimal strings exactly', () => {
    expect(decimalToCents('150.00')).toBe(15000);
    expect(decimalToCents('150')).toBe(15000);
    expect(decimalToCents('150.5')).toBe(15050);
    expect(decimalToCents('0.07')).toBe(7);
    // 0.1 + 0.2 style float errors cannot happen: 19.99 is 1999 cents, not 1998.9999.
    expect(decimalToCents('19.99')).toBe(1999);
    for (const bad of ['', 'abc', '1.234', '1,000', '$5', '1e3']) {
      expect(() => decimalToCents(bad), bad).toThrow(RangeError);
    }
  });

  it('round-trips every cent value', () => {
    for (let cents = 0; cents < 2000; cents += 7) expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
  });

  it('formats dollars for display', () => {
    expect(formatWholeDollars(197000)).toBe('$1,970');
    expect(formatWholeDollars(64950)).toBe('$650');
    expect(formatDollars(197000)).toBe('$1,970.00');
    expect(formatDollars(1405)).toBe('$14.05');
  });

  it('computes a discount percent only when there is one', () => {
    expect(discountPercent(82500, 65000)).toBe(21);
    expect(discountPercent(10000, 10000)).toBe(0);
    expect(discountPercent(0, 0)).toBe(0);
    expect(discountPercent(10000, 12000)).toBe(0);
  });
});
