import { sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { KEPT_STATEMENTS, openDatabase } from './client.ts';

const things = sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull() });

function database() {
  const db = openDatabase(':memory:');
  db.$client.exec(`create table things (id integer primary key, name text not null); insert into things (name) values ('peel'), ('facial')`);
  return db;
}

describe('openDatabase keeps compiled statements', () => {
  it('compiles a query once and runs it again with other parameters', () => {
    const db = database();
    const first = db.$client.prepare('select name from things where id = ?');
    expect(db.$client.prepare('select name from things where id = ?')).toBe(first);
    expect(first.get(1)).toEqual({ name: 'peel' });
    expect(first.get(2)).toEqual({ name: 'facial' });
  });

  it('hands a kept statement out answering objects, after drizzle switched it to arrays', () => {
    const db = database();
    const query = db.select({ id: things.id, name: things.name }).from(things).orderBy(things.id);
    // drizzle maps the columns itself: it reads arrays (raw mode) from the statement.
    expect(query.all()).toEqual([
      { id: 1, name: 'peel' },
      { id: 2, name: 'facial' },
    ]);
    // The same SQL without drizzle's mapping takes the same kept statement, and gets rows as objects.
    expect(db.all(sql.raw(query.toSQL().sql))).toEqual([
      { id: 1, name: 'peel' },
      { id: 2, name: 'facial' },
    ]);
  });

  it('keeps the last KEPT_STATEMENTS, the least recently used going first', () => {
    const db = database();
    const oldest = db.$client.prepare('select 0');
    const used = db.$client.prepare('select 1');
    for (let i = 2; i <= KEPT_STATEMENTS; i++) db.$client.prepare(`select ${i}`);
    // Used again, "select 1" is the newest; "select 0" is now the one to go.
    expect(db.$client.prepare('select 1')).toBe(used);
    db.$client.prepare(`select ${KEPT_STATEMENTS + 1}`);
    expect(db.$client.prepare('select 1')).toBe(used);
    expect(db.$client.prepare('select 0')).not.toBe(oldest);
  });

  it('runs writes through kept statements too', () => {
    const db = database();
    db.insert(things).values({ name: 'laser' }).run();
    db.insert(things).values({ name: 'botox' }).run();
    expect(
      db
        .select({ name: things.name })
        .from(things)
        .all()
        .map((row) => row.name),
    ).toEqual(['peel', 'facial', 'laser', 'botox']);
  });
});
