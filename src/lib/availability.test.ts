// The availability engine on hand-made calendars: every instant below is
// written out in UTC, so a reader can check it against a calendar: Pacific is
// UTC-8 (PST) in winter and UTC-7 (PDT) in summer; in 2027 the clocks go
// forward on Sunday 14 March at 2:00 and back on Sunday 7 November at 2:00.
import { describe, expect, it } from 'vitest';
import {
  checkTime,
  dateLabel,
  firstOpenTime,
  openTimes,
  pacificMinutes,
  type ClinicianCalendar,
  type ServiceToBook,
  type SpaCalendar,
} from './availability.ts';
import { closedWeek, type DayHours, type WeeklyHours } from './opening-hours.ts';

const utc = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const week = (hours: Partial<Record<keyof WeeklyHours, DayHours>>): WeeklyHours => ({ ...closedWeek(), ...hours });
const weekdays9to5 = week({
  mon: [['09:00', '17:00']],
  tue: [['09:00', '17:00']],
  wed: [['09:00', '17:00']],
  thu: [['09:00', '17:00']],
  fri: [['09:00', '17:00']],
});

const ana: ClinicianCalendar = { id: 1, treatments: ['botox', 'fillers'], workingHours: null, timeOff: [] };
const ben: ClinicianCalendar = { id: 2, treatments: ['hydrafacial'], workingHours: null, timeOff: [] };

function calendar(overrides: Partial<SpaCalendar> = {}): SpaCalendar {
  return {
    rules: { minNoticeMinutes: 120, horizonDays: 60, stepMinutes: 15 },
    hours: weekdays9to5,
    dateHours: new Map(),
    rooms: null,
    clinicians: [ana, ben],
    bookings: [],
    ...overrides,
  };
}

const botox: ServiceToBook = { duration: 30, bufferAfterMinutes: 0, treatment: 'botox' };
const facial: ServiceToBook = { duration: 60, bufferAfterMinutes: 15, treatment: 'hydrafacial' };

// Monday 6 December 2027, 6:00 AM PST.
const MONDAY_EARLY = utc('2027-12-06T14:00:00Z');

const labelsOn = (days: ReturnType<typeof openTimes>, date: string) => days.find((d) => d.date === date)!.times.map((t) => t.label);

