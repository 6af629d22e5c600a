// Makes a database ready to serve: migrated, and seeded with the demo directory
// when it has no spas yet. Used by `npm start`, `npm run dev` and the e2e server.
import type { Db } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { isEmpty, seedDemo, type SeedResult } from './seed.ts';

export function prepareDatabase(path: string): { db: Db; seeded: SeedResult | null } {
  const db = migrateDatabase(path);
  return { db, seeded: isEmpty(db) ? seedDemo(db) : null };
}
