import { describe, expect, it } from 'vitest';
import { idSchema, parseId } from './ids.ts';

describe('parseId', () => {
  it('accepts positive integers as strings or numbers', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('2147483647')).toBe(2147483647);
    expect(parseId(42)).toBe(42);
  });

  it.each(['0', '-1', '01', '1.5', '1e3', ' 1', '1 ', '', '2147483648', '99999999999', 'abc', '0x10'])('refuses %j', (value) => {
    expect(parseId(value)).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity, 2 ** 31, null, undefined, {}, [1]])('refuses %j', (value) => {
    expect(parseId(value)).toBeNull();
  });

  it('gives zod schemas the same rule', () => {
    expect(idSchema.parse('7')).toBe(7);
    expect(idSchema.safeParse('07').success).toBe(false);
    expect(idSchema.safeParse(-3).success).toBe(false);
  });
});
