// Vitest global setup: each run gets its own database file, migrated and seeded,
// for code that reads the server's database handle (src/lib/server/db.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemo } from '#db/seed.ts';

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'medspa-unit-'));
  const path = join(dir, 'site.db');
  process.env.DATABASE_PATH = path;
  seedDemo(migrateDatabase(path));
  closeDatabase(path);
  return () => rmSync(dir, { recursive: true, force: true });
}