describe('open times on an ordinary week', () => {
  it('offers every step from opening while the treatment still ends by closing, in Pacific wall time', () => {
    const [monday] = openTimes(calendar(), botox, { from: '2027-12-06', days: 1, now: MONDAY_EARLY });
    expect(monday!.label).toBe('Monday, December 6');
    expect(monday!.times[0]).toMatchObject({ label: '9:00 AM', start: utc('2027-12-06T17:00:00Z'), end: utc('2027-12-06T17:30:00Z'), clinicianIds: [1] });
    // 9:00 ... 4:30 PM: the last 30-minute treatment starts at 4:30 and ends at 5:00.
    expect(monday!.times).toHaveLength(31);
    expect(monday!.times.at(-1)!.label).toBe('4:30 PM');
  });

  it('keeps the minimum notice and the horizon, and lists a closed day with no times', () => {
    // 10:05 AM Pacific: with 2 hours' notice the first time is 12:15 PM.
    const now = utc('2027-12-06T18:05:00Z');
    const days = openTimes(calendar(), botox, { from: '2027-12-05', days: 3, now });
    expect(days.map((d) => [d.date, d.times.length])).toEqual([
      ['2027-12-05', 0], // a Sunday: closed
      ['2027-12-06', 18], // 12:15 PM ... 4:30 PM
      ['2027-12-07', 31],
    ]);
    expect(days[1]!.times[0]!.label).toBe('12:15 PM');
    const horizon = openTimes(calendar({ rules: { minNoticeMinutes: 0, horizonDays: 2, stepMinutes: 60 } }), botox, { from: '2027-12-07', days: 3, now });
    expect(horizon.map((d) => d.times.length)).toEqual([8, 8, 0]);
  });

  it('closed dates and one-off hours replace the weekday', () => {
    const dateHours = new Map<string, DayHours>([
      ['2027-12-24', []],
      ['2027-12-26', [['10:00', '12:00']]],
    ]);
    const days = openTimes(calendar({ dateHours, rules: { minNoticeMinutes: 0, horizonDays: 60, stepMinutes: 60 } }), botox, {
      from: '2027-12-24',
      days: 3,
      now: MONDAY_EARLY,
    });
    expect(days.map((d) => d.times.map((t) => t.label))).toEqual([[], [], ['10:00 AM', '11:00 AM']]);
  });

  it('only clinicians who perform the service, inside their own hours, outside their time off', () => {
    const anaMornings: ClinicianCalendar = { ...ana, workingHours: week({ mon: [['08:00', '12:00']], tue: [['13:00', '20:00']] }) };
    const carla: ClinicianCalendar = { id: 3, treatments: ['botox'], workingHours: null, timeOff: [{ firstDay: '2027-12-07', lastDay: '2027-12-08' }] };
    const spa = calendar({ clinicians: [anaMornings, ben, carla], rules: { minNoticeMinutes: 0, horizonDays: 60, stepMinutes: 60 } });
    const days = openTimes(spa, botox, { from: '2027-12-06', days: 3, now: MONDAY_EARLY });
    const monday = days[0]!.times;
    expect(monday.map((t) => [t.label, t.clinicianIds])).toEqual([
      ['9:00 AM', [1, 3]],
      ['10:00 AM', [1, 3]],
      ['11:00 AM', [1, 3]],
      ['12:00 PM', [3]],
      ['1:00 PM', [3]],
      ['2:00 PM', [3]],
      ['3:00 PM', [3]],
      ['4:00 PM', [3]],
    ]);
    // Tuesday: Carla is off; Ana works 1 PM to 8 PM, inside the spa's 9 to 5.
    expect(labelsOn(days, '2027-12-07')).toEqual(['1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM']);
    // A service nobody performs has no times.
    expect(openTimes(spa, { duration: 30, bufferAfterMinutes: 0, treatment: 'laser' }, { from: '2027-12-06', days: 1, now: MONDAY_EARLY })[0]!.times).toEqual(
      [],
    );
    // A service without a treatment key: anyone.
    expect(
      openTimes(spa, { duration: 30, bufferAfterMinutes: 0, treatment: null }, { from: '2027-12-06', days: 1, now: MONDAY_EARLY })[0]!.times[0]!.clinicianIds,
    ).toEqual([1, 2, 3]);
  });
});

describe('the first open time (next available)', () => {
  it('is the soonest time from a date on, skipping closed and full days, and stops at the horizon', () => {
    // Friday 10 December 2027, 4:00 PM PST: with 2 hours' notice nothing is left that day; the weekend is closed.
    const friday = utc('2027-12-11T00:00:00Z');
    expect(firstOpenTime(calendar(), botox, { from: '2027-12-10', days: 14, now: friday })).toMatchObject({
      date: '2027-12-13',
      label: '9:00 AM',
      start: utc('2027-12-13T17:00:00Z'),
    });
    // Ana, the only one who gives Botox, is off all next week: the first time is the Monday after.
    const away = calendar({ clinicians: [{ ...ana, timeOff: [{ firstDay: '2027-12-13', lastDay: '2027-12-17' }] }, ben] });
    expect(firstOpenTime(away, botox, { from: '2027-12-10', days: 14, now: friday })?.date).toBe('2027-12-20');
    // Looking only a week ahead, or with a horizon of 5 days, finds nothing.
    expect(firstOpenTime(away, botox, { from: '2027-12-10', days: 7, now: friday })).toBeNull();
    expect(firstOpenTime({ ...away, rules: { ...away.rules, horizonDays: 5 } }, botox, { from: '2027-12-10', days: 28, now: friday })).toBeNull();
  });
});

