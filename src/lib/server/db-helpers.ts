// Pieces the server's queries share. No database handle is imported here: the
// background jobs (housekeeping.ts), which read no astro:env, use them too; a
// helper that reads takes the handle as its first argument.
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '#db/client.ts';
import { spas, users } from '#db/schema.ts';

/**
 * Where a spa's mail goes: its owner's address, else the one on the listing.
 * A query selecting it joins the owner: .leftJoin(users, eq(spas.ownerId, users.id)).
 */
export const spaInbox = sql<string | null>`coalesce(${users.email}, ${spas.email})`;

/** The named columns of a table, for a select that wants them under their own names. */
export function columnsOf<T extends SQLiteTable, K extends keyof T['_']['columns'] & string>(table: T, ...names: K[]): Pick<T['_']['columns'], K> {
  const columns = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, columns[name]])) as Pick<T['_']['columns'], K>;
}

/** A table whose rows each belong to one spa (services, photos, clinicians, reviews, offers). */
type SpaRows = SQLiteTable & { id: SQLiteColumn; spaId: SQLiteColumn };

/** Row `id` of the table, if it is one of spa `spaId`'s: an id from a form never reaches another spa's row. */
export function ofSpa(table: SpaRows, id: number, spaId: number): SQL {
  return and(eq(table.id, id), eq(table.spaId, spaId))!;
}

/** The spa's row `id`, or null for no id, a missing row or another spa's. */
export function findOfSpa<T extends SpaRows>(db: Db, table: T, spaId: number, id: number | null): T['$inferSelect'] | null {
  if (id === null) return null;
  const row: T['$inferSelect'] | undefined = db
    .select()
    .from(table)
    .where(ofSpa(table, id, spaId))
    .get();
  return row ?? null;
}
