// What the benchmarks read from a site's database to arrange their load: through
// drizzle on db/schema.ts, as the specs do, so a renamed column fails the type check.
import { eq } from 'drizzle-orm';
import { services } from '#db/schema.ts';
import { withTablesAt } from '#tests/support/database.ts';

/** The ids of the treatments on offer in the database at `path`: what the load clients book. */
export const activeServiceIds = (path: string): number[] =>
  withTablesAt(path, (db) => db.select({ id: services.id }).from(services).where(eq(services.active, true)).all()).map((row) => row.id);
