// Migration 0017 turns the old free-text hours into data (issue 24). A
// database is migrated up to 0016, given hours as the listing editor and the
// demo data wrote them, then migrated to the end: what reads as one range a
// day becomes data that agrees with src/lib/opening-hours.ts parseDayText, and
// a week with any day that does not read so is kept whole as a note.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dayLabel, parseDayText, WEEKDAYS } from '#lib/opening-hours.ts';
import { demoSpas } from './demo-data/index.ts';
import { migrationsFolder } from './migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'medspa-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before open times: journal entries 0000-0016. */
function migrationsUpTo(last: number): string {
  const folder = join(dir, `migrations-${last}`);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

type Old = Record<string, string | null>;
const sqlite = new Database(join(dir, 'site.db'));
const db = drizzle(sqlite);
migrate(db, { migrationsFolder: migrationsUpTo(16) });
sqlite.prepare(`insert into cities (name, slug) values ('Irvine', 'irvine')`).run();
const insertSpa = sqlite.prepare(`insert into spas (name, slug, city_id, hours) values (?, ?, 1, ?)`);
const add = (slug: string, hours: Old | null) => insertSpa.run(slug, slug, hours === null ? null : JSON.stringify(hours));

// Every demo spa, with its hours written as the old editor wrote them ('9:00 AM – 6:00 PM', null for closed).
const demoOld = demoSpas.map((spa) => ({
  slug: spa.slug,
  old: spa.openingHours
    ? (Object.fromEntries(WEEKDAYS.map(([day]) => [day, spa.openingHours![day].length ? dayLabel(spa.openingHours![day]) : null])) as Old)
    : null,
}));
for (const { slug, old } of demoOld) add(slug, old);
const week = (overrides: Old): Old => ({ mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null, ...overrides });
add('hyphens', week({ mon: '9:00 AM - 5:00 PM', tue: '10:30 AM – 12:00 PM', sat: '' }));
add('by-appointment', week({ mon: '9:00 AM – 5:00 PM', fri: 'By appointment' }));
add('two-ranges', week({ wed: '9:00 AM – 12:00 PM, 1:00 PM – 5:00 PM' }));
add('backwards', week({ thu: '5:00 PM – 9:00 AM' }));
add('missing-days', { mon: '9:00 AM – 5:00 PM' });

migrate(db, { migrationsFolder });
const row = (slug: string) => {
  const found = sqlite.prepare(`select opening_hours as hours, hours_note as note from spas where slug = ?`).get(slug) as {
    hours: string | null;
    note: string | null;
  };
  return { hours: found.hours === null ? null : (JSON.parse(found.hours) as Record<string, string[][]>), note: found.note };
};

describe('migration 0017: free-text hours to data', () => {
  it('turns every demo spa’s hours into the same data the demo builder makes, with no note', () => {
    const counts = { data: 0, notListed: 0, notes: 0 };
    for (const spa of demoSpas) {
      const migrated = row(spa.slug);
      expect(migrated.hours, spa.slug).toEqual(spa.openingHours);
      expect(migrated.note, spa.slug).toBeNull();
      if (migrated.hours) counts.data++;
      else counts.notListed++;
    }
    expect(counts.data + counts.notListed).toBe(demoSpas.length);
    expect(counts.notListed).toBe(demoSpas.filter((s) => s.openingHours === null).length);
  });

  it('reads hyphens and blank days, as parseDayText does', () => {
    expect(row('hyphens')).toEqual({
      hours: { mon: [['09:00', '17:00']], tue: [['10:30', '12:00']], wed: [], thu: [], fri: [], sat: [], sun: [] },
      note: null,
    });
    expect(row('hyphens').hours!.mon).toEqual(parseDayText('9:00 AM - 5:00 PM'));
    expect(row('missing-days').hours).toEqual({ mon: [['09:00', '17:00']], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] });
  });

  it('keeps a week with a day that does not read as one range as a note, and lists no hours for it', () => {
    expect(row('by-appointment')).toEqual({
      hours: null,
      note: 'Mon: 9:00 AM – 5:00 PM; Tue: Closed; Wed: Closed; Thu: Closed; Fri: By appointment; Sat: Closed; Sun: Closed',
    });
    expect(row('two-ranges').note).toContain('Wed: 9:00 AM – 12:00 PM, 1:00 PM – 5:00 PM');
    expect(row('backwards')).toMatchObject({ hours: null, note: expect.stringContaining('Thu: 5:00 PM – 9:00 AM') });
  });

  it('drops the free-text column and defaults every spa to the request form', () => {
    const columns = (sqlite.prepare(`select name from pragma_table_info('spas')`).all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('hours');
    expect(sqlite.prepare(`select distinct booking_mode as mode from spas`).all()).toEqual([{ mode: 'none' }]);
  });
});
