// Applies the committed drizzle-kit migrations. Run by `npm start`, the server,
// the seed and the tests; never from inside the Astro bundle (the migrations
// folder is found relative to this file).
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Db } from './client.ts';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export function migrateDatabase(path: string): Db {
  const db = openDatabase(path);
  migrate(db, { migrationsFolder });
  return db;
}
