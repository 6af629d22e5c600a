import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { centsToDecimal } from '#lib/money.ts';
import type { Db } from './client.ts';
import { bookings, cities, offers, services, siteMeta, spas, users } from './schema.ts';
import { createTestDb } from './test-db.ts';

let db: Db;
let cleanup: () => void;
let cityId: number;

beforeEach(() => {
  ({ db, cleanup } = createTestDb());
  cityId = db.insert(cities).values({ name: 'Irvine', slug: 'irvine' }).returning().get().id;
});
afterEach(() => cleanup());

const addSpa = (values: Partial<typeof spas.$inferInsert> = {}) =>
  db
    .insert(spas)
    .values({ name: 'Glow', slug: `glow-${Math.random().toString(36).slice(2)}`, cityId, ...values })
    .returning()
    .get();

/** The SQLite error a statement fails with (drizzle wraps some in a DrizzleQueryError). */
function sqliteError(statement: () => unknown): string {
  try {
    statement();
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    return (cause ?? (error as Error)).message;
  }
  return 'no error';
}

const contentVersion = () => db.select().from(siteMeta).get()!.contentVersion;

describe('database rules', () => {
  it('stores only http(s) addresses in the URLs a listing links to', () => {
    for (const column of ['website', 'bookingLink', 'socialFeedUrl', 'videoUrl'] as const) {
      for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', '//evil.example', 'https://']) {
        expect(
          sqliteError(() => addSpa({ [column]: bad })),
          `${column} = ${bad}`,
        ).toMatch(/must start with http/);
      }
      const spa = addSpa({ [column]: 'https://glow.example/book' });
      const changeTo = (value: string) =>
        sqliteError(() =>
          db
            .update(spas)
            .set({ [column]: value })
            .where(eq(spas.id, spa.id))
            .run(),
        );
      expect(changeTo('javascript:alert(1)')).toMatch(/must start with http/);
      expect(changeTo('HTTP://Glow.example')).toBe('no error');
    }
  });

  it('runs in WAL mode with foreign keys on', () => {
    expect(db.$client.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.$client.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('keeps slugs unique', () => {
    addSpa({ slug: 'glow' });
    expect(() => addSpa({ slug: 'glow' })).toThrow(/UNIQUE constraint failed: spas.slug/);
    expect(() => db.insert(cities).values({ name: 'Irvine again', slug: 'irvine' }).run()).toThrow(/UNIQUE/);
  });

  it('refuses a spa in a city that does not exist', () => {
    expect(() => addSpa({ cityId: 9999 })).toThrow(/FOREIGN KEY constraint failed/);
  });

  it('refuses values outside the enums', () => {
    expect(sqliteError(() => db.run(sql`insert into spas (name, slug, city_id, tier) values ('X', 'x', ${cityId}, 'GOLD')`))).toMatch(
      /CHECK constraint failed: spas_tier_check/,
    );
    expect(sqliteError(() => db.run(sql`insert into users (email, role) values ('a@b.c', 'superuser')`))).toMatch(/users_role_check/);
    expect(sqliteError(() => db.run(sql`insert into bookings (name, email, status) values ('A', 'a@b.c', 'lost')`))).toMatch(/bookings_status_check/);
  });

  it('defaults a user to the client role and a booking to pending', () => {
    const user = db.insert(users).values({ email: 'ana@example.com' }).returning().get();
    expect(user.role).toBe('client');
    const booking = db.insert(bookings).values({ name: 'Ana', email: 'ana@example.com' }).returning().get();
    expect(booking.status).toBe('pending');
    expect(booking.createdAt).toBeInstanceOf(Date);
  });

  it('stores money exactly as cents and serves it as a decimal string', () => {
    const spa = addSpa();
    const service = db.insert(services).values({ spaId: spa.id, name: 'HydraFacial', priceCents: 19999, duration: 60, category: 'facial' }).returning().get();
    expect(centsToDecimal(db.select().from(services).where(eq(services.id, service.id)).get()!.priceCents)).toBe('199.99');
    expect(() => db.insert(services).values({ spaId: spa.id, name: 'Free money', priceCents: -1, duration: 30, category: 'facial' }).run()).toThrow(
      /services_price_check/,
    );
    expect(() =>
      db
        .insert(services)
        .values({ spaId: spa.id, name: 'x'.repeat(256), priceCents: 100, duration: 30, category: 'facial' })
        .run(),
    ).toThrow(/services_name_length_check/);
  });

  it('keeps an offer’s savings equal to its two prices', () => {
    const spa = addSpa();
    const offer = { title: 'Deal', slug: 'deal', description: 'Good', cityId, spaId: spa.id };
    expect(() =>
      db
        .insert(offers)
        .values({ ...offer, originalPriceCents: 10000, offerPriceCents: 8000, savingsCents: 5000 })
        .run(),
    ).toThrow(/offers_savings_check/);
    expect(() =>
      db
        .insert(offers)
        .values({ ...offer, originalPriceCents: 8000, offerPriceCents: 10000, savingsCents: -2000 })
        .run(),
    ).toThrow(/offers_prices_check/);
    db.insert(offers)
      .values({ ...offer, originalPriceCents: 10000, offerPriceCents: 8000, savingsCents: 2000 })
      .run();
  });

  it('allows at most 3 active Elite spas per city, on insert and on upgrade', () => {
    for (let i = 0; i < 3; i++) addSpa({ tier: 'ELITE' });
    expect(() => addSpa({ tier: 'ELITE' })).toThrow(/Elite tier is at capacity/);
    const premium = addSpa({ tier: 'PREMIUM' });
    expect(() => db.update(spas).set({ tier: 'ELITE' }).where(eq(spas.id, premium.id)).run()).toThrow(/Elite tier is at capacity/);
    // An inactive Elite spa does not hold a place, and another city has its own three.
    addSpa({ tier: 'ELITE', active: false });
    const other = db.insert(cities).values({ name: 'Anaheim', slug: 'anaheim' }).returning().get();
    addSpa({ tier: 'ELITE', cityId: other.id });
    const eliteHere = db
      .select()
      .from(spas)
      .where(eq(spas.cityId, cityId))
      .all()
      .filter((s) => s.tier === 'ELITE' && s.active);
    expect(eliteHere).toHaveLength(3);
  });

  it('lets an Elite spa be edited without counting against itself', () => {
    const spas3 = [addSpa({ tier: 'ELITE' }), addSpa({ tier: 'ELITE' }), addSpa({ tier: 'ELITE' })];
    db.update(spas).set({ tier: 'ELITE', name: 'Renamed' }).where(eq(spas.id, spas3[0]!.id)).run();
  });

  it('bumps the content version when listed content changes, not for bookings', () => {
    const before = contentVersion();
    const spa = addSpa();
    expect(contentVersion()).toBeGreaterThan(before);
    const afterSpa = contentVersion();
    db.update(spas).set({ description: 'New words' }).where(eq(spas.id, spa.id)).run();
    expect(contentVersion()).toBeGreaterThan(afterSpa);
    const afterEdit = contentVersion();
    db.insert(bookings).values({ name: 'Ana', email: 'ana@example.com', spaId: spa.id }).run();
    expect(contentVersion()).toBe(afterEdit);
  });
});
