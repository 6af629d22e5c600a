// Opening hours as data (issue 24): per weekday, closed (no ranges) or one or
// more open ranges of wall-clock time in Orange County, 'HH:MM' 24-hour, the
// close after the open. The same shape serves a spa's week, a clinician's
// working week and a day's one-off hours. Everything a page says about hours
// (the spa page's table, JSON-LD openingHoursSpecification, the owner's form)
// is derived from it here. Pure: no time zones (wall-clock times only; the
// availability engine turns them into instants).
import { z } from 'zod';

export const WEEKDAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;
export type Weekday = (typeof WEEKDAYS)[number][0];

/** [open, close], 'HH:MM' 24-hour; close may be '24:00' (midnight at the end of the day). */
export type TimeRange = readonly [string, string];
export type DayHours = readonly TimeRange[];
export type WeeklyHours = Readonly<Record<Weekday, DayHours>>;

/** How many open ranges one day may have (a lunch break makes two; a split shift three). */
export const MAX_RANGES_PER_DAY = 3;

export const HOURS_MESSAGES = {
  time: 'Enter a time such as 09:00',
  order: 'The closing time must be after the opening time',
  overlap: 'Open ranges of one day must not overlap',
  tooMany: `At most ${MAX_RANGES_PER_DAY} open ranges a day`,
  half: 'Give both the opening and the closing time, or neither',
} as const;

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Minutes since midnight of 'HH:MM'. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** 'HH:MM' of minutes since midnight (0..1440). */
export function clockOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** 570 -> '9:30 AM', 720 -> '12:00 PM', 1440 -> '12:00 AM' (midnight). */
export function timeLabel(minutes: number): string {
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** '9:00 AM – 6:00 PM' (the en dash the listings have always used). */
export const rangeLabel = ([open, close]: TimeRange) => `${timeLabel(minutesOf(open))} – ${timeLabel(minutesOf(close))}`;

/** 'Closed', or the ranges joined: '9:00 AM – 1:00 PM, 2:00 PM – 6:00 PM'. */
export const dayLabel = (ranges: DayHours) => (ranges.length === 0 ? 'Closed' : ranges.map(rangeLabel).join(', '));

/** Why a day's ranges are not valid, or null: each well formed, in order, not overlapping, not too many. */
export function dayProblem(ranges: DayHours): string | null {
  if (ranges.length > MAX_RANGES_PER_DAY) return HOURS_MESSAGES.tooMany;
  let previousClose = -1;
  for (const [open, close] of ranges) {
    if (!CLOCK.test(open) || !CLOCK.test(close) || open === '24:00') return HOURS_MESSAGES.time;
    if (minutesOf(close) <= minutesOf(open)) return HOURS_MESSAGES.order;
    if (minutesOf(open) < previousClose) return HOURS_MESSAGES.overlap;
    previousClose = minutesOf(close);
  }
  return null;
}

/** Sorts a day's ranges by their opening time (what forms send may come in any order). */
export const sortRanges = (ranges: DayHours): TimeRange[] => [...ranges].sort((a, b) => minutesOf(a[0]) - minutesOf(b[0]));

const rangeSchema = z.tuple([z.string(), z.string()]);
export const dayHoursSchema = z
  .array(rangeSchema)
  .transform((ranges) => sortRanges(ranges as TimeRange[]))
  .superRefine((ranges, context) => {
    const problem = dayProblem(ranges);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** What the database stores (spas.opening_hours, clinicians.working_hours), checked on every write. */
export const weeklyHoursSchema = z.object(Object.fromEntries(WEEKDAYS.map(([day]) => [day, dayHoursSchema])) as Record<Weekday, typeof dayHoursSchema>);

export const closedWeek = (): WeeklyHours => Object.fromEntries(WEEKDAYS.map(([day]) => [day, []])) as unknown as WeeklyHours;

/** Whether the week has at least one open range. */
export const isOpenAtAll = (week: WeeklyHours) => WEEKDAYS.some(([day]) => week[day].length > 0);

// --- reading what people wrote ------------------------------------------------

const TIME_TEXT = /^(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?\s*m\.?$/i;

/** '9:00 AM', '9am', '12:30 p.m.', 'noon', 'midnight' -> minutes; null when it is not a time of day. */
function minutesOfText(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === 'noon') return 720;
  if (t === 'midnight') return 1440;
  const match = TIME_TEXT.exec(t);
  if (!match) return null;
  const hour = Number(match[1]);
  if (hour < 1 || hour > 12) return null;
  return (hour % 12) * 60 + Number(match[2] ?? 0) + (match[3] === 'p' ? 720 : 0);
}

/**
 * A day's hours as people wrote them in the old free-text field
 * ('9:00 AM – 6:00 PM', '9am-1pm, 2pm-6pm', 'Closed'), or null when it does
 * not read as hours ('By appointment'). The migration that replaced the text
 * (db/migrations/0017) reads the same shapes in SQL; a test holds them together.
 */
export function parseDayText(text: string | null): TimeRange[] | null {
  if (text === null || text.trim() === '' || /^closed$/i.test(text.trim())) return [];
  const ranges: TimeRange[] = [];
  for (const part of text.split(/\s*(?:,|;|&|\band\b)\s*/i)) {
    const ends = part.split(/\s*(?:–|—|-|\bto\b)\s*/i);
    if (ends.length !== 2) return null;
    const open = minutesOfText(ends[0]!);
    const close = minutesOfText(ends[1]!);
    if (open === null || close === null || open === 1440) return null;
    ranges.push([clockOf(open), clockOf(close)]);
  }
  const sorted = sortRanges(ranges);
  return dayProblem(sorted) ? null : sorted;
}

// --- what pages publish -------------------------------------------------------

const SCHEMA_DAYS: Record<Weekday, 'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday'> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** schema.org OpeningHoursSpecification entries: one per set of weekdays with the same range. */
export function openingHoursSpecification(week: WeeklyHours) {
  const byRange = new Map<string, Weekday[]>();
  for (const [day] of WEEKDAYS) {
    for (const [open, close] of week[day]) {
      const key = `${open}-${close}`;
      byRange.set(key, [...(byRange.get(key) ?? []), day]);
    }
  }
  return [...byRange].map(([key, days]) => {
    const [opens, closes] = key.split('-') as [string, string];
    return {
      '@type': 'OpeningHoursSpecification' as const,
      dayOfWeek: days.map((day) => SCHEMA_DAYS[day]),
      opens,
      // schema.org reads 23:59 as "until midnight"; 24:00 is not a valid time.
      closes: closes === '24:00' ? '23:59' : closes,
    };
  });
}
