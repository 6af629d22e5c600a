// Vitest global setup: one database, migrated and seeded once per run, that
// every test worker starts from (tests/unit-database.ts copies it once per
// worker; a copy takes milliseconds, a seed seconds). Workers run side by
// side and nothing one writes reaches another's database; the files of one
// worker run one after another on its copy, so a test makes its own rows
// (tests/support/tagged-rows.ts) rather than expect a table as seeded, and
// nothing is cleaned up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemo } from '#db/seed.ts';

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'medspa-unit-'));
  const template = join(dir, 'template.db');
  seedDemo(migrateDatabase(template));
  // Closing checkpoints the write-ahead log into the file, so the file alone is the whole database.
  closeDatabase(template);
  // The workers inherit these (tests/unit-database.ts reads them).
  process.env.UNIT_DATABASE_TEMPLATE = template;
  process.env.UNIT_RUN_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
