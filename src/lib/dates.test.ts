import { describe, expect, it } from 'vitest';
import { addDays, formatLongDate, isExpired, pacificDate } from './dates.ts';

describe('dates in Orange County', () => {
  it('takes today from Pacific time, not UTC', () => {
    // 2026-11-22 05:30 UTC is still the 21st in California (UTC-8).
    expect(pacificDate(new Date('2026-11-22T05:30:00Z'))).toBe('2026-11-21');
    expect(pacificDate(new Date('2026-11-22T08:30:00Z'))).toBe('2026-11-22');
    // Summer time (UTC-7).
    expect(pacificDate(new Date('2026-07-01T06:59:00Z'))).toBe('2026-06-30');
  });

  it('adds calendar days across months and years', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('expires an offer only after its last day, and never without one', () => {
    expect(isExpired('2026-11-21', '2026-11-22')).toBe(true);
    expect(isExpired('2026-11-22', '2026-11-22')).toBe(false);
    expect(isExpired(null, '2026-11-22')).toBe(false);
  });

  it('formats long dates', () => {
    expect(formatLongDate('2026-12-31')).toBe('December 31, 2026');
  });
});
