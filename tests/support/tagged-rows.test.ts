import Database from 'better-sqlite3';
import { like } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { describe, expect, it } from 'vitest';
import { users } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { testTag } from './tagged-rows.ts';
import { insertUser } from './users.ts';

// Why no unit test cleans up what it made: its file writes to a copy of the
// run's seeded database, which the next file never sees.
describe('a test file’s database', () => {
  it('is a copy of the run’s seeded template: what the file makes is in its copy, not in the template', () => {
    const tag = testTag('unit-database');
    insertUser(`${tag}@example.com`);
    const template = process.env.UNIT_DATABASE_TEMPLATE!;
    expect(process.env.DATABASE_PATH).not.toBe(template);
    expect(
      db
        .select()
        .from(users)
        .where(like(users.email, `${tag}%`))
        .all(),
    ).toHaveLength(1);
    const sqlite = new Database(template, { readonly: true, fileMustExist: true });
    try {
      expect(
        drizzle(sqlite)
          .select()
          .from(users)
          .where(like(users.email, `${tag}%`))
          .all(),
      ).toEqual([]);
      // The seed is there: the copy started from it.
      expect(drizzle(sqlite).select().from(users).all().length).toBeGreaterThan(0);
    } finally {
      sqlite.close();
    }
  });

  it('tells tests apart by tag', () => {
    expect(testTag('x')).not.toBe(testTag('x'));
    expect(testTag('owner')).toMatch(/^owner-\d+-[a-z0-9]+$/);
  });
});
