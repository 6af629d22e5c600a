import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_ENTITY_TYPES, ANALYTICS_EVENT_TYPES } from '#db/schema.ts';
import { ENTITY_TYPES, EVENT_TYPES, parseAnalyticsEvent } from './analytics-event.ts';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const valid = {
  eventType: 'view',
  entityType: 'spa',
  entityId: 12,
  tier: 'ELITE',
  source: 'spa-page',
  metadata: { action: 'open', value: 3, mobile: true },
  sessionId: '0b0a6f1e-9d7c-4c59-9e0a-6a1f8f2b2c11',
  userAgent: 'Mozilla/5.0',
  referrer: 'https://www.google.com/',
  timestamp: '2025-06-01T11:59:30.000Z',
};

/** The fields a failed parse names, with their messages. */
function refused(body: unknown): Record<string, string> {
  const result = parseAnalyticsEvent(body);
  expect(result.success).toBe(false);
  return Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('analytics event', () => {
  it('accepts a full event and normalises it for storage', () => {
    const result = parseAnalyticsEvent(valid);
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      ...valid,
      entityId: '12',
      // Nobody reads the user agent; of the referrer only the origin is kept.
      userAgent: null,
      referrer: 'https://www.google.com',
      timestamp: new Date('2025-06-01T11:59:30.000Z'),
    });
  });

  it('keeps only the origin of the referrer, so a token in its path or query never reaches the table', () => {
    const parse = (referrer: string) => parseAnalyticsEvent({ ...valid, referrer }).data?.referrer;
    expect(parse('https://site.example/bookings/manage/abcdefghijklmnopqrstuvwxyz234567')).toBe('https://site.example');
    expect(parse('https://site.example/newsletter/unsubscribe?token=abcdefghijklmnopqrstuvwxyz234567#x')).toBe('https://site.example');
    expect(parse('http://user:secret@localhost:4321/auth/confirm?token=t')).toBe('http://localhost:4321');
    expect(parse('android-app://com.example/path')).toBeNull();
    expect(parse('not a url at all')).toBeNull();
  });

  it('needs only the event and entity type; the time defaults to now', () => {
    expect(parseAnalyticsEvent({ eventType: 'click', entityType: 'page' }).data).toEqual({
      eventType: 'click',
      entityType: 'page',
      entityId: null,
      tier: null,
      source: null,
      metadata: null,
      sessionId: null,
      userAgent: null,
      referrer: null,
      timestamp: new Date(NOW),
    });
  });

  it('keeps the same values as the table CHECK constraints', () => {
    expect(EVENT_TYPES).toEqual(ANALYTICS_EVENT_TYPES);
    expect(ENTITY_TYPES).toEqual(ANALYTICS_ENTITY_TYPES);
  });

  it('never carries the userId the browser sends', () => {
    const result = parseAnalyticsEvent({ ...valid, userId: 1 });
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty('userId');
  });

  it('refuses an unknown event or entity type', () => {
    expect(refused({ ...valid, eventType: 'purchase' })).toEqual({ eventType: 'Must be view, click, booking or conversion' });
    expect(refused({ ...valid, entityType: 'user' })).toEqual({ entityType: 'Must be spa, page or offer' });
    expect(Object.keys(refused({ entityId: 1 }))).toEqual(['eventType', 'entityType']);
  });

  it('names each invalid field', () => {
    const fields = refused({
      eventType: 'view',
      entityType: 'spa',
      entityId: -1,
      tier: 'gold',
      source: 's'.repeat(101),
      metadata: 'not an object',
      sessionId: 'x'.repeat(101),
      userAgent: 42,
      referrer: 'r'.repeat(2049),
      timestamp: 'yesterday',
    });
    expect(Object.keys(fields).sort()).toEqual(['entityId', 'metadata', 'referrer', 'sessionId', 'source', 'tier', 'timestamp', 'userAgent']);
    expect(fields.sessionId).toBe('Must be at most 100 characters');
    expect(fields.timestamp).toBe('Must be an ISO date-time or epoch milliseconds');
  });

  it('accepts entity ids as text or whole numbers only', () => {
    expect(parseAnalyticsEvent({ ...valid, entityId: 'laguna-glow' }).data?.entityId).toBe('laguna-glow');
    expect(refused({ ...valid, entityId: 1.5 })).toHaveProperty('entityId');
    expect(refused({ ...valid, entityId: '' })).toHaveProperty('entityId');
    expect(refused({ ...valid, entityId: { id: 1 } })).toHaveProperty('entityId');
  });

  it('keeps metadata small: 20 keys, flat values, 2 KB', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(parseAnalyticsEvent({ ...valid, metadata: keys(20) }).success).toBe(true);
    expect(refused({ ...valid, metadata: keys(21) })).toEqual({ metadata: 'Must have at most 20 keys' });
    expect(refused({ ...valid, metadata: { nested: { a: 1 } } })).toHaveProperty(['metadata.nested']);
    expect(refused({ ...valid, metadata: { list: [1, 2] } })).toHaveProperty(['metadata.list']);
    expect(refused({ ...valid, metadata: { empty: null } })).toHaveProperty(['metadata.empty']);
    const big = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'x'.repeat(450)]));
    expect(refused({ ...valid, metadata: big })).toEqual({ metadata: 'Must be at most 2048 bytes as JSON' });
    expect(refused({ ...valid, metadata: [] })).toHaveProperty('metadata');
  });

  it('takes ISO date-times with a zone or epoch milliseconds, within the last day and 5 minutes ahead', () => {
    expect(parseAnalyticsEvent({ ...valid, timestamp: NOW - 1000 }).data?.timestamp).toEqual(new Date(NOW - 1000));
    expect(parseAnalyticsEvent({ ...valid, timestamp: '2025-06-01T05:00:00-07:00' }).data?.timestamp).toEqual(new Date('2025-06-01T12:00:00Z'));
    expect(parseAnalyticsEvent({ ...valid, timestamp: NOW - 24 * 3600_000 }).success).toBe(true);
    expect(parseAnalyticsEvent({ ...valid, timestamp: NOW + 5 * 60_000 }).success).toBe(true);

    const window = 'Must be within the last 24 hours and at most 5 minutes ahead';
    expect(refused({ ...valid, timestamp: NOW - 24 * 3600_000 - 1 })).toEqual({ timestamp: window });
    expect(refused({ ...valid, timestamp: NOW + 5 * 60_000 + 1 })).toEqual({ timestamp: window });
    for (const bad of ['2025-06-01', '2025-06-01T11:00:00', 'June 1, 2025', '', NOW + 0.5, Number.NaN, true]) {
      expect(refused({ ...valid, timestamp: bad })).toEqual({ timestamp: 'Must be an ISO date-time or epoch milliseconds' });
    }
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'view', 3]) expect(parseAnalyticsEvent(body).success).toBe(false);
  });
});
