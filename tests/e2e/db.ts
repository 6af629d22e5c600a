// Read-only queries on the site's database, to compute what a page should show.
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
