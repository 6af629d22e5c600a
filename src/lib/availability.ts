// The availability engine (issue 24): which start times a spa can still give a
// service, and whether one chosen time can be booked. Pure: the server module
// (src/lib/server/availability/calendar.ts) loads the spa's calendar and the
// booking transaction asks checkTime again inside its write lock.
//
// Hours are wall-clock times in Orange County; bookings are instants (epoch
// milliseconds, UTC in the database). Wall-clock times become instants only
// through Temporal (temporal-polyfill, docs/decisions/0028): on the spring-
// forward day a wall time that does not exist (2:00-2:59 AM) is never offered,
// and on the fall-back day the repeated hour is offered once, at its first
// occurrence (PDT), and stored as that instant. Days without a clock change
// (all but two a year) map minute m to the day's first instant + m minutes,
// which Temporal vouches for by finding no transition inside the day.
//
// Start times run every `stepMinutes` from each opening of the spa's day. A
// time is open when the treatment fits inside the spa's range and inside the
// range of at least one clinician who performs the service, works that day
// and is free from the start until the end of the treatment plus its buffer,
// and (when the spa counts rooms) a room is free for as long. Timed bookings
// that name no clinician (a request the owner confirmed at a time) take one
// of the free clinicians, and those without a room one of the free rooms.
import { Temporal } from 'temporal-polyfill';
import { addDays, TIME_ZONE } from './dates.ts';
import { minutesOf, timeLabel, WEEKDAYS, type DayHours, type Weekday, type WeeklyHours } from './opening-hours.ts';

export interface BookingRules {
  /** No time sooner than this after now. */
  minNoticeMinutes: number;
  /** No time on a Pacific date more than this many days after today. */
  horizonDays: number;
  /** Start times every this many minutes from each opening. */
  stepMinutes: number;
}

export interface ClinicianCalendar {
  id: number;
  /** The directory's treatment keys they perform (clinicians.treatments). */
  treatments: readonly string[];
  /** Their working week inside the spa's hours; null: whenever the spa is open. */
  workingHours: WeeklyHours | null;
  /** Whole Pacific days off, first and last included ('YYYY-MM-DD'). */
  timeOff: readonly { firstDay: string; lastDay: string }[];
}

/** A pending or confirmed booking with a time: when it starts, when the treatment ends, and the buffer after it. */
export interface BusyTime {
  start: number;
  end: number;
  bufferMinutes: number;
  clinicianId: number | null;
  room: number | null;
}

export interface SpaCalendar {
  rules: BookingRules;
  /** The weekly hours; null: not listed, so nothing is open. */
  hours: WeeklyHours | null;
  /** Closed dates ([]) and one-off hours, by Pacific date. */
  dateHours: ReadonlyMap<string, DayHours>;
  /** Treatment rooms; null: rooms do not limit. */
  rooms: number | null;
  clinicians: readonly ClinicianCalendar[];
  bookings: readonly BusyTime[];
}

export interface ServiceToBook {
  duration: number;
  bufferAfterMinutes: number;
  /** Its treatment key; a service without one can be given by any of the spa's clinicians. */
  treatment: string | null;
}

export interface OpenTime {
  /** Epoch milliseconds (UTC). */
  start: number;
  /** When the treatment ends. */
  end: number;
  /** Wall-clock minutes since the Pacific midnight, and as people read them ('9:15 AM'). */
  minutes: number;
  label: string;
  /** Who can take it, in the order the calendar lists them. */
  clinicianIds: number[];
}

export interface OpenDay {
  /** 'YYYY-MM-DD', Pacific. */
  date: string;
  weekday: Weekday;
  /** 'Monday, March 15' */
  label: string;
  times: OpenTime[];
}

/** Why a chosen time cannot be booked: `taken` is a conflict (someone was faster), every other reason a bad request. */
export type TimeRefusal =
  'past' | 'notice' | 'horizon' | 'closed' | 'outside_hours' | 'unknown_clinician' | 'clinician_service' | 'clinician_off' | 'nobody' | 'taken';

