// When a confirmed booking's reminders go out (issue 14). Pure: the server
// module (src/lib/server/bookings/reminders.ts) schedules what this returns in the
// durable mail queue, keyed per booking and kind.
//
//   day-before   24 elapsed hours before the appointment (not the same wall-
//                clock time the day before: across a clock change the two differ)
//   morning-of   8:00 Pacific on the appointment's day, when the appointment
//                was set more than 2 days ahead and starts after 8:00
//
// A reminder whose time has already passed when the appointment is set is not
// scheduled; one whose time passes while the server is down is still sent
// late, but only before the appointment begins (its not-after time).
import { fromPacificWallClock, pacificDate } from './dates.ts';

export const REMINDER_KINDS = ['day-before', 'morning-of'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

const HOUR_MS = 3_600_000;
export const DAY_BEFORE_MS = 24 * HOUR_MS;
/** "Booked more than 2 days ahead" earns the morning reminder too. */
export const MORNING_REMINDER_LEAD_MS = 48 * HOUR_MS;
export const MORNING_REMINDER_TIME = '08:00';

export interface PlannedReminder {
  kind: ReminderKind;
  at: Date;
}

/** The morning reminder's time: 8:00 Pacific on the appointment's (Pacific) day. */
export function morningOf(appointment: Date): Date {
  const day = pacificDate(appointment);
  // 8:00 exists every day in Los Angeles (clocks change at 2:00).
  return fromPacificWallClock(`${day}T${MORNING_REMINDER_TIME}`)!;
}

/** The reminders an appointment at `appointment`, set at `now`, should get; earliest first. */
export function planReminders(appointment: Date, now: Date): PlannedReminder[] {
  const start = appointment.getTime();
  const planned: PlannedReminder[] = [];
  const dayBefore = new Date(start - DAY_BEFORE_MS);
  if (dayBefore.getTime() > now.getTime()) planned.push({ kind: 'day-before', at: dayBefore });
  if (start - now.getTime() > MORNING_REMINDER_LEAD_MS) {
    const morning = morningOf(appointment);
    if (morning.getTime() < start && morning.getTime() > now.getTime()) planned.push({ kind: 'morning-of', at: morning });
  }
  return planned.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The queue key of one booking's reminder of one kind: a new time replaces it, a cancellation drops it. */
export const reminderKey = (bookingId: number, kind: ReminderKind) => `booking-${bookingId}:reminder-${kind}`;
