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
  const db = drizzle(sqlite, { schema }) as Db;
  if (file !== ':memory:') open.set(file, db);
  return db;
}

export function closeDatabase(path: string): void {
  const file = resolve(path);
  open.get(file)?.$client.close();
  open.delete(file);
}