describe('bookings, buffers and rooms', () => {
  const rules = { minNoticeMinutes: 0, horizonDays: 60, stepMinutes: 15 };
  // Ben's facial 10:00-11:00 AM PST on Monday 6 December, with 15 minutes to clean up.
  const bensFacial = { start: utc('2027-12-06T18:00:00Z'), end: utc('2027-12-06T19:00:00Z'), bufferMinutes: 15, clinicianId: 2, room: null };

  it('a booked clinician is busy for the treatment and its buffer, and a new treatment needs its own buffer before the next', () => {
    const days = openTimes(calendar({ rules, bookings: [bensFacial] }), facial, { from: '2027-12-06', days: 1, now: MONDAY_EARLY });
    const labels = days[0]!.times.map((t) => t.label);
    // 8:45 would end at 9:45 + 15 buffer = 10:00: fine, but the spa opens at 9. 9:00 ends 10:00, its buffer runs to 10:15: taken.
    expect(labels).not.toContain('9:00 AM');
    expect(labels).not.toContain('10:45 AM');
    expect(labels.slice(0, 2)).toEqual(['11:15 AM', '11:30 AM']);
    // The last facial starts at 4:00 PM and ends at 5:00 (its buffer may run past closing).
    expect(labels.at(-1)).toBe('4:00 PM');
  });

  it('a timed booking without a clinician takes one of those free', () => {
    const confirmedRequest = { start: utc('2027-12-06T17:00:00Z'), end: utc('2027-12-06T17:30:00Z'), bufferMinutes: 0, clinicianId: null, room: null };
    const both: ClinicianCalendar = { ...ben, treatments: ['botox'] };
    const one = openTimes(calendar({ rules, clinicians: [ana], bookings: [confirmedRequest] }), botox, { from: '2027-12-06', days: 1, now: MONDAY_EARLY });
    expect(one[0]!.times[0]!.label).toBe('9:30 AM');
    const two = openTimes(calendar({ rules, clinicians: [ana, both], bookings: [confirmedRequest] }), botox, {
      from: '2027-12-06',
      days: 1,
      now: MONDAY_EARLY,
    });
    expect(two[0]!.times[0]).toMatchObject({ label: '9:00 AM', clinicianIds: [1, 2] });
  });

  it('with rooms counted, a time needs a free room too', () => {
    const both: ClinicianCalendar = { ...ben, treatments: ['botox'] };
    const inRoom1 = { start: utc('2027-12-06T17:00:00Z'), end: utc('2027-12-06T17:30:00Z'), bufferMinutes: 0, clinicianId: 2, room: 1 };
    const spa = calendar({ rules, clinicians: [ana, both], rooms: 1, bookings: [inRoom1] });
    expect(openTimes(spa, botox, { from: '2027-12-06', days: 1, now: MONDAY_EARLY })[0]!.times[0]!.label).toBe('9:30 AM');
    expect(checkTime(spa, botox, { start: utc('2027-12-06T17:00:00Z'), now: MONDAY_EARLY })).toEqual({ ok: false, reason: 'taken' });
    expect(checkTime({ ...spa, rooms: 2 }, botox, { start: utc('2027-12-06T17:00:00Z'), now: MONDAY_EARLY })).toEqual({
      ok: true,
      end: utc('2027-12-06T17:30:00Z'),
      clinicianIds: [1],
      room: 2,
    });
  });
});

