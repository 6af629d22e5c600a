// Hand-worked fixtures: each wait is written out in hours so the median can be
// checked on paper.
import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '#db/schema.ts';
import { countedWait, median, responseTime, responseTimeLine, type RequestTiming } from './response-time.ts';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-23T18:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * HOUR);

/** A request made `madeHoursAgo`, answered `answeredAfter` hours later (null: never). */
function request(
  madeHoursAgo: number,
  answeredAfter: number | null,
  status: BookingStatus = answeredAfter === null ? 'pending' : 'confirmed',
  updatedHoursAgo = 0,
): RequestTiming {
  const createdAt = hoursAgo(madeHoursAgo);
  return {
    status,
    createdAt,
    firstAnsweredAt: answeredAfter === null ? null : new Date(createdAt.getTime() + answeredAfter * HOUR),
    updatedAt: hoursAgo(updatedHoursAgo),
  };
}

describe('median', () => {
  it('is the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 10])).toBe(3.5);
    expect(median([])).toBeNull();
  });
});

describe('responseTime', () => {
  it('odd count: 1, 2, 3, 8, 30 hours -> median 3 hours', () => {
    const summary = responseTime([request(100, 8), request(90, 1), request(80, 30), request(70, 3), request(60, 2)], NOW);
    expect(summary).toEqual({ requests: 5, answered: 5, medianMs: 3 * HOUR, hours: 3 });
    expect(responseTimeLine(summary)).toBe('Usually answers within 3 hours');
  });

  it('even count: 0.5, 1, 2, 4, 5, 9 hours -> median (2 + 4) / 2 = 3 hours', () => {
    const summary = responseTime([request(200, 9), request(150, 0.5), request(120, 4), request(110, 1), request(100, 5), request(90, 2)], NOW);
    expect(summary.medianMs).toBe(3 * HOUR);
    expect(summary.hours).toBe(3);
  });

  it('rounds the median up to whole hours, at least 1', () => {
    expect(responseTime([request(50, 0.25), request(50, 0.5), request(50, 0.75), request(50, 0.1), request(50, 0.2)], NOW)).toMatchObject({
      medianMs: 0.25 * HOUR,
      hours: 1,
    });
    expect(responseTimeLine({ hours: 1 })).toBe('Usually answers within 1 hour');
    expect(responseTime([request(80, 2.5), request(80, 2.5), request(80, 2.5), request(80, 2.5), request(80, 2.5)], NOW).hours).toBe(3);
  });

  it('says nothing with fewer than 5 counted requests', () => {
    const summary = responseTime([request(100, 1), request(90, 1), request(80, 1), request(70, 1)], NOW);
    expect(summary).toEqual({ requests: 4, answered: 4, medianMs: HOUR, hours: null });
    expect(responseTimeLine(summary)).toBeNull();
  });

  it('counts a request pending for 24 hours or more with its wait so far, and leaves out newer ones', () => {
    // Answered: 1, 2, 3 h. Pending: 40 h and 30 h so far (count), 5 h so far (left out).
    const summary = responseTime([request(100, 1), request(100, 2), request(100, 3), request(40, null), request(30, null), request(5, null)], NOW);
    expect(summary).toEqual({ requests: 5, answered: 3, medianMs: 3 * HOUR, hours: 3 });
    // With one more slow pending request the median moves to (3 + 30) / 2.
    const slower = responseTime([request(100, 1), request(100, 2), request(100, 3), request(40, null), request(30, null), request(50, null)], NOW);
    expect(slower.medianMs).toBe(16.5 * HOUR);
  });

  it('leaves out requests made more than 90 days ago, and counts one made just inside', () => {
    const old = request(90 * 24 + 1, 50);
    const inside = request(90 * 24 - 1, 50);
    expect(countedWait(old, NOW)).toBeNull();
    expect(countedWait(inside, NOW)).toBe(50 * HOUR);
    const summary = responseTime([old, old, old, request(10, 1), request(10, 2), request(10, 3), request(10, 4), inside], NOW);
    expect(summary).toMatchObject({ requests: 5, medianMs: 3 * HOUR });
  });

  it('never takes the client’s cancellation for an answer', () => {
    // Withdrawn by the client 2 hours after asking, unanswered: left out.
    expect(countedWait(request(10, null, 'cancelled', 8), NOW)).toBeNull();
    // Withdrawn after waiting 30 hours unanswered: counts as 30 hours of waiting, not as an answer.
    expect(countedWait(request(40, null, 'cancelled', 10), NOW)).toBe(30 * HOUR);
    const summary = responseTime(
      [request(100, 1), request(100, 1), request(100, 1), request(40, null, 'cancelled', 10), request(40, null, 'cancelled', 39)],
      NOW,
    );
    expect(summary).toEqual({ requests: 4, answered: 3, medianMs: HOUR, hours: null });
  });

  it('leaves out a confirmed request whose first answer was never recorded (older rows)', () => {
    expect(countedWait({ ...request(40, null, 'confirmed'), updatedAt: hoursAgo(1) }, NOW)).toBeNull();
  });

  it('counts a decline by the spa as an answer', () => {
    expect(countedWait(request(20, 6, 'cancelled', 14), NOW)).toBe(6 * HOUR);
  });
});
