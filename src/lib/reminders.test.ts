import { describe, expect, it } from 'vitest';
import { formatPacificDateTime } from './dates.ts';
import { morningOf, planReminders, reminderKey } from './reminders.ts';

const at = (iso: string) => new Date(iso);
const plan = (appointment: string, now: string) => planReminders(at(appointment), at(now)).map(({ kind, at: when }) => [kind, when.toISOString()]);

describe('planReminders', () => {
  it('plans the day before (24 elapsed hours) and, booked more than 2 days ahead, 8:00 Pacific the morning of', () => {
    // Thursday Dec 10, 2026, 14:30 PST; set on Monday.
    expect(plan('2026-12-10T22:30:00Z', '2026-12-07T18:00:00Z')).toEqual([
      ['day-before', '2026-12-09T22:30:00.000Z'],
      ['morning-of', '2026-12-10T16:00:00.000Z'],
    ]);
  });

  it('leaves out the morning reminder when booked 2 days ahead or less', () => {
    expect(plan('2026-12-10T22:30:00Z', '2026-12-08T22:30:00Z')).toEqual([['day-before', '2026-12-09T22:30:00.000Z']]);
    expect(plan('2026-12-10T22:30:00Z', '2026-12-08T22:29:59Z')).toEqual([
      ['day-before', '2026-12-09T22:30:00.000Z'],
      ['morning-of', '2026-12-10T16:00:00.000Z'],
    ]);
  });

  it('plans nothing for a time already past: booked less than 24 hours ahead, no reminder at all', () => {
    expect(plan('2026-12-10T22:30:00Z', '2026-12-09T22:30:00Z')).toEqual([]);
    expect(plan('2026-12-10T22:30:00Z', '2026-12-10T20:00:00Z')).toEqual([]);
  });

  it('skips the morning reminder for an appointment at or before 8:00', () => {
    expect(plan('2026-12-10T15:30:00Z', '2026-12-01T18:00:00Z')).toEqual([['day-before', '2026-12-09T15:30:00.000Z']]);
    expect(plan('2026-12-10T16:00:00Z', '2026-12-01T18:00:00Z')).toEqual([['day-before', '2026-12-09T16:00:00.000Z']]);
  });

  it('counts 24 real hours across the November change: the wall clock differs by an hour', () => {
    // Sunday Nov 1, 2026, 10:00 PST; 24 hours earlier it was 11:00 PDT on Saturday.
    const [dayBefore, morning] = planReminders(at('2026-11-01T18:00:00Z'), at('2026-10-28T18:00:00Z'));
    expect(dayBefore!.at.toISOString()).toBe('2026-10-31T18:00:00.000Z');
    expect(formatPacificDateTime(dayBefore!.at)).toBe('Saturday, October 31, 2026 at 11:00 AM PDT');
    expect(morning!.at.toISOString()).toBe('2026-11-01T16:00:00.000Z');
    expect(formatPacificDateTime(morning!.at)).toBe('Sunday, November 1, 2026 at 8:00 AM PST');
  });

  it('handles both 1:30 AMs of Nov 1, 2026 (PDT, then PST an hour later) as different times', () => {
    expect(plan('2026-11-01T08:30:00Z', '2026-10-25T00:00:00Z')).toEqual([['day-before', '2026-10-31T08:30:00.000Z']]);
    expect(plan('2026-11-01T09:30:00Z', '2026-10-25T00:00:00Z')).toEqual([['day-before', '2026-10-31T09:30:00.000Z']]);
  });

  it('finds 8:00 in daylight time too', () => {
    expect(morningOf(at('2027-03-14T17:00:00Z')).toISOString()).toBe('2027-03-14T15:00:00.000Z');
    expect(morningOf(at('2026-12-10T07:59:00Z')).toISOString()).toBe('2026-12-09T16:00:00.000Z');
  });

  it('keys each booking and kind apart', () => {
    expect(reminderKey(12, 'day-before')).toBe('booking-12:reminder-day-before');
    expect(reminderKey(1, 'morning-of')).not.toBe(reminderKey(12, 'morning-of'));
  });
});
