// Queries on the site's database: reads to compute what a page should show,
// and writes for fixtures.
import Database from 'better-sqlite3';
import { databasePath } from './env.ts';

export function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(databasePath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export const tierWeight = (tier: string) => (tier === 'ELITE' ? 3 : tier === 'PREMIUM' ? 2 : 1);

/** One statement that changes the database (returning its first row when it has one), for fixtures. */
export function write<T = unknown>(sql: string, ...params: unknown[]): T | undefined {
  const db = new Database(databasePath);
  db.pragma('busy_timeout = 5000');
  try {
    const statement = db.prepare(sql);
    return (statement.reader ? statement.get(...params) : (statement.run(...params), undefined)) as T | undefined;
  } finally {
    db.close();
  }
}
