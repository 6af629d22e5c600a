import { describe, expect, it } from 'vitest';
import { addDays, formatLongDate, isExpired, msUntilNextPacificMidnight, pacificDate } from './dates.ts';

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

describe('next Pacific midnight', () => {
  it('counts to midnight in California, in winter and in summer', () => {
    // 23:00 PST on Nov 21 = 07:00 UTC Nov 22; midnight PST = 08:00 UTC.
    expect(msUntilNextPacificMidnight(new Date('2026-11-22T07:00:00Z'))).toBe(3_600_000);
    // 23:30 PDT on Jul 1 = 06:30 UTC Jul 2; midnight PDT = 07:00 UTC.
    expect(msUntilNextPacificMidnight(new Date('2026-07-02T06:30:00Z'))).toBe(1_800_000);
  });
});