describe('checking one chosen time (what a forged post tries)', () => {
  const spa = calendar({
    clinicians: [ana, ben, { id: 3, treatments: ['botox'], workingHours: null, timeOff: [{ firstDay: '2027-12-08', lastDay: '2027-12-08' }] }],
  });
  const nine = utc('2027-12-07T17:00:00Z'); // Tuesday 9:00 AM PST
  const check = (start: number, clinicianId?: number | null, now = MONDAY_EARLY) => checkTime(spa, botox, { start, clinicianId, now });

  it('accepts an open time and says who can take it', () => {
    expect(check(nine)).toEqual({ ok: true, end: utc('2027-12-07T17:30:00Z'), clinicianIds: [1, 3], room: null });
    expect(check(nine, 3)).toMatchObject({ ok: true, clinicianIds: [3] });
  });

  it('names each refusal', () => {
    expect(check(utc('2027-12-06T13:00:00Z'))).toEqual({ ok: false, reason: 'past' });
    expect(check(utc('2027-12-06T17:00:00Z'), null, utc('2027-12-06T16:00:00Z'))).toEqual({ ok: false, reason: 'notice' });
    expect(check(utc('2028-02-07T17:00:00Z'))).toEqual({ ok: false, reason: 'horizon' });
    expect(check(utc('2027-12-12T17:00:00Z'))).toEqual({ ok: false, reason: 'closed' }); // a Sunday
    expect(check(utc('2027-12-07T16:00:00Z'))).toEqual({ ok: false, reason: 'outside_hours' }); // 8:00 AM
    expect(check(utc('2027-12-07T17:07:00Z'))).toEqual({ ok: false, reason: 'outside_hours' }); // 9:07: off the grid
    expect(check(utc('2027-12-08T00:45:00Z'))).toEqual({ ok: false, reason: 'nobody' }); // 4:45 PM: would end after 5
    expect(check(nine, 99)).toEqual({ ok: false, reason: 'unknown_clinician' });
    expect(check(nine, 2)).toEqual({ ok: false, reason: 'clinician_service' }); // Ben does no botox
    expect(check(utc('2027-12-08T17:00:00Z'), 3)).toEqual({ ok: false, reason: 'clinician_off' }); // Wednesday: Carla's day off
    const booked = { ...spa, bookings: [{ start: nine, end: nine + 1_800_000, bufferMinutes: 0, clinicianId: 1, room: null }] };
    expect(checkTime(booked, botox, { start: nine, clinicianId: 1, now: MONDAY_EARLY })).toEqual({ ok: false, reason: 'taken' });
    expect(checkTime(booked, botox, { start: nine, now: MONDAY_EARLY })).toMatchObject({ ok: true, clinicianIds: [3] });
  });
});