export type TimeCheck = { ok: true; end: number; clinicianIds: number[]; room: number | null } | { ok: false; reason: TimeRefusal };

const MINUTE = 60_000;
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// --- time zone ------------------------------------------------------------------

/** One Pacific day: its weekday, and how its wall-clock minutes map to instants. */
interface Day {
  date: string;
  weekday: Weekday;
  /** The instant of wall-clock minute m, or null when that wall time does not exist (spring forward). */
  instantOf: (minutes: number) => number | null;
  /** The instant a range boundary means: a boundary in the skipped hour moves forward, one in the repeated hour is its first occurrence. */
  boundaryOf: (minutes: number) => number;
}

const DAY_MS = 86_400_000;

/** The first instant of a Pacific date. */
const midnightOf = (date: string) => Temporal.PlainDate.from(date).toZonedDateTime(TIME_ZONE);

/**
 * `count` consecutive Pacific days from `from`. Temporal finds the day's first
 * instant once and the next clock change after it; every day before that
 * change is 24 hours long and maps minutes linearly, and the day of a change
 * asks Temporal for each wall time.
 */
function daysFrom(from: string, count: number): Day[] {
  const days: Day[] = [];
  const first = midnightOf(from);
  let midnight = first.epochMilliseconds;
  let change = first.getTimeZoneTransition('next')?.epochMilliseconds ?? Infinity;
  for (let i = 0, date = from; i < count; i++, date = addDays(date, 1)) {
    const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]![0];
    if (change >= midnight + DAY_MS) {
      const start = midnight;
      const linear = (minutes: number) => start + minutes * MINUTE;
      days.push({ date, weekday, instantOf: linear, boundaryOf: linear });
      midnight += DAY_MS;
      continue;
    }
    const plain = Temporal.PlainDate.from(date);
    const next = midnightOf(addDays(date, 1));
    const end = next.epochMilliseconds;
    const zoned = (minutes: number, disambiguation: 'earlier' | 'compatible') =>
      minutes >= 1440 ? null : plain.toPlainDateTime({ hour: Math.floor(minutes / 60), minute: minutes % 60 }).toZonedDateTime(TIME_ZONE, { disambiguation });
    days.push({
      date,
      weekday,
      instantOf: (minutes) => {
        const at = zoned(minutes, 'earlier');
        if (!at) return end;
        // A wall time in the gap comes back as another wall time: it does not exist that day.
        return at.hour * 60 + at.minute === minutes && at.toPlainDate().equals(plain) ? at.epochMilliseconds : null;
      },
      boundaryOf: (minutes) => zoned(minutes, 'compatible')?.epochMilliseconds ?? end,
    });
    midnight = end;
    change = next.getTimeZoneTransition('next')?.epochMilliseconds ?? Infinity;
  }
  return days;
}

/** The first instant (epoch milliseconds) of a Pacific date. */
export const pacificMidnight = (date: string) => midnightOf(date).epochMilliseconds;

/** The Pacific date and wall-clock minutes of an instant. */
export function pacificMinutes(at: number): { date: string; minutes: number } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(TIME_ZONE);
  return { date: zoned.toPlainDate().toString(), minutes: zoned.hour * 60 + zoned.minute };
}

