import { eq, getTableName, like } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { bookings, cities, spas, users } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { removeTagged, testTag } from './tagged-rows.ts';
import { insertUser } from './users.ts';

/** A city with an owned spa that has a booking, all marked with the tag. */
function makeTagged(tag: string): number {
  const cityId = db
    .insert(cities)
    .values({ name: `City ${tag}`, slug: `${tag}-city` })
    .returning()
    .get().id;
  const ownerId = insertUser(`${tag}-owner@example.com`, 'owner').id;
  const spaId = db
    .insert(spas)
    .values({ name: `Spa ${tag}`, slug: `${tag}-spa`, cityId, ownerId })
    .returning()
    .get().id;
  db.insert(bookings)
    .values({ spaId, name: 'Ana', email: `${tag}-client@example.com` })
    .run();
  return cityId;
}

const rowsTagged = (table: SQLiteTable, column: SQLiteColumn, tag: string) =>
  db
    .select()
    .from(table)
    .where(like(column, `${tag}%`))
    .all();

describe('removeTagged', () => {
  it('removes what carries the tag, children first, and leaves the rest', () => {
    const tag = testTag('tagged-rows');
    const other = testTag('tagged-rows');
    expect(tag).not.toBe(other);
    makeTagged(tag);
    const kept = makeTagged(other);
    removeTagged(tag);
    for (const [table, column] of [
      [spas, spas.slug],
      [users, users.email],
      [bookings, bookings.email],
      [cities, cities.slug],
    ] as const) {
      expect(rowsTagged(table, column, tag), getTableName(table)).toEqual([]);
    }
    expect(rowsTagged(bookings, bookings.email, other)).toHaveLength(1);
    removeTagged(other);
    expect(db.select().from(cities).where(eq(cities.id, kept)).all()).toEqual([]);
  });
});
