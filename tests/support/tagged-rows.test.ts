import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, cities, spas, users } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { removeTagged, testTag } from './tagged-rows.ts';

describe('removeTagged', () => {
  it('removes what carries the tag, children first, and leaves the rest', () => {
    const tag = testTag('tagged-rows');
    const other = testTag('tagged-rows');
    expect(tag).not.toBe(other);
    const make = (t: string) => {
      const cityId = db
        .insert(cities)
        .values({ name: `City ${t}`, slug: `${t}-city` })
        .returning()
        .get().id;
      const ownerId = db
        .insert(users)
        .values({ email: `${t}-owner@example.com`, role: 'owner' })
        .returning()
        .get().id;
      const spaId = db
        .insert(spas)
        .values({ name: `Spa ${t}`, slug: `${t}-spa`, cityId, ownerId })
        .returning()
        .get().id;
      db.insert(bookings)
        .values({ spaId, name: 'Ana', email: `${t}-client@example.com` })
        .run();
      return cityId;
    };
    make(tag);
    const kept = make(other);
    removeTagged(tag);
    expect(
      db
        .select()
        .from(spas)
        .where(like(spas.slug, `${tag}%`))
        .all(),
    ).toEqual([]);
    expect(
      db
        .select()
        .from(users)
        .where(like(users.email, `${tag}%`))
        .all(),
    ).toEqual([]);
    expect(
      db
        .select()
        .from(bookings)
        .where(like(bookings.email, `${tag}%`))
        .all(),
    ).toEqual([]);
    expect(
      db
        .select()
        .from(cities)
        .where(like(cities.slug, `${tag}%`))
        .all(),
    ).toEqual([]);
    expect(
      db
        .select()
        .from(bookings)
        .where(like(bookings.email, `${other}%`))
        .all(),
    ).toHaveLength(1);
    removeTagged(other);
    expect(db.select().from(cities).where(eq(cities.id, kept)).all()).toEqual([]);
  });
});
