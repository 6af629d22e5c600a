// What moves the content version (migration 0019): a change a public page
// shows, and nothing else. Every bump asks the rebuild queue for a whole-site
// build, so a write nobody can see (a listing awaiting review, a hidden one,
// a save that changes nothing) must not bump it (issue 23, item 1).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './client.ts';
import { bookings, cities, clinicians, offers, offerServices, reviews, services, siteMeta, socialMediaCache, spaPhotos, spas } from './schema.ts';
import { createTestDb } from './test-db.ts';

let db: Db;
let cleanup: () => void;
let cityId: number;

beforeEach(() => {
  ({ db, cleanup } = createTestDb());
  cityId = db.insert(cities).values({ name: 'Irvine', slug: 'irvine' }).returning().get().id;
});
afterEach(() => cleanup());

const version = () => db.select().from(siteMeta).get()!.contentVersion;
/** How many times `work` bumped the content version. */
function bumps(work: () => unknown): number {
  const before = version();
  work();
  return version() - before;
}

const addSpa = (values: Partial<typeof spas.$inferInsert> = {}) =>
  db
    .insert(spas)
    .values({ name: 'Glow', slug: `glow-${Math.random().toString(36).slice(2)}`, cityId, ...values })
    .returning()
    .get();
const pending = () => addSpa({ active: false, reviewStatus: 'pending' });
const addService = (spaId: number) =>
  db
    .insert(services)
    .values({ spaId, name: `Facial ${Math.random()}`, priceCents: 9_900, duration: 60, category: 'facial' })
    .returning()
    .get();

describe('a listing', () => {
  it('bumps when a listed spa is added, changed, hidden or deleted', () => {
    let spa!: typeof spas.$inferSelect;
    expect(bumps(() => (spa = addSpa()))).toBe(1);
    expect(bumps(() => db.update(spas).set({ description: 'New words' }).where(eq(spas.id, spa.id)).run())).toBe(1);
    expect(bumps(() => db.update(spas).set({ active: false }).where(eq(spas.id, spa.id)).run())).toBe(1);
    const other = addSpa();
    expect(bumps(() => db.delete(spas).where(eq(spas.id, other.id)).run())).toBe(1);
  });

  it('does not bump for a listing awaiting review, a hidden one or a rejected one, until it goes live', () => {
    let spa!: typeof spas.$inferSelect;
    expect(bumps(() => (spa = pending()))).toBe(0);
    expect(bumps(() => db.update(spas).set({ name: 'Renamed', description: 'Spam', website: 'https://spam.example' }).where(eq(spas.id, spa.id)).run())).toBe(
      0,
    );
    expect(bumps(() => db.update(spas).set({ reviewStatus: 'rejected', reviewNote: 'No' }).where(eq(spas.id, spa.id)).run())).toBe(0);
    expect(bumps(() => db.delete(spas).where(eq(spas.id, spa.id)).run())).toBe(0);

    const approved = pending();
    expect(bumps(() => db.update(spas).set({ reviewStatus: 'approved', active: true }).where(eq(spas.id, approved.id)).run())).toBe(1);
  });

  it('does not bump for a save that changes nothing, nor for columns no page shows', () => {
    const spa = addSpa({ description: 'Same', website: 'https://glow.example' });
    expect(
      bumps(() => db.update(spas).set({ description: 'Same', website: 'https://glow.example', updatedAt: new Date() }).where(eq(spas.id, spa.id)).run()),
    ).toBe(0);
    expect(
      bumps(() =>
        db
          .update(spas)
          .set({ stripeCustomerId: 'cus_1', subscriptionStatus: 'active', claimEmail: 'x@example.com', reviewNote: 'checked' })
          .where(eq(spas.id, spa.id))
          .run(),
      ),
    ).toBe(0);
    // NULL to NULL is no change; NULL to a value is one.
    expect(bumps(() => db.update(spas).set({ videoUrl: null }).where(eq(spas.id, spa.id)).run())).toBe(0);
    expect(bumps(() => db.update(spas).set({ videoUrl: 'https://youtu.be/x' }).where(eq(spas.id, spa.id)).run())).toBe(1);
  });
});

