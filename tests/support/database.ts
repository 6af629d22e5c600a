// The one way tests and benchmarks open a site's database file from outside
// the site: read-only unless a fixture means to write, the file must exist
// (a wrong path is an error, not a new empty database), and every opening is
// closed when its work is done, so no test holds a lock the server waits on.
// (The site itself opens its database with db/client.ts openDatabase.)
// Specs reach the e2e run's own database through the project's client (#lib/server/db.ts).
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from '#db/schema.ts';

export type Sqlite = Database.Database;
/** Drizzle's query builder on db/schema.ts, the tables the site's own code uses. */
export type Tables = BetterSQLite3Database<typeof schema>;

/** `write`: open for changes; writers wait up to 5 s for the server's locks. */
export function openDatabaseFile(path: string, { write = false } = {}): Sqlite {
  const db = new Database(path, { readonly: !write, fileMustExist: true });
  if (write) db.pragma('busy_timeout = 5000');
  return db;
}

/** Opens `path`, runs `work` on it, and closes it. */
export function withDatabase<T>(path: string, work: (db: Sqlite) => T, options: { write?: boolean } = {}): T {
  const db = openDatabaseFile(path, options);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/**
 * Opens `path` (another server's database: the run's own is #lib/server/db.ts)
 * for drizzle on db/schema.ts, runs `work`, and closes it: a renamed column
 * then fails the type check, where a SQL string would fail the run.
 */
export const withTablesAt = <T>(path: string, work: (db: Tables) => T, options: { write?: boolean } = {}): T =>
  withDatabase(path, (sqlite) => work(drizzle(sqlite, { schema })), options);
