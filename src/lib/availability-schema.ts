// What an owner may set about online booking (issue 24), one schema per form
// of /owner/spas/{id}/availability, shared by the page that takes the plain
// HTML post and the server module that saves it (src/lib/server/availability/settings.ts).
import { z } from 'zod';
import { BOOKING_MODES, SLOT_STEPS } from '#db/schema.ts';
import { toCalendarDate } from './booking-schema.ts';
import { dayProblem, HOURS_MESSAGES, sortRanges, WEEKDAYS, type TimeRange, type Weekday, type WeeklyHours } from './opening-hours.ts';

export const RULE_LIMITS = {
  minNoticeMinutes: { min: 0, max: 20_160 },
  bookingHorizonDays: { min: 1, max: 365 },
  treatmentRooms: { min: 1, max: 50 },
  bufferAfterMinutes: { min: 0, max: 240 },
  note: 100,
} as const;

/** The notice choices the form offers, in minutes (any whole number in range is accepted). */
export const NOTICE_CHOICES = [0, 30, 60, 120, 240, 720, 1440, 2880] as const;

export const AVAILABILITY_MESSAGES = {
  mode: 'Choose how clients book',
  notice: `Enter the notice in whole minutes (${RULE_LIMITS.minNoticeMinutes.min} to ${RULE_LIMITS.minNoticeMinutes.max})`,
  horizon: `Enter a whole number of days (${RULE_LIMITS.bookingHorizonDays.min} to ${RULE_LIMITS.bookingHorizonDays.max})`,
  step: `Choose a step of ${SLOT_STEPS.join(', ')} minutes`,
  rooms: `Enter a whole number of rooms (${RULE_LIMITS.treatmentRooms.min} to ${RULE_LIMITS.treatmentRooms.max}), or leave it blank`,
  buffer: `Enter the buffer in whole minutes (${RULE_LIMITS.bufferAfterMinutes.min} to ${RULE_LIMITS.bufferAfterMinutes.max})`,
  date: 'Enter a valid date',
  pastDate: 'Choose today or a later date',
  dayOrder: 'The last day cannot be before the first day',
  note: `At most ${RULE_LIMITS.note} characters`,
  needsHours: 'Set your weekly hours before clients can book online',
} as const;

const wholeNumber = (message: string, { min, max }: { min: number; max: number }) =>
  z
    .string(message)
    .trim()
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

export const bookingRulesSchema = z.object({
  bookingMode: z.enum(BOOKING_MODES, AVAILABILITY_MESSAGES.mode),
  minNoticeMinutes: wholeNumber(AVAILABILITY_MESSAGES.notice, RULE_LIMITS.minNoticeMinutes),
  bookingHorizonDays: wholeNumber(AVAILABILITY_MESSAGES.horizon, RULE_LIMITS.bookingHorizonDays),
  slotStepMinutes: z
    .string(AVAILABILITY_MESSAGES.step)
    .trim()
    .transform(Number)
    .refine((n) => (SLOT_STEPS as readonly number[]).includes(n), AVAILABILITY_MESSAGES.step),
  treatmentRooms: z
    .string()
    .trim()
    .transform((value, context) => {
      if (value === '') return null;
      const n = Number(value);
      if (!/^\d{1,3}$/.test(value) || n < RULE_LIMITS.treatmentRooms.min || n > RULE_LIMITS.treatmentRooms.max) {
        context.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.rooms });
        return z.NEVER;
      }
      return n;
    }),
});
export type BookingRulesInput = z.output<typeof bookingRulesSchema>;
export const BOOKING_RULE_FIELDS = ['bookingMode', 'minNoticeMinutes', 'bookingHorizonDays', 'slotStepMinutes', 'treatmentRooms'] as const;

// --- a week of hours from a form ------------------------------------------------

/** How many ranges a day's row offers (a lunch break makes two). */
export const FORM_RANGES = 2;

/** A day's time fields: `mon.open1`, `mon.close1`, `mon.open2`, `mon.close2`. */
export const dayFields = (day: Weekday) => Array.from({ length: FORM_RANGES }, (_, i) => [`${day}.open${i + 1}`, `${day}.close${i + 1}`] as const).flat();
export const WEEK_FIELDS = WEEKDAYS.flatMap(([day]) => dayFields(day));

