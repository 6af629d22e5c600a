// The owner's settings forms (issue 24): what each refuses, in the words the page shows.
import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_MESSAGES,
  bookingRulesSchema,
  dateHoursSchema,
  serviceBookingSchema,
  timeOffSchema,
  weekFromFields,
  weekToFields,
} from './availability-schema.ts';
import { closedWeek, HOURS_MESSAGES } from './opening-hours.ts';

const TODAY = '2027-06-01';
const errors = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('booking rules', () => {
  const valid = { bookingMode: 'instant', minNoticeMinutes: '120', bookingHorizonDays: '60', slotStepMinutes: '15', treatmentRooms: '' };

  it('takes the mode, notice, horizon, step and rooms (blank: not counted)', () => {
    expect(bookingRulesSchema.parse(valid)).toEqual({
      bookingMode: 'instant',
      minNoticeMinutes: 120,
      bookingHorizonDays: 60,
      slotStepMinutes: 15,
      treatmentRooms: null,
    });
    expect(bookingRulesSchema.parse({ ...valid, treatmentRooms: ' 3 ' }).treatmentRooms).toBe(3);
  });

  it('refuses each out-of-range value with its message', () => {
    const bad = bookingRulesSchema.safeParse({
      bookingMode: 'always',
      minNoticeMinutes: '-5',
      bookingHorizonDays: '400',
      slotStepMinutes: '7',
      treatmentRooms: '0',
    });
    expect(errors(bad)).toEqual({
      bookingMode: AVAILABILITY_MESSAGES.mode,
      minNoticeMinutes: AVAILABILITY_MESSAGES.notice,
      bookingHorizonDays: AVAILABILITY_MESSAGES.horizon,
      slotStepMinutes: AVAILABILITY_MESSAGES.step,
      treatmentRooms: AVAILABILITY_MESSAGES.rooms,
    });
    expect(errors(bookingRulesSchema.safeParse({ ...valid, minNoticeMinutes: '1.5', bookingHorizonDays: '' }))).toMatchObject({
      minNoticeMinutes: AVAILABILITY_MESSAGES.notice,
      bookingHorizonDays: AVAILABILITY_MESSAGES.horizon,
    });
  });
});

describe('a week of hours from the form', () => {
  it('reads each day’s ranges, blank for closed, midnight as the end of the day, and writes them back', () => {
    const fields = {
      ...weekToFields(null),
      'mon.open1': '09:00',
      'mon.close1': '13:00',
      'mon.open2': '14:00',
      'mon.close2': '18:00',
      'sat.open1': '20:00',
      'sat.close1': '00:00',
    };
    const read = weekFromFields(fields);
    expect(read).toEqual({
      ok: true,
      week: {
        ...closedWeek(),
        mon: [
          ['09:00', '13:00'],
          ['14:00', '18:00'],
        ],
        sat: [['20:00', '24:00']],
      },
    });
    expect(read.ok && weekToFields(read.week)).toEqual(fields);
  });

  it('names the day with the problem', () => {
    const read = weekFromFields({
      ...weekToFields(null),
      'tue.open1': '09:00',
      'wed.open1': '17:00',
      'wed.close1': '09:00',
      'thu.open1': '9am',
      'thu.close1': '5pm',
    });
    expect(read).toEqual({ ok: false, errors: { 'tue.open1': HOURS_MESSAGES.half, 'wed.open1': HOURS_MESSAGES.order, 'thu.open1': HOURS_MESSAGES.time } });
  });
});

describe('dates, time off and a service’s online booking', () => {
  it('a date is closed or has hours, today or later', () => {
    const schema = dateHoursSchema(TODAY);
    expect(schema.parse({ date: '2027-12-25', closed: true, note: ' Holiday ', times: {} })).toEqual({ date: '2027-12-25', ranges: [], note: 'Holiday' });
    expect(schema.parse({ date: '2027-12-24', closed: false, note: '', times: { 'date.open1': '09:00', 'date.close1': '13:00' } })).toEqual({
      date: '2027-12-24',
      ranges: [['09:00', '13:00']],
      note: null,
    });
    expect(errors(schema.safeParse({ date: '2027-05-31', closed: true, note: '', times: {} }))).toEqual({ date: AVAILABILITY_MESSAGES.pastDate });
    expect(errors(schema.safeParse({ date: '2027-02-30', closed: true, note: '', times: {} }))).toEqual({ date: AVAILABILITY_MESSAGES.date });
    expect(errors(schema.safeParse({ date: '2027-12-24', closed: false, note: '', times: {} }))).toEqual({
      'date.open1': 'Give the hours of that day, or mark it closed',
    });
    expect(errors(schema.safeParse({ date: '2027-12-24', closed: true, note: 'x'.repeat(101), times: {} }))).toEqual({ note: AVAILABILITY_MESSAGES.note });
  });

  it('time off runs forward from today', () => {
    const schema = timeOffSchema(TODAY);
    expect(schema.parse({ firstDay: '2027-06-10', lastDay: '2027-06-12', note: '' })).toEqual({ firstDay: '2027-06-10', lastDay: '2027-06-12', note: null });
    expect(errors(schema.safeParse({ firstDay: '2027-06-10', lastDay: '2027-06-09', note: '' }))).toEqual({ lastDay: AVAILABILITY_MESSAGES.dayOrder });
    expect(errors(schema.safeParse({ firstDay: '2027-05-01', lastDay: 'soon', note: '' }))).toEqual({
      firstDay: AVAILABILITY_MESSAGES.pastDate,
      lastDay: AVAILABILITY_MESSAGES.date,
    });
  });

  it('a buffer is whole minutes, 0 to 240', () => {
    expect(serviceBookingSchema.parse({ bookableOnline: false, bufferAfterMinutes: '15' })).toEqual({ bookableOnline: false, bufferAfterMinutes: 15 });
    for (const bad of ['-1', '241', '10.5', '', 'ten']) {
      expect(errors(serviceBookingSchema.safeParse({ bookableOnline: true, bufferAfterMinutes: bad })), bad).toEqual({
        bufferAfterMinutes: AVAILABILITY_MESSAGES.buffer,
      });
    }
  });
});