/** 'Monday, March 15' of a 'YYYY-MM-DD' (calendar facts, no time zone). */
export function dateLabel(date: string): string {
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAY_NAMES[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]}, ${MONTH_NAMES[month - 1]} ${day}`;
}

/** 'Tuesday, March 16, 2027, 9:00 AM Pacific': how pages and mails name an appointment's start (rulings: the zone named). */
export function whenLabel(at: number): string {
  const { date, minutes } = pacificMinutes(at);
  return `${dateLabel(date)}, ${date.slice(0, 4)}, ${timeLabel(minutes)} Pacific`;
}

// --- busy intervals -----------------------------------------------------------------

/** Intervals sorted by start, with the running maximum of their ends: "does any overlap [a, b)?" in O(log n). */
class Intervals {
  private starts: number[] = [];
  private maxEnds: number[] = [];
  private ends: number[] = [];

  constructor(intervals: [number, number][]) {
    intervals.sort((x, y) => x[0] - y[0]);
    let max = -Infinity;
    for (const [start, end] of intervals) {
      this.starts.push(start);
      max = Math.max(max, end);
      this.maxEnds.push(max);
      this.ends.push(end);
    }
    this.ends.sort((x, y) => x - y);
  }

  /** Whether some interval overlaps [a, b). */
  overlaps(a: number, b: number): boolean {
    const i = lowerBound(this.starts, b) - 1;
    return i >= 0 && this.maxEnds[i]! > a;
  }

  /** How many intervals overlap [a, b): those that start before b, less those that ended by a. */
  count(a: number, b: number): number {
    return lowerBound(this.starts, b) - upperBound(this.ends, a);
  }
}

/** The first index whose value is >= x. */
function lowerBound(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose value is > x. */
function upperBound(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A spa's bookings by clinician and by room, and those that name neither, prepared once per question. */
class Busy {
  readonly byClinician = new Map<number, Intervals>();
  readonly byRoom = new Map<number, Intervals>();
  readonly withoutClinician: Intervals;
  readonly withoutRoom: Intervals;

  constructor(bookings: readonly BusyTime[]) {
    const clinician = new Map<number, [number, number][]>();
    const room = new Map<number, [number, number][]>();
    const noClinician: [number, number][] = [];
    const noRoom: [number, number][] = [];
    for (const b of bookings) {
      const interval: [number, number] = [b.start, b.end + b.bufferMinutes * MINUTE];
      if (b.clinicianId === null) noClinician.push(interval);
      else (clinician.get(b.clinicianId) ?? clinician.set(b.clinicianId, []).get(b.clinicianId)!).push(interval);
      if (b.room === null) noRoom.push(interval);
      else (room.get(b.room) ?? room.set(b.room, []).get(b.room)!).push(interval);
    }
    for (const [id, list] of clinician) this.byClinician.set(id, new Intervals(list));
    for (const [id, list] of room) this.byRoom.set(id, new Intervals(list));
    this.withoutClinician = new Intervals(noClinician);
    this.withoutRoom = new Intervals(noRoom);
  }
}

// --- ranges -------------------------------------------------------------------------

type Minutes = [number, number];

const toMinutes = (ranges: DayHours): Minutes[] => ranges.map(([open, close]) => [minutesOf(open), minutesOf(close)]);

/** The parts of `a` inside `b` (both sorted, not overlapping). */
function intersect(a: Minutes[], b: Minutes[]): Minutes[] {
  const out: Minutes[] = [];
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) {
      const from = Math.max(a0, b0);
      const to = Math.min(a1, b1);
      if (from < to) out.push([from, to]);
    }
  }
  return out;
}

const performs = (clinician: ClinicianCalendar, service: ServiceToBook) => service.treatment === null || clinician.treatments.includes(service.treatment);
const isOff = (clinician: ClinicianCalendar, date: string) => clinician.timeOff.some((off) => off.firstDay <= date && date <= off.lastDay);

/** The spa's open ranges on a date: its one-off hours or closure, else its weekday's hours. */
function spaRanges(calendar: SpaCalendar, day: Day): Minutes[] {
  const special = calendar.dateHours.get(day.date);
  if (special) return toMinutes(special);
  return calendar.hours ? toMinutes(calendar.hours[day.weekday]) : [];
}

/** One day's question, prepared: the spa's ranges, each able clinician's ranges as instants. */
class DayPlan {
  readonly ranges: Minutes[];
  /** Clinicians who perform the service and work that day, with their ranges as instants. */
  private readonly working: { id: number; spans: [number, number][] }[];
  private readonly calendar: SpaCalendar;
  private readonly busy: Busy;

  private readonly day: Day;

  constructor(day: Day, calendar: SpaCalendar, service: ServiceToBook, busy: Busy) {
    this.day = day;
    this.calendar = calendar;
    this.busy = busy;
    this.ranges = spaRanges(calendar, day);
    this.working = [];
    if (this.ranges.length === 0) return;
    for (const clinician of calendar.clinicians) {
      if (!performs(clinician, service) || isOff(clinician, day.date)) continue;
      const own = clinician.workingHours ? intersect(toMinutes(clinician.workingHours[day.weekday]), this.ranges) : this.ranges;
      if (own.length === 0) continue;
      this.working.push({ id: clinician.id, spans: own.map(([from, to]) => [day.boundaryOf(from), day.boundaryOf(to)]) });
    }
  }

  /** Whether minute m is on the step grid of one of the spa's ranges (whether the treatment fits is workingAt's question, in instants). */
  onGrid(minutes: number): boolean {
    const step = this.calendar.rules.stepMinutes;
    return this.ranges.some(([open, close]) => minutes >= open && minutes < close && (minutes - open) % step === 0);
  }

  /** Whether the spa is open for the whole of [start, end). */
  spaOpen(start: number, end: number): boolean {
    return this.ranges.some(([open, close]) => start >= this.day.boundaryOf(open) && end <= this.day.boundaryOf(close));
  }

  /** Who works the whole of [start, end) (performing the service, not off). */
  workingAt(start: number, end: number): number[] {
    return this.working.filter(({ spans }) => spans.some(([from, to]) => start >= from && end <= to)).map(({ id }) => id);
  }

  /** Of `ids` (everyone able), who is free from `start` until `until`; nobody when bookings without a clinician take them all. */
  free(ids: number[], start: number, until: number): number[] {
    const free = ids.filter((id) => !this.busy.byClinician.get(id)?.overlaps(start, until));
    const unassigned = this.busy.withoutClinician.count(start, until);
    return free.length > unassigned ? free : [];
  }

  /** The lowest free room, null when rooms do not limit, undefined when every room is taken. */
  room(start: number, until: number): number | null | undefined {
    const rooms = this.calendar.rooms;
    if (rooms === null) return null;
    let free: number | undefined;
    let count = 0;
    for (let room = 1; room <= rooms; room++) {
      if (this.busy.byRoom.get(room)?.overlaps(start, until)) continue;
      free ??= room;
      count++;
    }
    return count > this.busy.withoutRoom.count(start, until) ? free : undefined;
  }
}

// --- the questions ----------------------------------------------------------------

/**
 * The open start times on `days` Pacific dates from `from`, one entry per
 * date (a day with no time has an empty list), within the spa's notice and
 * horizon as of `now`.
 */
export function openTimes(calendar: SpaCalendar, service: ServiceToBook, { from, days, now }: { from: string; days: number; now: number }): OpenDay[] {
  return [...eachOpenDay(calendar, service, from, days, now)];
}

/**
 * The first open time on or after the Pacific date `from`, looking at most
 * `days` dates ahead (and never past the horizon), with its date: what search
 * and the picker call "next available". It stops at the first day with a time,
 * so a spa with a time today costs one day's work.
 */
export function firstOpenTime(
  calendar: SpaCalendar,
  service: ServiceToBook,
  { from, days, now }: { from: string; days: number; now: number },
): (OpenTime & { date: string }) | null {
  const lastDate = addDays(pacificMinutes(now).date, calendar.rules.horizonDays);
  const within = Math.max(0, Math.min(days, daysBetween(from, lastDate) + 1));
  for (const day of eachOpenDay(calendar, service, from, within, now)) {
    if (day.times.length > 0) return { ...day.times[0]!, date: day.date };
  }
  return null;
}

/** Whole days from one 'YYYY-MM-DD' to another (negative when `to` is earlier). */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** openTimes, one day at a time: callers that want only the first time stop early. */
function* eachOpenDay(calendar: SpaCalendar, service: ServiceToBook, from: string, days: number, now: number): Generator<OpenDay> {
  const busy = new Busy(calendar.bookings);
  const earliest = now + calendar.rules.minNoticeMinutes * MINUTE;
  const lastDate = addDays(pacificMinutes(now).date, calendar.rules.horizonDays);
  const duration = service.duration * MINUTE;
  const until = (service.duration + service.bufferAfterMinutes) * MINUTE;
  const step = calendar.rules.stepMinutes;
  for (const day of daysFrom(from, days)) {
    const { date } = day;
    const open: OpenDay = { date, weekday: day.weekday, label: dateLabel(date), times: [] };
    if (date <= lastDate) {
      const plan = new DayPlan(day, calendar, service, busy);
      for (const [openAt, closeAt] of plan.ranges) {
        // Wall-clock minutes on the grid; whether the treatment fits is judged in instants (a range that
        // spans a clock change is an hour shorter or longer than it reads).
        for (let minutes = openAt; minutes < closeAt; minutes += step) {
          const start = day.instantOf(minutes);
          if (start === null || start < earliest) continue;
          const clinicianIds = plan.free(plan.workingAt(start, start + duration), start, start + until);
          if (clinicianIds.length === 0 || plan.room(start, start + until) === undefined) continue;
          open.times.push({ start, end: start + duration, minutes, label: timeLabel(minutes), clinicianIds });
        }
      }
    }
    yield open;
  }
}

/**
 * Whether `start` can be booked for the service (with `clinicianId`, when
 * the client chose one): every rule openTimes applies, each refusal named.
 * The booking transaction calls it with the bookings read inside its lock.
 */
export function checkTime(
  calendar: SpaCalendar,
  service: ServiceToBook,
  { start, clinicianId, now }: { start: number; clinicianId?: number | null; now: number },
): TimeCheck {
  if (start <= now) return { ok: false, reason: 'past' };
  if (start < now + calendar.rules.minNoticeMinutes * MINUTE) return { ok: false, reason: 'notice' };
  const { date, minutes } = pacificMinutes(start);
  if (date > addDays(pacificMinutes(now).date, calendar.rules.horizonDays)) return { ok: false, reason: 'horizon' };
  const day = daysFrom(date, 1)[0]!;
  const plan = new DayPlan(day, calendar, service, new Busy(calendar.bookings));
  if (plan.ranges.length === 0) return { ok: false, reason: 'closed' };
  // Off the grid, outside the hours, or the second occurrence of a repeated wall time: never offered.
  if (!plan.onGrid(minutes) || day.instantOf(minutes) !== start) return { ok: false, reason: 'outside_hours' };

  const end = start + service.duration * MINUTE;
  const until = end + service.bufferAfterMinutes * MINUTE;
  const able = plan.workingAt(start, end);
  if (clinicianId != null) {
    const chosen = calendar.clinicians.find((c) => c.id === clinicianId);
    if (!chosen) return { ok: false, reason: 'unknown_clinician' };
    if (!performs(chosen, service)) return { ok: false, reason: 'clinician_service' };
    if (!able.includes(clinicianId)) return { ok: false, reason: 'clinician_off' };
  } else if (able.length === 0) return { ok: false, reason: 'nobody' };

  const free = plan.free(able, start, until);
  const clinicianIds = clinicianId != null ? free.filter((id) => id === clinicianId) : free;
  const room = plan.room(start, until);
  if (clinicianIds.length === 0 || room === undefined) return { ok: false, reason: 'taken' };
  return { ok: true, end, clinicianIds, room };
}

/**
 * Which of these bookings the calendar would no longer give: outside the spa's
 * hours on their day (or on a closed day), or, for one with a clinician,
 * outside that clinician's hours or on their time off. The owner's page asks
 * it of a change of hours before saving, so no booking is dropped silently.
 */
export function outsideHours<B extends BusyTime>(calendar: SpaCalendar, bookings: readonly B[]): B[] {
  const anyone: ServiceToBook = { duration: 0, bufferAfterMinutes: 0, treatment: null };
  const none = new Busy([]);
  const plans = new Map<string, DayPlan>();
  return bookings.filter((booking) => {
    const { date } = pacificMinutes(booking.start);
    let plan = plans.get(date);
    if (!plan) plans.set(date, (plan = new DayPlan(daysFrom(date, 1)[0]!, calendar, anyone, none)));
    if (!plan.spaOpen(booking.start, booking.end)) return true;
    return booking.clinicianId !== null && !plan.workingAt(booking.start, booking.end).includes(booking.clinicianId);
  });
}
