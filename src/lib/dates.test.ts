import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatLongDate,
  formatPacificDateTime,
  fromPacificWallClock,
  isExpired,
  msUntilNextPacificMidnight,
  pacificDate,
  pacificWallClock,
  startOfPacificDay,
} from './dates.ts';

describe('dates in Orange County', () => {
  it.each([
    // 2026-11-22 05:30 UTC is still the 21st in California (UTC-8).
    { at: '2026-11-22T05:30:00Z', today: '2026-11-21' },
    { at: '2026-11-22T08:30:00Z', today: '2026-11-22' },
    // Summer time (UTC-7).
    { at: '2026-07-01T06:59:00Z', today: '2026-06-30' },
  ])('takes today from Pacific time, not UTC: $at is $today', ({ at, today }) => {
    expect(pacificDate(new Date(at))).toBe(today);
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

describe('Pacific wall-clock time', () => {
  it.each([
    [new Date('2026-12-01T22:30:00Z'), '2026-12-01T14:30:00'],
    [new Date('2027-07-01T21:30:45Z'), '2027-07-01T14:30:45'],
    // Midnight is hour 00, never 24, and the date is California's.
    [new Date('2026-12-02T08:00:00Z'), '2026-12-02T00:00:00'],
    [new Date('2026-12-02T07:59:59Z'), '2026-12-01T23:59:59'],
  ])('reads the clock in California in winter (UTC-8) and summer (UTC-7): %s is %s', (at, wall) => {
    expect(pacificWallClock(at)).toBe(wall);
  });

  // Each case says which behaviour it pins: the ordinary reading, the hour skipped in March, the hour repeated in November.
  it.each<[wall: string, instant: string | null, meaning: string]>([
    ['2026-12-01T14:30', '2026-12-01T22:30:00.000Z', 'turns a wall-clock time into its instant, without seconds'],
    ['2026-12-01T14:30:15', '2026-12-01T22:30:15.000Z', 'turns a wall-clock time into its instant, with seconds'],
    ['2027-07-01T14:30', '2027-07-01T21:30:00.000Z', 'turns a wall-clock time into its instant, in summer'],
    ['2026-12-31T23:30', '2027-01-01T07:30:00.000Z', 'turns a wall-clock time into its instant, on the next UTC day'],
    ['2027-03-14T02:30', null, 'has no instant for the hour skipped when clocks go forward'],
    ['2027-03-14T02:00', null, 'has no instant for the hour skipped when clocks go forward, from its start'],
    ['2027-03-14T01:59', '2027-03-14T09:59:00.000Z', 'reads the minute before the skipped hour in PST'],
    ['2027-03-14T03:00', '2027-03-14T10:00:00.000Z', 'reads the end of the skipped hour in PDT'],
    ['2026-11-01T01:30', '2026-11-01T08:30:00.000Z', 'takes the earlier (PDT) instant in the hour repeated when clocks go back'],
    ['2026-11-01T00:59', '2026-11-01T07:59:00.000Z', 'reads the minute before the repeated hour in PDT'],
    ['2026-11-01T02:00', '2026-11-01T10:00:00.000Z', 'reads the end of the repeated hour in PST'],
  ])('%s is %s: %s', (wall, instant) => {
    expect(fromPacificWallClock(wall)?.toISOString() ?? null).toBe(instant);
  });

  it.each([
    ['', 'empty'],
    ['2026-02-30T10:00', 'no February 30'],
    ['2026-04-31T10:00', 'no April 31'],
    ['2026-13-01T10:00', 'no month 13'],
    ['2026-12-01T24:00', 'no hour 24'],
    ['2026-12-01T14:60', 'no minute 60'],
    ['2026-12-01 14:30', 'a space for the T'],
    ['2026-12-01', 'a date without a time'],
    ['2026-12-01T14:30Z', 'a UTC time'],
    ['2026-12-01T14:30:00.000', 'fractions of a second'],
    ['2026-12-01T14:30:00-08:00', 'an offset'],
    [' 2026-12-01T14:30', 'a leading space'],
  ])('refuses dates and times that do not exist and other formats: %j (%s)', (value) => {
    expect(fromPacificWallClock(value)).toBeNull();
  });

  it('round-trips every quarter hour of a year, the repeated hour landing on its first occurrence', () => {
    const start = Date.parse('2026-06-01T00:00:00Z');
    const end = Date.parse('2027-06-01T00:00:00Z');
    // Collected and compared once: 35,040 expect() calls took seconds on a busy machine.
    const wrong: string[] = [];
    const repeated: string[] = [];
    for (let t = start; t < end; t += 15 * 60_000) {
      const wall = pacificWallClock(new Date(t));
      const back = fromPacificWallClock(wall);
      if (!back || pacificWallClock(back) !== wall) wrong.push(wall);
      else if (back.getTime() !== t) {
        // Only the second 01:xx of Nov 1, 2026 maps to another instant: the same reading an hour earlier.
        if (t - back.getTime() !== 3_600_000) wrong.push(wall);
        repeated.push(wall);
      }
    }
    expect(wrong).toEqual([]);
    expect(repeated).toEqual(['2026-11-01T01:00:00', '2026-11-01T01:15:00', '2026-11-01T01:30:00', '2026-11-01T01:45:00']);
    // 35,040 round trips through Intl take 1-2 s on a quiet machine and more when it is busy.
  }, 30_000);
});

describe('formatPacificDateTime', () => {
  // ICU may put a narrow no-break space before AM/PM.
  const format = (at: Date) => formatPacificDateTime(at).replace(/\s/gu, ' ');

  it('writes the day, date, time and zone as California sees them', () => {
    expect(format(new Date('2026-12-01T22:30:00Z'))).toBe('Tuesday, December 1, 2026 at 2:30 PM PST');
    expect(format(new Date('2027-07-01T21:30:00Z'))).toBe('Thursday, July 1, 2027 at 2:30 PM PDT');
    // Early on Dec 2 in UTC is still the evening of Dec 1 in California.
    expect(format(new Date('2026-12-02T05:05:00Z'))).toBe('Tuesday, December 1, 2026 at 9:05 PM PST');
  });
});

describe('startOfPacificDay', () => {
  it('is midnight in California, at UTC-8 in winter and UTC-7 in summer', () => {
    expect(startOfPacificDay('2026-12-01').toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(startOfPacificDay('2027-07-01').toISOString()).toBe('2027-07-01T07:00:00.000Z');
  });

  it('uses the offset in force at midnight on the days the clocks change', () => {
    // Clocks go forward at 02:00 on Mar 14, 2027 and back at 02:00 on Nov 1, 2026.
    expect(startOfPacificDay('2027-03-14').toISOString()).toBe('2027-03-14T08:00:00.000Z');
    expect(startOfPacificDay('2027-03-15').toISOString()).toBe('2027-03-15T07:00:00.000Z');
    expect(startOfPacificDay('2026-11-01').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(startOfPacificDay('2026-11-02').toISOString()).toBe('2026-11-02T08:00:00.000Z');
  });

  it('is the first instant of that Pacific date', () => {
    for (const date of ['2026-01-15', '2026-03-08', '2026-11-01', '2027-03-14', '2027-12-31']) {
      const start = startOfPacificDay(date);
      expect(pacificDate(start), date).toBe(date);
      expect(pacificDate(new Date(start.getTime() - 1)), date).toBe(addDays(date, -1));
    }
  });
});
