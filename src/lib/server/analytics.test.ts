import { ANALYTICS_SALT } from 'astro:env/server';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { analyticsEvents } from '../../../db/schema.ts';
import { parseAnalyticsEvent } from '../analytics-event.ts';
import { clientAddressOf, hashAddress, recordEvent } from './analytics.ts';
import { db } from './db.ts';

describe('address hashing', () => {
  it('is a stable SHA-256 hex that does not contain the address', () => {
    const hash = hashAddress('203.0.113.7', 'salt-a');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAddress('203.0.113.7', 'salt-a')).toBe(hash);
    expect(hash).not.toContain('203.0.113.7');
  });

  it('changes with the address and with the salt', () => {
    const hash = hashAddress('203.0.113.7', 'salt-a');
    expect(hashAddress('203.0.113.8', 'salt-a')).not.toBe(hash);
    expect(hashAddress('203.0.113.7', 'salt-b')).not.toBe(hash);
  });

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
  it('stores the event with the hashed address, the server-side user agent and no user from the body', () => {
    const parsed = parseAnalyticsEvent({ eventType: 'click', entityType: 'offer', entityId: 7, metadata: { action: 'book' }, userAgent: 'claimed', userId: 1 });
    const id = recordEvent(parsed.data!, { address: '198.51.100.23', userAgent: 'Seen/1.0' });
    const row = db.select().from(analyticsEvents).where(eq(analyticsEvents.id, id)).get()!;
    expect(row).toMatchObject({ eventType: 'click', entityType: 'offer', entityId: '7', metadata: { action: 'book' }, userAgent: 'Seen/1.0', userId: null });
    expect(row.ipHash).toBe(hashAddress('198.51.100.23', ANALYTICS_SALT));
    expect(JSON.stringify(row)).not.toContain('198.51.100.23');
  });

  it('stores no hash when the address is unknown, and the body user agent without a header', () => {
    const parsed = parseAnalyticsEvent({ eventType: 'view', entityType: 'page', userAgent: 'Browser/2' });
    const row = db.select().from(analyticsEvents).where(eq(analyticsEvents.id, recordEvent(parsed.data!, { address: null }))).get()!;
    expect(row.ipHash).toBeNull();
    expect(row.userAgent).toBe('Browser/2');
  });
});
