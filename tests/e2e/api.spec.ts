// The JSON API's contract (spec 7): status codes, content types, field names and
// types, tier rules, search order and the analytics endpoint's refusals, checked
// against the served site and, where it matters, against the database itself.
import type { APIResponse } from '@playwright/test';
import { and, asc, count, desc, eq, or, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { analyticsEvents, cities, offerServices, services, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';

const DECIMAL = /^\d+\.\d{2}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const weight = { ELITE: 3, PREMIUM: 2, FREE: 1 } as Record<string, number>;

async function jsonOf(response: APIResponse, status: number) {
  expect(response.status(), await response.text()).toBe(status);
  expect(response.headers()['content-type']).toBe('application/json; charset=utf-8');
  return response.json();
}

/** A record's field types as the contract names them: matchers for toMatchObject, to combine with exact values. */
function fieldTypes(types: { numbers?: string[]; strings?: string[]; decimals?: string[]; arrays?: string[] }): Record<string, unknown> {
  const { numbers = [], strings = [], decimals = [], arrays = [] } = types;
  return Object.fromEntries([
    ...numbers.map((field) => [field, expect.any(Number)]),
    ...strings.map((field) => [field, expect.any(String)]),
    ...decimals.map((field) => [field, expect.stringMatching(DECIMAL)]),
    ...arrays.map((field) => [field, expect.any(Array)]),
  ]);
}

/** Spa ids in the spec's order (tier weight, then newest), straight from the database. */
const TIER_ORDER = [desc(sql`case ${spas.tier} when 'ELITE' then 3 when 'PREMIUM' then 2 else 1 end`), desc(spas.createdAt), desc(spas.id)];
/** Active services of active spas. */
const listedServices = and(eq(services.active, true), eq(spas.active, true));

function expectTierOrder(spas: { tier: string; createdAt: string }[]) {
  for (let i = 1; i < spas.length; i++) {
    const [a, b] = [spas[i - 1]!, spas[i]!];
    expect(weight[a.tier]!).toBeGreaterThanOrEqual(weight[b.tier]!);
    if (a.tier === b.tier) expect(Date.parse(a.createdAt)).toBeGreaterThanOrEqual(Date.parse(b.createdAt));
  }
}

test.describe('read API', () => {
  test('GET /api/services lists every active service with decimal prices', async ({ request }) => {
    const listed = await jsonOf(await request.get('/api/services'), 200);
    const { n } = db.select({ n: count() }).from(services).innerJoin(spas, eq(spas.id, services.spaId)).where(listedServices).get()!;
    expect(listed).toHaveLength(n);
    for (const service of listed) {
      expect(service).toMatchObject({
        ...fieldTypes({ numbers: ['id', 'duration', 'spaId'], strings: ['name', 'category'], decimals: ['price'] }),
        active: true,
      });
      expect(service).toHaveProperty('description');
      expect(service).toHaveProperty('imageUrl');
      expect(Number.isInteger(service.duration)).toBe(true);
    }
  });

  test('GET /api/services/{id} answers one service, and 404 for an unknown id or one that is not an id', async ({ request }) => {
    const row = db
      .select({ id: services.id, name: services.name, priceCents: services.priceCents, duration: services.duration, category: services.category })
      .from(services)
      .innerJoin(spas, eq(spas.id, services.spaId))
      .where(and(listedServices, sql`${services.priceCents} % 100 <> 0`))
      .orderBy(asc(services.id))
      .get();
    const service = await jsonOf(await request.get(`/api/services/${row!.id}`), 200);
    expect(service).toMatchObject({
      id: row!.id,
      duration: row!.duration,
      category: row!.category,
      price: `${Math.floor(row!.priceCents / 100)}.${String(row!.priceCents % 100).padStart(2, '0')}`,
    });
    expect(Object.keys(service)).toEqual(expect.arrayContaining(['id', 'name', 'description', 'price', 'duration', 'category']));

    const missing = await jsonOf(await request.get('/api/services/999999'), 404);
    expect(missing.error).toMatchObject({ code: 'not_found', message: expect.any(String) });

    // A bad id is "no such service", the same answer as an unknown one (src/lib/ids.ts).
    for (const id of ['abc', '1.5', '-1', '007', '99999999999999999999']) {
      const bad = await jsonOf(await request.get(`/api/services/${id}`), 404);
      expect(bad.error).toEqual(missing.error);
    }
  });

  test('GET /api/cities lists the active cities with id, name and slug', async ({ request }) => {
    const answered = await jsonOf(await request.get('/api/cities'), 200);
    const rows = db.select({ id: cities.id, slug: cities.slug }).from(cities).where(eq(cities.active, true)).orderBy(asc(cities.id)).all();
    expect(answered.map((c: { id: number; slug: string }) => [c.id, c.slug])).toEqual(rows.map((r) => [r.id, r.slug]));
    for (const city of answered) {
      expect(city).toMatchObject({ ...fieldTypes({ numbers: ['id'], strings: ['name', 'slug'] }), state: 'CA' });
      // A city's own contact columns are not part of the public answer.
      expect(city).not.toHaveProperty('email');
    }
  });

  test('GET /api/spas lists active spas in tier order, with only what each tier allows', async ({ request, listing }) => {
    // Listings of this test's own, so no other test sees their links change.
    const free = listing(null, { tier: 'FREE' });
    const premium = listing(null, { tier: 'PREMIUM' });
    const premiumLink = `https://example.com/book/${randomUUID()}`;
    // A FREE listing with extras in the database must still not show them (rulings: tier rules).
    db.update(spas)
      .set({ bookingLink: 'https://example.com/book', socialFeedUrl: 'https://www.instagram.com/x/', videoUrl: 'https://www.youtube.com/watch?v=x' })
      .where(eq(spas.id, free.id))
      .run();
    db.update(spas).set({ bookingLink: premiumLink }).where(eq(spas.id, premium.id)).run();
    const answered = await jsonOf(await request.get('/api/spas'), 200);
    const ids = db
      .select({ id: spas.id })
      .from(spas)
      .where(eq(spas.active, true))
      .orderBy(...TIER_ORDER)
      .all()
      .map((r) => r.id);
    expect(answered.map((s: { id: number }) => s.id)).toEqual(ids);
    expectTierOrder(answered);

    for (const spa of answered) {
      expect(spa).toMatchObject({
        ...fieldTypes({ numbers: ['id'], strings: ['name', 'slug'] }),
        tier: expect.stringMatching(/^(FREE|PREMIUM|ELITE)$/),
        createdAt: expect.stringMatching(ISO),
        city: { name: expect.any(String), slug: expect.any(String) },
      });
      for (const field of ['imageUrl', 'address', 'description', 'phone', 'website', 'socialFeedUrl', 'bookingLink', 'videoUrl']) {
        expect(spa).toHaveProperty(field);
      }
      if (spa.tier === 'FREE') expect([spa.bookingLink, spa.socialFeedUrl, spa.videoUrl, spa.verified]).toEqual([null, null, null, false]);
      if (spa.tier === 'PREMIUM') expect(spa.videoUrl).toBeNull();
      expect(spa).not.toHaveProperty('stripeCustomerId');
    }
    const byId = new Map(answered.map((s: { id: number }) => [s.id, s]));
    expect(byId.get(free.id)).toMatchObject({ tier: 'FREE', bookingLink: null, socialFeedUrl: null, videoUrl: null });
    // Answered at request time: the change just made is visible.
    expect(byId.get(premium.id)).toMatchObject({ tier: 'PREMIUM', bookingLink: premiumLink });
  });

  test('GET /api/spas/search?city=irvine answers only Irvine spas, in tier order, with paging headers', async ({ request }) => {
    const response = await request.get('/api/spas/search?city=irvine');
    const answered = await jsonOf(response, 200);
    const ids = db
      .select({ id: spas.id })
      .from(spas)
      .innerJoin(cities, eq(cities.id, spas.cityId))
      .where(and(eq(cities.slug, 'irvine'), eq(spas.active, true)))
      .orderBy(...TIER_ORDER)
      .all()
      .map((r) => r.id);
    expect(ids.length).toBeGreaterThan(2);
    expect(answered.map((s: { id: number }) => s.id)).toEqual(ids);
    expect(new Set(answered.map((s: { city: { slug: string } }) => s.city.slug))).toEqual(new Set(['irvine']));
    expect(new Set(answered.map((s: { tier: string }) => s.tier)).size).toBeGreaterThan(1);
    expectTierOrder(answered);
    expect(response.headers()).toMatchObject({ 'x-total-count': String(ids.length), 'x-page': '1', 'x-pages': '1' });
  });

  test('GET /api/spas/search?service=botox answers exactly the spas that have a botox service', async ({ request }) => {
    const expected = db
      .selectDistinct({ id: services.spaId })
      .from(services)
      .innerJoin(spas, eq(spas.id, services.spaId))
      .where(and(listedServices, or(eq(services.treatment, 'botox'), eq(sql`lower(${services.name})`, 'botox'))))
      .all()
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    const first = await request.get('/api/spas/search?service=botox');
    const found: { id: number; tier: string; createdAt: string }[] = await jsonOf(first, 200);
    const pages = Number(first.headers()['x-pages']);
    for (let page = 2; page <= pages; page++) found.push(...(await jsonOf(await request.get(`/api/spas/search?service=botox&page=${page}`), 200)));
    expect(Number(first.headers()['x-total-count'])).toBe(expected.length);
    expect(found.map((s) => s.id).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    expectTierOrder(found);
  });

  test('a malformed search answers 400 naming each field', async ({ request }) => {
    const body = await jsonOf(await request.get('/api/spas/search?city=%3Cscript%3E&tier=gold&page=0'), 400);
    expect(body.error.code).toBe('invalid_request');
    expect(Object.keys(body.error.fields).sort()).toEqual(['city', 'page', 'tier']);
  });

  test('GET /api/offers lists offers with decimal prices, serviceIds, spa and city', async ({ request }) => {
    const offers = await jsonOf(await request.get('/api/offers'), 200);
    expect(offers.length).toBeGreaterThan(0);
    const links = db.select({ offerId: offerServices.offerId, serviceId: offerServices.serviceId }).from(offerServices).all();
    const spaSlugs = new Map(
      db
        .select({ id: spas.id, slug: spas.slug })
        .from(spas)
        .all()
        .map((r) => [r.id, r.slug]),
    );
    for (const offer of offers) {
      expect(offer).toMatchObject({
        ...fieldTypes({
          numbers: ['id', 'spaId', 'cityId'],
          strings: ['title', 'slug'],
          decimals: ['originalPrice', 'offerPrice', 'savings'],
          arrays: ['serviceIds'],
        }),
        spa: { name: expect.any(String), slug: spaSlugs.get(offer.spaId) },
        city: { name: expect.any(String) },
      });
      for (const field of ['description', 'validFrom', 'validTo', 'imageUrl', 'featured']) expect(offer).toHaveProperty(field);
      expect(Math.round(Number(offer.originalPrice) * 100) - Math.round(Number(offer.offerPrice) * 100)).toBe(Math.round(Number(offer.savings) * 100));
      const ids = links.filter((l) => l.offerId === offer.id).map((l) => l.serviceId);
      expect([...offer.serviceIds].sort()).toEqual(ids.sort());
    }
  });
});

test.describe('POST /api/analytics/event', () => {
  const marker = () => `api-spec-${randomUUID()}`;
  /** Rows a request could have stored: by the session id it sent or the User-Agent header it carried. */
  const rowsFor = (mark: string) =>
    db
      .select()
      .from(analyticsEvents)
      .where(or(eq(analyticsEvents.sessionId, mark), eq(analyticsEvents.userAgent, mark)))
      .all();
  const event = (mark: string) => ({
    eventType: 'view',
    entityType: 'spa',
    entityId: 1,
    tier: 'ELITE',
    source: 'api-spec',
    metadata: { action: 'open', position: 2 },
    sessionId: mark,
    userId: 1,
    userAgent: 'Claimed/1.0',
    referrer: 'https://www.google.com/',
    timestamp: new Date().toISOString(),
  });

  test('stores a valid event with a hashed address and answers 202', async ({ request, clientAddress }) => {
    const mark = marker();
    const response = await request.post('/api/analytics/event', {
      headers: { Origin: baseURL, 'User-Agent': 'ApiSpec/1.0' },
      // A view counts once per client and spa per half hour: an id no page has, so other tests' views of spa 1 do not hide this one.
      data: { ...event(mark), entityId: mark },
    });
    expect(await jsonOf(response, 202)).toEqual({ ok: true });

    const rows = rowsFor(mark);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      eventType: 'view',
      entityType: 'spa',
      entityId: mark,
      tier: 'ELITE',
      source: 'api-spec',
      // Nobody reads the user agent: not kept (issue 9, item 7).
      userAgent: null,
      // Only the referrer's origin is kept.
      referrer: 'https://www.google.com',
      // The browser does not get to say who it is.
      userId: null,
    });
    expect(row.metadata).toEqual({ action: 'open', position: 2 });
    expect(row.ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(isIP(row.ipHash!)).toBe(0);
    for (const value of Object.values(row)) expect(JSON.stringify(value) ?? '').not.toMatch(/127\.0\.0\.1|::1\b|localhost/);
    // Nor the address this test sends from (X-Forwarded-For, believed as behind nginx).
    expect(JSON.stringify(row)).not.toContain(clientAddress);
  });

  test('refuses without storing anything', async ({ request }) => {
    const mark = marker();
    const post = (headers: Record<string, string>, body: string | object) =>
      request.post('/api/analytics/event', {
        headers: { 'User-Agent': mark, ...headers },
        // A Buffer goes out byte for byte; a string would be JSON-encoded again.
        data: typeof body === 'string' ? Buffer.from(body) : body,
      });
    const json = { 'Content-Type': 'application/json' };
    expect(rowsFor(mark)).toHaveLength(0);

    const evil = await jsonOf(await post({ ...json, Origin: 'http://evil.example' }, event(mark)), 403);
    expect(evil.error.code).toBe('cross_origin');
    expect((await jsonOf(await post({ ...json, Origin: baseURL }, '{"eventType": "view",'), 400)).error.code).toBe('invalid_json');
    expect((await jsonOf(await post({ 'Content-Type': 'text/plain', Origin: baseURL }, JSON.stringify(event(mark))), 415)).error.code).toBe(
      'unsupported_media_type',
    );
    const tooBig = { ...event(mark), source: 'x'.repeat(5000) };
    expect((await jsonOf(await post({ ...json, Origin: baseURL }, tooBig), 413)).error.code).toBe('payload_too_large');

    const invalid = await jsonOf(
      await post(
        { ...json, Origin: baseURL },
        { ...event(mark), eventType: 'purchase', entityType: 'user', metadata: { nested: { a: 1 } }, timestamp: '2001-01-01T00:00:00Z' },
      ),
      422,
    );
    expect(invalid.error.code).toBe('invalid_request');
    expect(Object.keys(invalid.error.fields).sort()).toEqual(['entityType', 'eventType', 'metadata.nested', 'timestamp']);

    expect(rowsFor(mark)).toHaveLength(0);
  });
});
