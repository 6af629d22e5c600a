import { describe, expect, it } from 'vitest';
import { closedWeek, dayLabel, dayProblem, HOURS_MESSAGES, openingHoursSpecification, parseDayText, timeLabel, weeklyHoursSchema } from './opening-hours.ts';

describe('opening hours as data', () => {
  it('reads the day texts the old free-text field held, and refuses what is not hours', () => {
    expect(parseDayText('9:00 AM – 6:00 PM')).toEqual([['09:00', '18:00']]);
    expect(parseDayText('8:30 am - 12:30 pm, 1:30 pm - 5 pm')).toEqual([
      ['08:30', '12:30'],
      ['13:30', '17:00'],
    ]);
    expect(parseDayText('10am to noon')).toEqual([['10:00', '12:00']]);
    expect(parseDayText('Closed')).toEqual([]);
    expect(parseDayText(null)).toEqual([]);
    for (const text of ['By appointment', '9 – 5', '6:00 PM – 9:00 AM', '13:00 PM – 2:00 PM', '9:00 AM – 1:00 PM, 12:00 PM – 5:00 PM']) {
      expect(parseDayText(text), text).toBeNull();
    }
  });

  it('checks a day: well-formed times, close after open, no overlap, at most three ranges', () => {
    expect(
      dayProblem([
        ['09:00', '12:00'],
        ['13:00', '24:00'],
      ]),
    ).toBeNull();
    expect(dayProblem([['9:00', '12:00']])).toBe(HOURS_MESSAGES.time);
    expect(dayProblem([['12:00', '09:00']])).toBe(HOURS_MESSAGES.order);
    expect(
      dayProblem([
        ['09:00', '13:00'],
        ['12:00', '17:00'],
      ]),
    ).toBe(HOURS_MESSAGES.overlap);
    expect(
      dayProblem([
        ['08:00', '09:00'],
        ['10:00', '11:00'],
        ['12:00', '13:00'],
        ['14:00', '15:00'],
      ]),
    ).toBe(HOURS_MESSAGES.tooMany);
    expect(
      weeklyHoursSchema.safeParse({
        ...closedWeek(),
        mon: [
          ['13:00', '17:00'],
          ['09:00', '12:00'],
        ],
      }).data?.mon,
    ).toEqual([
      ['09:00', '12:00'],
      ['13:00', '17:00'],
    ]);
    expect(weeklyHoursSchema.safeParse({ ...closedWeek(), tue: [['09:00', '25:00']] }).success).toBe(false);
  });

  it('derives the words pages show', () => {
    expect([0, 570, 720, 1439, 1440].map(timeLabel)).toEqual(['12:00 AM', '9:30 AM', '12:00 PM', '11:59 PM', '12:00 AM']);
    expect(dayLabel([])).toBe('Closed');
    expect(
      dayLabel([
        ['09:00', '13:00'],
        ['14:00', '18:30'],
      ]),
    ).toBe('9:00 AM – 1:00 PM, 2:00 PM – 6:30 PM');
  });

  it('publishes schema.org opening hours, one entry per range with its weekdays', () => {
    const week = { ...closedWeek(), mon: [['09:00', '17:00']] as const, tue: [['09:00', '17:00']] as const, sat: [['10:00', '24:00']] as const };
    expect(openingHoursSpecification(week)).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday'], opens: '09:00', closes: '17:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '10:00', closes: '23:59' },
    ]);
  });
});