describe('daylight-saving changes in America/Los_Angeles (2027)', () => {
  const rules = { minNoticeMinutes: 0, horizonDays: 365, stepMinutes: 15 };
  const hour: ServiceToBook = { duration: 60, bufferAfterMinutes: 0, treatment: 'botox' };
  const night = (date: string) => calendar({ rules, clinicians: [ana], dateHours: new Map([[date, [['00:00', '04:00']] as DayHours]]) });
  const before = utc('2027-03-01T00:00:00Z');

  it('spring forward, Sunday 14 March: no 2:00-2:59 AM times, and the hour that does not exist is not counted', () => {
    const [day] = openTimes(night('2027-03-14'), hour, { from: '2027-03-14', days: 1, now: before });
    expect(day!.times.map((t) => t.label)).toEqual(['12:00 AM', '12:15 AM', '12:30 AM', '12:45 AM', '1:00 AM', '1:15 AM', '1:30 AM', '1:45 AM', '3:00 AM']);
    expect(day!.times.some((t) => t.label.startsWith('2:'))).toBe(false);
    // 1:45 AM PST is 09:45Z and an hour later it is 3:45 AM PDT (10:45Z); 3:00 AM PDT is 10:00Z.
    expect(day!.times.map((t) => iso(t.start)).slice(-2)).toEqual(['2027-03-14T09:45:00Z', '2027-03-14T10:00:00Z']);
    expect(iso(day!.times.at(-2)!.end)).toBe('2027-03-14T10:45:00Z');
    // No instant reads 2:xx AM that day (09:59Z is 1:59 PST, 10:00Z is 3:00 PDT); a forged 3:15 AM would run past 4:00.
    expect(pacificMinutes(utc('2027-03-14T09:59:00Z')).minutes).toBe(119);
    expect(checkTime(night('2027-03-14'), hour, { start: utc('2027-03-14T10:15:00Z'), now: before })).toEqual({ ok: false, reason: 'nobody' });
    expect(checkTime(night('2027-03-14'), hour, { start: utc('2027-03-14T09:45:00Z'), now: before })).toMatchObject({ ok: true });
  });

  it('spring forward: ordinary hours that day are PDT', () => {
    const sunday = calendar({ rules, clinicians: [ana], hours: week({ sun: [['09:00', '17:00']] }) });
    const [day] = openTimes(sunday, hour, { from: '2027-03-14', days: 1, now: before });
    expect(iso(day!.times[0]!.start)).toBe('2027-03-14T16:00:00Z');
    // The Saturday before is still PST.
    const saturday = calendar({ rules, clinicians: [ana], hours: week({ sat: [['09:00', '17:00']] }) });
    expect(iso(openTimes(saturday, hour, { from: '2027-03-13', days: 1, now: before })[0]!.times[0]!.start)).toBe('2027-03-13T17:00:00Z');
  });

  it('fall back, Sunday 7 November: the repeated hour is offered once, at its first (PDT) occurrence, and the range is an hour longer', () => {
    const [day] = openTimes(night('2027-11-07'), hour, { from: '2027-11-07', days: 1, now: before });
    const labels = day!.times.map((t) => t.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toEqual([
      '12:00 AM',
      '12:15 AM',
      '12:30 AM',
      '12:45 AM',
      '1:00 AM',
      '1:15 AM',
      '1:30 AM',
      '1:45 AM',
      '2:00 AM',
      '2:15 AM',
      '2:30 AM',
      '2:45 AM',
      '3:00 AM',
    ]);
    const at = (label: string) => iso(day!.times.find((t) => t.label === label)!.start);
    expect(at('12:00 AM')).toBe('2027-11-07T07:00:00Z');
    expect(at('1:30 AM')).toBe('2027-11-07T08:30:00Z'); // PDT
    expect(at('2:00 AM')).toBe('2027-11-07T10:00:00Z'); // PST
    // 1:30 AM PDT plus an hour is 1:30 AM PST: the end is an instant, 09:30Z.
    expect(iso(day!.times.find((t) => t.label === '1:30 AM')!.end)).toBe('2027-11-07T09:30:00Z');
    // The second 1:30 AM (PST, 09:30Z) is not an open time: refused, so it cannot be stored twice over.
    expect(checkTime(night('2027-11-07'), hour, { start: utc('2027-11-07T09:30:00Z'), now: before })).toEqual({ ok: false, reason: 'outside_hours' });
    expect(checkTime(night('2027-11-07'), hour, { start: utc('2027-11-07T08:30:00Z'), now: before })).toMatchObject({ ok: true });
  });

  it('a booking across the fall-back hour blocks its clinician in real time', () => {
    // 1:00 AM PDT (08:00Z) for two hours: until 2:00 AM PST (10:00Z).
    const spa = {
      ...night('2027-11-07'),
      bookings: [{ start: utc('2027-11-07T08:00:00Z'), end: utc('2027-11-07T10:00:00Z'), bufferMinutes: 0, clinicianId: 1, room: null }],
    };
    const [day] = openTimes(spa, hour, { from: '2027-11-07', days: 1, now: before });
    expect(day!.times.map((t) => t.label)).toEqual(['12:00 AM', '2:00 AM', '2:15 AM', '2:30 AM', '2:45 AM', '3:00 AM']);
  });

  it('the weeks around both changes keep 9:00 AM at the right instant', () => {
    const everyDay = calendar({
      rules: { minNoticeMinutes: 0, horizonDays: 400, stepMinutes: 60 },
      clinicians: [ana],
      hours: week(Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['09:00', '10:00']]]))),
    });
    const first = (from: string) => openTimes(everyDay, hour, { from, days: 3, now: before }).map((d) => iso(d.times[0]!.start));
    expect(first('2027-03-13')).toEqual(['2027-03-13T17:00:00Z', '2027-03-14T16:00:00Z', '2027-03-15T16:00:00Z']);
    expect(first('2027-11-06')).toEqual(['2027-11-06T16:00:00Z', '2027-11-07T17:00:00Z', '2027-11-08T17:00:00Z']);
  });
});

describe('dates', () => {
  it('reads instants as Pacific dates and wall-clock minutes, and names days', () => {
    expect(pacificMinutes(utc('2027-03-14T10:00:00Z'))).toEqual({ date: '2027-03-14', minutes: 180 });
    expect(pacificMinutes(utc('2027-11-07T07:59:00Z'))).toEqual({ date: '2027-11-07', minutes: 59 });
    expect(pacificMinutes(utc('2027-01-01T07:59:00Z'))).toEqual({ date: '2026-12-31', minutes: 1439 });
    expect(dateLabel('2027-11-07')).toBe('Sunday, November 7');
  });
});
