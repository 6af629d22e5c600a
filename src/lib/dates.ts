// "Today" is Orange County's today (rulings: dates are in America/Los_Angeles),
// whatever the server's time zone.
export const TIME_ZONE = 'America/Los_Angeles';

const isoDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** 'YYYY-MM-DD' of the given instant in Pacific time. */
export function pacificDate(at: Date = new Date()): string {
  return isoDate.format(at);
}

/** Calendar arithmetic on 'YYYY-MM-DD' (no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** An offer is expired when its last valid day is before today; never without an end date. */
export function isExpired(validTo: string | null | undefined, today: string = pacificDate()): boolean {
  return validTo != null && validTo < today;
}

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** '2026-12-31' -> 'December 31, 2026' */
export function formatLongDate(date: string): string {
  return longDate.format(new Date(`${date}T00:00:00Z`));
}

/** Milliseconds from `now` until the next midnight in Orange County (DST-aware). */
export function msUntilNextPacificMidnight(now: Date = new Date()): number {
  const tomorrow = addDays(pacificDate(now), 1);
  // Midnight Pacific is 07:00 or 08:00 UTC; take the one that falls on tomorrow's date.
  for (const hour of [7, 8]) {
    const candidate = new Date(`${tomorrow}T0${hour}:00:00Z`);
    if (pacificDate(candidate) === tomorrow && pacificDate(new Date(candidate.getTime() - 1)) !== tomorrow) {
      return candidate.getTime() - now.getTime();
    }
  }
  return 24 * 3_600_000;
}

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The wall-clock reading in Orange County at `at`, as 'YYYY-MM-DDTHH:MM:SS'. */
export function pacificWallClock(at: Date): string {
  const part = Object.fromEntries(PARTS.formatToParts(at).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}`;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a wall-clock time in Orange County names ('2026-12-01T14:30', as
 * a datetime-local field sends it), or null when it is not a real time there
 * (a bad date, or the hour skipped when clocks go forward).
 */
export function fromPacificWallClock(local: string): Date | null {
  const match = LOCAL_DATE_TIME.exec(local);
  if (!match) return null;
  const wanted = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6] ?? '00'}`;
  const naive = Date.parse(`${wanted}Z`);
  if (Number.isNaN(naive)) return null;
  // Pacific is UTC-8 or UTC-7; the earlier candidate wins in the repeated hour.
  for (const offsetHours of [7, 8]) {
    const candidate = new Date(naive + offsetHours * 3_600_000);
    if (pacificWallClock(candidate) === wanted) return candidate;
  }
  return null;
}

const dateTimeLabel = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** 'Tuesday, December 1, 2026 at 2:30 PM PST' */
export function formatPacificDateTime(at: Date): string {
  return dateTimeLabel.format(at);
}

/** The first instant of a Pacific calendar day. */
export function startOfPacificDay(date: string): Date {
  return fromPacificWallClock(`${date}T00:00`) ?? new Date(`${date}T08:00:00Z`);
}
