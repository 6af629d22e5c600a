// A fresh, migrated database in its own temporary folder, for one test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, type Db } from './client.ts';
import { migrateDatabase } from './migrate.ts';

export function createTestDb(): { db: Db; path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'medspa-db-'));
  const path = join(dir, 'test.db');
  const db = migrateDatabase(path);
  return {
    db,
    path,
    cleanup: () => {
      closeDatabase(path);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
