import { ANALYTICS_SALT } from 'astro:env/server';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { analyticsEvents } from '#db/schema.ts';
import { parseAnalyticsEvent } from '#lib/analytics-event.ts';
import { acceptEvent, clientAddressOf, EVENT_LIMITS, recordEvent } from './analytics.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';

const octet = () => Math.floor(Math.random() * 256);
const randomAddress = () => `10.${octet()}.${octet()}.${octet()}`;
const rowOf = (id: number) => db.select().from(analyticsEvents).where(eq(analyticsEvents.id, id)).get()!;

describe('client address', () => {
  it('reads the client address, or null when Astro cannot tell', () => {
    expect(clientAddressOf({ clientAddress: '::1' })).toBe('::1');
    const unavailable = {
      get clientAddress(): string {
        throw new Error('clientAddress is not available');
      },
    };
    expect(clientAddressOf(unavailable)).toBeNull();
  });
});

describe('recordEvent', () => {
  it('stores the event with the keyed hash of the address, no user agent and no user from the body', () => {
    const parsed = parseAnalyticsEvent({ eventType: 'click', entityType: 'offer', entityId: 7, metadata: { action: 'book' }, userAgent: 'claimed', userId: 1 });
    const row = rowOf(recordEvent(parsed.data!, { address: '198.51.100.23' }));
    expect(row).toMatchObject({ eventType: 'click', entityType: 'offer', entityId: '7', metadata: { action: 'book' }, userAgent: null, userId: null });
    expect(row.ipHash).toBe(hashClientAddress('198.51.100.23', ANALYTICS_SALT));
    // Not the unkeyed SHA-256 of salt + address the table held before: that one anyone with the default salt could reverse.
    expect(row.ipHash).not.toBe(createHash('sha256').update(ANALYTICS_SALT).update('198.51.100.23').digest('hex'));
    expect(JSON.stringify(row)).not.toContain('198.51.100.23');
  });

  it('stores no hash when the address is unknown, and only the origin of the referrer', () => {
    const parsed = parseAnalyticsEvent({
      eventType: 'view',
      entityType: 'page',
      userAgent: 'Browser/2',
      referrer: 'https://site.example/bookings/manage/abcdefghijklmnopqrstuvwxyz234567',
    });
    const row = rowOf(recordEvent(parsed.data!, { address: null }));
    expect(row.ipHash).toBeNull();
    expect(row.userAgent).toBeNull();
    expect(row.referrer).toBe('https://site.example');
  });
});

describe('acceptEvent', () => {
  const fate = (outcome: ReturnType<typeof acceptEvent>) => (!outcome.ok ? outcome.reason : 'duplicate' in outcome.value ? 'duplicate' : 'stored');
  const click = parseAnalyticsEvent({ eventType: 'click', entityType: 'spa', entityId: 1 }).data!;

  it(`refuses a client's event number ${EVENT_LIMITS.perClientPerMinute + 1} in a minute, and counts clients apart`, () => {
    const address = randomAddress();
    const now = 2_000_000_000_000 + Math.floor(Math.random() * 1e9);
    for (let n = 0; n < EVENT_LIMITS.perClientPerMinute; n++) expect(fate(acceptEvent(click, { address }, now + n))).toBe('stored');
    const refused = acceptEvent(click, { address }, now + 1000);
    expect(refused).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(!refused.ok && refused.retryAfterSeconds).toBe(59);
    expect(fate(acceptEvent(click, { address: randomAddress() }, now + 1000))).toBe('stored');
    expect(fate(acceptEvent(click, { address }, now + 60_001))).toBe('stored');
  });

  it('counts a view once per client and thing per window, whatever session id it claims', () => {
    const address = randomAddress();
    const spa = String(100_000 + Math.floor(Math.random() * 1e6));
    const view = (sessionId: string) => parseAnalyticsEvent({ eventType: 'view', entityType: 'spa', entityId: spa, sessionId }).data!;
    const now = Date.now();
    expect(fate(acceptEvent(view('a'), { address }, now))).toBe('stored');
    expect(fate(acceptEvent(view('b'), { address }, now + 1000))).toBe('duplicate');
    expect(fate(acceptEvent(view('c'), { address: randomAddress() }, now + 1000))).toBe('stored');
    expect(fate(acceptEvent(view('d'), { address }, now + EVENT_LIMITS.viewWindowMs + 1))).toBe('stored');
    const stored = db.select().from(analyticsEvents).where(eq(analyticsEvents.entityId, spa)).all();
    expect(stored).toHaveLength(3);
  });
});
