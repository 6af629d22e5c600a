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
