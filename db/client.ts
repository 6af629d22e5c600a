// The one way to open the database. Everything (the server, the build, scripts,
// tests) goes through openDatabase so every connection gets the same pragmas.
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import * as schema from './schema.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const open = new Map<string, Db>();

export function openDatabase(path: string): Db {
  const file = path === ':memory:' ? path : resolve(path);
  const existing = open.get(file);
  if (existing) return existing;
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  // WAL lets the build and readers run while the server writes; NORMAL sync in
  // WAL mode survives a killed process (not a power cut), which is the failure
  // we design for. The busy timeout makes concurrent writers wait, not fail.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  keepPreparedStatements(sqlite);
  const db = drizzle(sqlite, { schema }) as Db;
  writeLockFirst(db);
  if (file !== ':memory:') open.set(file, db);
  return db;
}

/** How many statements a connection keeps compiled: every query the app writes, with room for the id lists' lengths. */
export const KEPT_STATEMENTS = 500;

/**
 * drizzle asks better-sqlite3 to compile each query's SQL every time it runs
 * it, and compiling the directory's card query costs more than running it:
 * in a CPU profile of search pages under load, compiling was a tenth of the
 * time. A query built from the same parts is the same SQL with other
 * parameters, so the connection keeps the compiled statements it made last
 * (least recently used go first). drizzle switches a statement to arrays
 * (`raw()`) when it maps the columns itself and never switches it back, so a
 * kept statement that returns rows is handed out in better-sqlite3's default
 * mode, as a new one would be.
 */
function keepPreparedStatements(sqlite: Database.Database): void {
  const compile = sqlite.prepare.bind(sqlite);
  const kept = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = kept.get(source);
    if (statement) {
      kept.delete(source);
      if (statement.reader) statement.raw(false);
    } else {
      statement = compile(source);
      if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
    }
    kept.set(source, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

/**
 * Every transaction takes SQLite's write lock when it begins (BEGIN
 * IMMEDIATE), not at its first write. One begun the default way reads from a
 * snapshot, and if another connection (a second server process, a script,
 * the test runner's fixtures) commits before its first write, that write
 * fails at once with "database is locked": the busy timeout does not apply to
 * a snapshot that is out of date. Begun immediately, it waits its turn
 * instead. The server runs one connection, so its own transactions queue
 * anyway; this costs nothing there. (The transactions that say
 * `behavior: 'immediate'` themselves are the ones whose check and write must
 * not be split: a booking's time, a fee, a checkout.)
 */
function writeLockFirst(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => transaction(work, { behavior: 'immediate', ...config })) as typeof db.transaction;
}

export function closeDatabase(path: string): void {
  const file = resolve(path);
  open.get(file)?.$client.close();
  open.delete(file);
}
