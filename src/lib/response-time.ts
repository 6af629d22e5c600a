// How fast a spa answers its booking requests (issue 14): the median time from
// a request to the spa's first answer over the last 90 days. Pure; the server
// module (server/response-time.ts) loads the requests.
//
// Which requests count (docs/decisions/0017-reminders-and-response-time.md):
// - made within the 90 days before `now`;
// - answered (confirmed, rescheduled or declined by the owner or an admin):
//   the wait is the first answer's time minus the request's;
// - never answered but left waiting 24 hours or more (still pending, or
//   withdrawn by the client after that long): they count with the wait so
//   far, so a spa that ignores requests does not look fast;
// - never answered and waiting less than 24 hours (new, or withdrawn early by
//   the client): left out; the client's cancellation is never an answer;
// - confirmed or completed without a recorded first answer (rows older than
//   the column): left out, the time is unknown.
import type { BookingStatus } from '#db/schema.ts';

export const RESPONSE_WINDOW_DAYS = 90;
/** The line is shown only with at least this many counted requests. */
export const MIN_REQUESTS_FOR_RESPONSE_TIME = 5;
const HOUR_MS = 3_600_000;
const UNANSWERED_COUNTS_AFTER_MS = 24 * HOUR_MS;

export interface RequestTiming {
  status: BookingStatus;
  createdAt: Date;
  firstAnsweredAt: Date | null;
  /** The last change: for a request the client withdrew unanswered, when they did. */
  updatedAt: Date;
}

export interface ResponseTime {
  /** Requests counted (see above). */
  requests: number;
  /** Of which answered. */
  answered: number;
  medianMs: number | null;
  /** Whole hours the median rounds up to (at least 1), when there are enough requests to say. */
  hours: number | null;
}

/** The wait that counts for one request at `now`, or null when it does not count. */
export function countedWait(request: RequestTiming, now: Date): number | null {
  const made = request.createdAt.getTime();
  if (made > now.getTime() || made <= now.getTime() - RESPONSE_WINDOW_DAYS * 24 * HOUR_MS) return null;
  if (request.firstAnsweredAt && request.firstAnsweredAt.getTime() <= now.getTime()) return Math.max(0, request.firstAnsweredAt.getTime() - made);
  // Confirmed before first answers were recorded (older rows): answered, but when is unknown.
  if (request.status === 'confirmed' || request.status === 'completed') return null;
  const waitedUntil = request.status === 'pending' ? now.getTime() : Math.min(request.updatedAt.getTime(), now.getTime());
  const waited = waitedUntil - made;
  return waited >= UNANSWERED_COUNTS_AFTER_MS ? waited : null;
}

/** The middle value; for an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function responseTime(requests: readonly RequestTiming[], now: Date): ResponseTime {
  const waits: number[] = [];
  let answered = 0;
  for (const request of requests) {
    const wait = countedWait(request, now);
    if (wait === null) continue;
    waits.push(wait);
    if (request.firstAnsweredAt && request.firstAnsweredAt.getTime() <= now.getTime()) answered++;
  }
  const medianMs = median(waits);
  const enough = waits.length >= MIN_REQUESTS_FOR_RESPONSE_TIME && medianMs !== null;
  return { requests: waits.length, answered, medianMs, hours: enough ? Math.max(1, Math.ceil(medianMs / HOUR_MS)) : null };
}

/** "Usually answers within 3 hours", or null when there are too few requests to say. */
export function responseTimeLine(summary: Pick<ResponseTime, 'hours'>): string | null {
  if (summary.hours === null) return null;
  return `Usually answers within ${summary.hours} ${summary.hours === 1 ? 'hour' : 'hours'}`;
}
