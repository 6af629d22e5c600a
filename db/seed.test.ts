import { sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '#lib/dates.ts';
import type { Db } from './client.ts';
import { bookings, cities, clinicians, offerServices, offers, reviews, SERVICE_CATEGORIES, services, spaPhotos, spas } from './schema.ts';
import { clinicianSchema } from '#lib/licences.ts';
import { isEmpty, seedDemo } from './seed.ts';
import { createTestDb } from './test-db.ts';

const TODAY = '2026-11-22';
const PHOTO_LIMIT = { FREE: 3, PREMIUM: 10, ELITE: 999 } as const;
let db: Db;
let cleanup: () => void;

beforeAll(() => {
  ({ db, cleanup } = createTestDb());
  expect(isEmpty(db)).toBe(true);
  seedDemo(db, TODAY);
});
afterAll(() => cleanup());

const count = (table: SQLiteTable) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(table)
    .get()!.n;

describe('the demo directory', () => {
  it('has the 8 cities of the sitemap', () => {
    expect(
      db
        .select()
        .from(cities)
        .all()
        .map((c) => c.slug),
    ).toEqual(['newport-beach', 'irvine', 'costa-mesa', 'huntington-beach', 'laguna-beach', 'dana-point', 'mission-viejo', 'anaheim']);
    for (const city of db.select().from(cities).all()) {
      expect(city.zipCode).toMatch(/^9\d{4}$/);
      expect(city.description?.length).toBeGreaterThan(40);
    }
  });

  it('has at least 48 spas across every tier, at most 3 Elite per city', () => {
    expect(count(spas)).toBeGreaterThanOrEqual(48);
    const byTier = db
      .select({ tier: spas.tier, n: sql<number>`count(*)` })
      .from(spas)
      .groupBy(spas.tier)
      .all();
    expect(byTier.map((row) => row.tier).sort()).toEqual(['ELITE', 'FREE', 'PREMIUM']);
    const elitePerCity = db
      .select({ cityId: spas.cityId, n: sql<number>`count(*)` })
      .from(spas)
      .where(sql`${spas.tier} = 'ELITE'`)
      .groupBy(spas.cityId)
      .all();
    for (const row of elitePerCity) expect(row.n).toBeLessThanOrEqual(3);
  });

  it('gives tier features only to the tiers that have them', () => {
    for (const spa of db.select().from(spas).all()) {
      if (spa.tier === 'FREE') {
        expect(spa.bookingLink, spa.slug).toBeNull();
        expect(spa.socialFeedUrl, spa.slug).toBeNull();
        expect(spa.videoUrl, spa.slug).toBeNull();
        expect(spa.featured, spa.slug).toBe(false);
      }
      if (spa.tier !== 'ELITE') expect(spa.videoUrl, spa.slug).toBeNull();
      const photos = db
        .select()
        .from(spaPhotos)
        .where(sql`${spaPhotos.spaId} = ${spa.id}`)
        .all();
      expect(photos.length, spa.slug).toBeLessThanOrEqual(PHOTO_LIMIT[spa.tier]);
      expect(photos.length, spa.slug).toBeGreaterThan(0);
    }
  });

  it('has at least 150 services covering every category, with complimentary consultations', () => {
    expect(count(services)).toBeGreaterThanOrEqual(150);
    const categories = new Set(
      db
        .select({ c: services.category })
        .from(services)
        .all()
        .map((r) => r.c),
    );
    for (const category of SERVICE_CATEGORIES) expect(categories, category).toContain(category);
    const complimentary = db
      .select()
      .from(services)
      .where(sql`${services.priceCents} = 0 and lower(${services.name}) like '%consultation%'`)
      .all();
    expect(complimentary.length).toBeGreaterThanOrEqual(10);
  });

  it('has at least 30 offers: featured, expired and open-ended ones', () => {
    const all = db.select().from(offers).all();
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.some((o) => o.featured)).toBe(true);
    expect(all.filter((o) => o.validTo !== null && o.validTo < TODAY).length).toBeGreaterThanOrEqual(3);
    expect(all.filter((o) => o.validTo === null).length).toBeGreaterThanOrEqual(3);
    expect(all.some((o) => o.validTo !== null && o.validTo >= addDays(TODAY, 1))).toBe(true);
    for (const offer of all) {
      expect(offer.offerPriceCents).toBeLessThan(offer.originalPriceCents);
      const linked = db
        .select()
        .from(offerServices)
        .where(sql`${offerServices.offerId} = ${offer.id}`)
        .all();
      expect(linked.length, offer.slug).toBeGreaterThan(0);
    }
  });

  it('lists clinicians with well-formed licences, and reviews only behind completed bookings', () => {
    const listed = db.select().from(clinicians).all();
    expect(listed.length).toBeGreaterThanOrEqual(5);
    for (const c of listed) expect(clinicianSchema.safeParse(c).success, c.name).toBe(true);
    expect(listed.some((c) => c.licenseCheckedAt)).toBe(true);
    expect(listed.some((c) => !c.licenseCheckedAt)).toBe(true);
    const rows = db
      .select({ rating: reviews.rating, status: bookings.status, reviewSpa: reviews.spaId, bookingSpa: bookings.spaId, month: reviews.visitMonth })
      .from(reviews)
      .innerJoin(bookings, sql`${bookings.id} = ${reviews.bookingId}`)
      .all();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      expect(row.status).toBe('completed');
      expect(row.reviewSpa).toBe(row.bookingSpa);
      expect(row.month).toMatch(/^2026-(09|10|11)$/);
    }
  });

  it('uses only images that ship in the repository', async () => {
    const { existsSync } = await import('node:fs');
    const urls = [
      ...db.select({ u: spas.imageUrl }).from(spas).all(),
      ...db.select({ u: cities.imageUrl }).from(cities).all(),
      ...db.select({ u: offers.imageUrl }).from(offers).all(),
      ...db.select({ u: spaPhotos.url }).from(spaPhotos).all(),
    ].map((row) => row.u);
    for (const url of urls) {
      expect(url, 'no hot-linked images').toMatch(/^\/images\//);
      expect(existsSync(`public${url}`), url!).toBe(true);
    }
  });

  it('is idempotent: seeding again changes no row', () => {
    const snapshot = () => ({
      spas: db.select().from(spas).all(),
      services: db.select().from(services).all(),
      offers: db.select().from(offers).all(),
      cities: db.select().from(cities).all(),
      photos: db.select({ spaId: spaPhotos.spaId, url: spaPhotos.url, position: spaPhotos.position }).from(spaPhotos).all(),
      clinicians: db.select().from(clinicians).all(),
      reviews: db.select().from(reviews).all(),
      bookings: db.select().from(bookings).all(),
    });
    const before = snapshot();
    seedDemo(db, TODAY);
    const after = snapshot();
    expect(after.spas).toEqual(before.spas);
    expect(after.services).toEqual(before.services);
    expect(after.offers).toEqual(before.offers);
    expect(after.cities).toEqual(before.cities);
    expect(after.photos).toEqual(before.photos);
    expect(after.clinicians.map(({ updatedAt: _, ...c }) => c)).toEqual(before.clinicians.map(({ updatedAt: _, ...c }) => c));
    expect(after.reviews).toEqual(before.reviews);
    expect(after.bookings).toEqual(before.bookings);
  });
});