describe('what belongs to a listing', () => {
  it('bumps for a listed spa’s services, photos, offers and clinicians, and not for a pending one’s', () => {
    for (const [spa, expected] of [
      [addSpa(), 1],
      [pending(), 0],
    ] as const) {
      let service!: typeof services.$inferSelect;
      expect(bumps(() => (service = addService(spa.id)))).toBe(expected);
      expect(bumps(() => db.update(services).set({ priceCents: 12_000 }).where(eq(services.id, service.id)).run())).toBe(expected);
      expect(bumps(() => db.update(services).set({ priceCents: 12_000, updatedAt: new Date() }).where(eq(services.id, service.id)).run())).toBe(0);
      expect(bumps(() => db.insert(spaPhotos).values({ spaId: spa.id, url: '/uploads/a.webp' }).run())).toBe(expected);
      let offerId = 0;
      expect(
        bumps(
          () =>
            (offerId = db
              .insert(offers)
              .values({
                spaId: spa.id,
                cityId,
                title: 'Deal',
                slug: `deal-${Math.random()}`,
                description: 'A deal',
                originalPriceCents: 200,
                offerPriceCents: 100,
                savingsCents: 100,
              })
              .returning()
              .get().id),
        ),
      ).toBe(expected);
      expect(bumps(() => db.insert(offerServices).values({ offerId, serviceId: service.id }).run())).toBe(expected);
      expect(bumps(() => db.delete(offerServices).where(eq(offerServices.offerId, offerId)).run())).toBe(expected);
      expect(
        bumps(() =>
          db
            .insert(clinicians)
            .values({ spaId: spa.id, name: 'Dr. A', role: 'MD', licenseNumber: `A${Math.floor(Math.random() * 1e6)}` })
            .run(),
        ),
      ).toBe(expected);
      expect(bumps(() => db.delete(services).where(eq(services.id, service.id)).run())).toBe(expected);
    }
  });

  it('bumps for a social card only when a listed spa shows it', () => {
    const card = (url: string) => ({ url, platform: 'youtube' as const, title: 'A card', fetchedAt: new Date(), expiresAt: new Date(Date.now() + 86_400_000) });
    addSpa({ active: false, reviewStatus: 'pending', socialFeedUrl: 'https://youtube.com/@pending' });
    expect(bumps(() => db.insert(socialMediaCache).values(card('https://youtube.com/@pending')).run())).toBe(0);
    addSpa({ socialFeedUrl: 'https://youtube.com/@listed' });
    expect(bumps(() => db.insert(socialMediaCache).values(card('https://youtube.com/@listed')).run())).toBe(1);
    expect(bumps(() => db.update(socialMediaCache).set({ title: 'A card' }).where(eq(socialMediaCache.url, 'https://youtube.com/@listed')).run())).toBe(0);
  });

  it('bumps for published reviews of a listed spa only', () => {
    const spa = addSpa();
    const booking = (spaId: number) => db.insert(bookings).values({ name: 'Ana', email: 'ana@example.com', spaId, status: 'completed' }).returning().get().id;
    const review = (spaId: number, state: 'published' | 'removed' = 'published') => ({
      bookingId: booking(spaId),
      spaId,
      rating: 5,
      body: 'Lovely visit.',
      authorName: 'Ana',
      visitMonth: '2026-11',
      state,
    });
    let id = 0;
    expect(bumps(() => (id = db.insert(reviews).values(review(spa.id)).returning().get().id))).toBe(1);
    expect(bumps(() => db.update(reviews).set({ reply: 'Thank you' }).where(eq(reviews.id, id)).run())).toBe(1);
    expect(bumps(() => db.update(reviews).set({ state: 'removed', removedReason: 'Fake' }).where(eq(reviews.id, id)).run())).toBe(1);
    expect(bumps(() => db.update(reviews).set({ removedReason: 'Fake, checked' }).where(eq(reviews.id, id)).run())).toBe(0);
    expect(bumps(() => db.insert(reviews).values(review(pending().id)).run())).toBe(0);
  });
});

/**
 * Columns of the tables public pages are built from that no public page
 * shows: changing them alone must not rebuild the site. Every other column is
 * compared by the table's update trigger.
 */
const NOT_PUBLIC: Record<string, string[]> = {
  spas: ['id', 'updated_at', 'review_status', 'review_note', 'owner_id', 'claim_email', 'stripe_customer_id', 'stripe_subscription_id', 'subscription_status'],
  spa_photos: ['id'],
  services: ['id', 'updated_at'],
  offers: ['id'],
  offer_services: [],
  clinicians: ['id', 'updated_at', 'license_checked_by'],
  reviews: ['id', 'removed_reason', 'writer_network'],
  social_media_cache: ['id'],
};

describe('the update triggers', () => {
  it('compare every column of the tables pages show, except those named as not public', () => {
    for (const [table, hidden] of Object.entries(NOT_PUBLIC)) {
      const trigger = db.$client
        .prepare<[string], { sql: string }>("select sql from sqlite_master where type = 'trigger' and name = ?")
        .get(`${table}_content_version_update`);
      expect(trigger, table).toBeDefined();
      const columns = db.$client
        .prepare<[], { name: string }>(`pragma table_info(${table})`)
        .all()
        .map((column) => column.name);
      const unclassified = columns.filter((column) => !hidden.includes(column) && !new RegExp(`\\bNEW\\.${column}\\b`).test(trigger!.sql));
      // A new column: add it to the trigger's comparison (a new migration), or here when no public page shows it.
      expect(unclassified, `${table}: columns neither compared by its content-version trigger nor named as not public`).toEqual([]);
    }
  });
});
