import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backUp, backupName, backupsToKeep, integrityOf, restore } from './backups.ts';

const at = (iso: string) => backupName(new Date(iso));

describe('backupsToKeep', () => {
  it('keeps the newest of each of the last 7 days and of the last 4 weeks', () => {
    // One backup a night for 60 nights, and two on the newest day.
    const names = Array.from({ length: 60 }, (_, i) => at(new Date(Date.UTC(2026, 10, 23, 10) - i * 86_400_000).toISOString()));
    names.push(at('2026-11-23T04:00:00Z'));
    const keep = backupsToKeep(names);
    const days = [...keep].sort().reverse();
    // 7 daily (Nov 23 ... Nov 17) and the weekly ones beyond them (Nov 16, 9, 2: weeks 1-3 start there).
    expect(days.slice(0, 7)).toEqual(['23', '22', '21', '20', '19', '18', '17'].map((d) => at(`2026-11-${d}T10:00:00Z`)));
    expect(keep.size).toBe(10);
    expect(keep.has(at('2026-11-23T04:00:00Z'))).toBe(false);
    expect(keep.has(at('2026-10-01T10:00:00Z'))).toBe(false);
  });

  it('ignores files that are not backups', () => {
    expect(backupsToKeep(['notes.txt', 'site-2026.db'])).toEqual(new Set());
  });
});

describe('backUp and restore', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies a database that is being written, checks it, and restores it in place', async () => {
    dir = mkdtempSync(join(tmpdir(), 'medspa-backup-'));
    const live = join(dir, 'site.db');
    const db = new Database(live);
    db.pragma('journal_mode = WAL');
    db.exec('create table bookings (id integer primary key, name text)');
    const insert = db.prepare('insert into bookings (name) values (?)');
    for (let i = 0; i < 1000; i++) insert.run(`before ${i}`);

    const result = await backUp(live, join(dir, 'backups'), new Date('2026-11-23T11:00:00Z'));
    for (let i = 0; i < 10; i++) insert.run(`after ${i}`);
    db.close();

    expect(result.file.endsWith('site-20261123-110000.db')).toBe(true);
    expect(integrityOf(result.file)).toBe('ok');
    const { keptOld } = restore(result.file, live);
    expect(keptOld).toBe(`${live}.before-restore`);
    const restored = new Database(live, { readonly: true });
    expect(restored.prepare('select count(*) as n from bookings').get()).toEqual({ n: 1000 });
    restored.close();
  });

  it('refuses a damaged backup and changes nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'medspa-backup-'));
    const live = join(dir, 'site.db');
    const db = new Database(live);
    db.exec('create table t (x)');
    db.close();
    const broken = join(dir, 'site-20261123-110000.db');
    writeFileSync(broken, 'SQLite format 3\0'.padEnd(4096, 'x'));
    expect(() => restore(broken, live)).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['site-20261123-110000.db', 'site.db']);
  });
});
