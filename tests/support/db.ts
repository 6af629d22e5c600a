// Queries on the e2e run's database (tests/support/env.ts): reads to compute
// what a page should show, and writes for fixtures. Through the one database
// helper (./database.ts), which also opens other files (a server copy's).
import { databasePath } from './env.ts';
import { queryAt, withDatabase, writeAt, type Sqlite } from './database.ts';

export function query<T>(sql: string, ...params: unknown[]): T[] {
  return queryAt<T>(databasePath, sql, ...params);
}

export const tierWeight = (tier: string) => (tier === 'ELITE' ? 3 : tier === 'PREMIUM' ? 2 : 1);

/** One statement that changes the database (returning its first row when it has one), for fixtures. */
export function write<T = unknown>(sql: string, ...params: unknown[]): T | undefined {
  return writeAt<T>(databasePath, sql, ...params);
}

/** Several statements on one opening (read-only unless `write`). */
export const withE2eDatabase = <T>(work: (db: Sqlite) => T, options: { write?: boolean } = {}): T => withDatabase(databasePath, work, options);
