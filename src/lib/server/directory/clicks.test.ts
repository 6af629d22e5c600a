import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, clicks, spas } from '#db/schema.ts';
import { hashClientAddress } from '../client-address.ts';
import { allowClick, CLICKS_PER_MINUTE, recordClick } from './clicks.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';

const TAG = testTag('clicks-test');
const fixture = { premium: 0, free: 0, inactive: 0 };
const context = {
  address: '203.0.113.9',
  userAgent: 'TestBrowser/1.0',
  userId: null,
  referer: 'http://localhost:4321/cities/irvine?x=1',
  origin: 'http://localhost:4321',
};

beforeAll(() => {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  const make = (key: string, values: Partial<typeof spas.$inferInsert>) =>
    db
      .insert(spas)
      .values({
        name: `Click Spa ${key}`,
        slug: `${TAG}-${key}`,
        cityId: city.id,
        address: '1 Main St, Irvine',
        phone: '(949) 555-0199',
        website: 'https://spa.example',
        bookingLink: 'https://book.example',
        ...values,
      })
      .returning({ id: spas.id })
      .get().id;
  fixture.premium = make('premium', { tier: 'PREMIUM' });
  fixture.free = make('free', { tier: 'FREE' });
  fixture.inactive = make('inactive', { tier: 'PREMIUM', active: false });
});

const event = (spaId: number, kind: 'phone' | 'website' | 'booking' | 'directions' | 'social', page: string | null = '/spas/x') => ({
  spaId,
  kind,
  page,
  sessionId: 'tab-1',
  utmSource: 'newsletter',
  utmMedium: null,
  utmCampaign: null,
});

describe('recordClick', () => {
  it('stores the listing’s own target, the page, and the visitor only as a hash', () => {
    const result = recordClick(event(fixture.premium, 'booking'), context);
    expect(result.ok).toBe(true);
    const row = db
      .select()
      .from(clicks)
      .where(eq(clicks.id, (result as { value: { id: number } }).value.id))
      .get()!;
    expect(row).toMatchObject({
      spaId: fixture.premium,
      url: '/spas/x',
      targetUrl: 'https://book.example',
      sessionId: 'tab-1',
      utmSource: 'newsletter',
      userAgent: 'TestBrowser/1.0',
      referer: null,
      userId: null,
    });
    expect(row.ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain('203.0.113.9');
    expect(row.ipHash).toBe(hashClientAddress('203.0.113.9'));
  });

  it('takes the page from the Referer path when the body does not name it', () => {
    const result = recordClick(event(fixture.free, 'phone', null), context);
    const row = db
      .select()
      .from(clicks)
      .where(eq(clicks.id, (result as { value: { id: number } }).value.id))
      .get()!;
    expect(row).toMatchObject({ url: '/cities/irvine', targetUrl: 'tel:+19495550199' });
  });

  it('refuses an unknown or inactive spa (404) and a link the spa does not have or its tier hides (422)', () => {
    expect(recordClick(event(987_654_321, 'phone'), context)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(recordClick(event(fixture.inactive, 'phone'), context)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(recordClick(event(fixture.free, 'booking'), context)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(recordClick(event(fixture.premium, 'social'), context)).toMatchObject({ ok: false, reason: 'invalid' });
  });
});

describe('allowClick', () => {
  it(`lets one client record ${CLICKS_PER_MINUTE} clicks a minute, then refuses until the window ends`, () => {
    const now = Date.now();
    const address = `198.51.100.${Math.floor(Math.random() * 200)}-${TAG}`;
    for (let i = 0; i < CLICKS_PER_MINUTE; i++) expect(allowClick(address, now).ok).toBe(true);
    const refused = allowClick(address, now + 1000);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(allowClick('another-client', now + 1000).ok).toBe(true);
    expect(allowClick(address, now + 61_000).ok).toBe(true);
  });
});