/** A day's ranges from its row (blank pairs skipped), or the message for the row. */
export function rangesFromFields(values: Record<string, string>, prefix: string): { ok: true; ranges: TimeRange[] } | { ok: false; message: string } {
  const ranges: TimeRange[] = [];
  for (let i = 1; i <= FORM_RANGES; i++) {
    const open = (values[`${prefix}.open${i}`] ?? '').trim();
    const close = (values[`${prefix}.close${i}`] ?? '').trim();
    if (open === '' && close === '') continue;
    if (open === '' || close === '') return { ok: false, message: HOURS_MESSAGES.half };
    // A closing time of midnight (00:00 in a time field) is the end of the day.
    ranges.push([open, close === '00:00' ? '24:00' : close]);
  }
  const sorted = sortRanges(ranges);
  const problem = dayProblem(sorted);
  return problem ? { ok: false, message: problem } : { ok: true, ranges: sorted };
}

/** A week from the form's rows: every day blank is a closed week; errors keyed by the day's first field. */
export function weekFromFields(values: Record<string, string>): { ok: true; week: WeeklyHours } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const week = {} as Record<Weekday, TimeRange[]>;
  for (const [day] of WEEKDAYS) {
    const read = rangesFromFields(values, day);
    if (read.ok) week[day] = read.ranges;
    else errors[`${day}.open1`] = read.message;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, week };
}

/** The form's values for a week (what the time fields show). */
export function weekToFields(week: WeeklyHours | null, prefix = ''): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [day] of WEEKDAYS) {
    const ranges = week?.[day] ?? [];
    for (let i = 0; i < FORM_RANGES; i++) {
      values[`${prefix}${day}.open${i + 1}`] = ranges[i]?.[0] ?? '';
      values[`${prefix}${day}.close${i + 1}`] = ranges[i]?.[1] === '24:00' ? '00:00' : (ranges[i]?.[1] ?? '');
    }
  }
  return values;
}

// --- dates ------------------------------------------------------------------------

const note = z
  .string()
  .trim()
  .max(RULE_LIMITS.note, AVAILABILITY_MESSAGES.note)
  .refine((value) => value.isWellFormed() && !/[\u0000-\u001f\u007f]/.test(value), 'Contains characters that are not allowed')
  .transform((value) => value || null);

/** A calendar date, today (Pacific) or later. */
const futureDate = (today: string) =>
  z
    .string(AVAILABILITY_MESSAGES.date)
    .trim()
    .transform((value, context) => {
      const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? toCalendarDate(value) : null;
      if (!date) context.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.date });
      else if (date < today) context.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.pastDate });
      return date ?? '';
    });

/** A closed date or one-off hours: `closed` on, or the day's time fields (date.open1 ...). */
export const dateHoursSchema = (today: string) =>
  z
    .object({ date: futureDate(today), closed: z.boolean(), note, times: z.record(z.string(), z.string()) })
    .transform(({ date, closed, note, times }, context) => {
      if (closed) return { date, ranges: [] as TimeRange[], note };
      const read = rangesFromFields(times, 'date');
      if (!read.ok || read.ranges.length === 0) {
        context.addIssue({ code: 'custom', path: ['date.open1'], message: read.ok ? 'Give the hours of that day, or mark it closed' : read.message });
        return z.NEVER;
      }
      return { date, ranges: read.ranges, note };
    });
export type DateHoursInput = z.output<ReturnType<typeof dateHoursSchema>>;

export const timeOffSchema = (today: string) =>
  z
    .object({ firstDay: futureDate(today), lastDay: futureDate(today), note })
    .refine(({ firstDay, lastDay }) => lastDay >= firstDay, { path: ['lastDay'], message: AVAILABILITY_MESSAGES.dayOrder });
export type TimeOffInput = z.output<ReturnType<typeof timeOffSchema>>;

/** One service's online booking: bookable or not, and the buffer after it. */
export const serviceBookingSchema = z.object({
  bookableOnline: z.boolean(),
  bufferAfterMinutes: wholeNumber(AVAILABILITY_MESSAGES.buffer, RULE_LIMITS.bufferAfterMinutes),
});
export type ServiceBookingInput = z.output<typeof serviceBookingSchema>;
