import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { closeDatabase, KEPT_STATEMENTS, openDatabase } from './client.ts';

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

describe('openDatabase transactions', () => {
  it('hold the write lock from the start: a write of another connection in between waits, and the transaction still writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'medspa-client-'));
    const path = join(dir, 'site.db');
    try {
      const db = openDatabase(path);
      db.$client.exec(`create table things (id integer primary key, name text not null); insert into things (name) values ('peel')`);
      // Another process's connection, which gives up at once when the file is locked.
      const other = new Database(path);
      other.pragma('busy_timeout = 0');
      let otherWrote = true;
      db.transaction((tx) => {
        const [thing] = tx.select({ name: things.name }).from(things).where(eq(things.id, 1)).all();
        try {
          other.prepare(`update things set name = 'laser' where id = 1`).run();
        } catch {
          otherWrote = false;
        }
        // Begun the default way, this write would fail ("database is locked"): the other connection committed after this one read.
        tx.update(things)
          .set({ name: `${thing!.name} and facial` })
          .where(eq(things.id, 1))
          .run();
      });
      expect(otherWrote).toBe(false);
      expect(db.select({ name: things.name }).from(things).get()).toEqual({ name: 'peel and facial' });
      other.close();
    } finally {
      closeDatabase(path);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
