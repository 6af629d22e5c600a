// Unit tests share one database per run (vitest's setup). Each test file marks
// what it makes with a tag at the start of its slugs and e-mail addresses, so
// it can remove exactly that afterwards, whatever other files are doing.
import { inArray, like, sql } from 'drizzle-orm';
import { bookingPayments, bookings, cities, leads, mailQueue, spas, users } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';

/** A tag no other test file (or earlier run) has: `name-<time>-<random>`. */
export const testTag = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Deletes the tagged leads, bookings (with their money ledger rows), queued mail, spas (with what hangs off
 * them), cities and users, children first. Rows a test made in other tables
 * that point at these go before this is called.
 */
export function removeTagged(tag: string): void {
  const prefix = `${tag}%`;
  db.delete(leads).where(like(leads.email, prefix)).run();
  // The money ledger keeps its bookings (ON DELETE RESTRICT): a test's rows go first.
  db.delete(bookingPayments)
    .where(inArray(bookingPayments.bookingId, db.select({ id: bookings.id }).from(bookings).where(like(bookings.email, prefix))))
    .run();
  db.delete(bookings).where(like(bookings.email, prefix)).run();
  db.delete(mailQueue)
    .where(like(sql`json_extract(${mailQueue.message}, '$.to')`, prefix))
    .run();
  db.delete(spas).where(like(spas.slug, prefix)).run();
  db.delete(cities).where(like(cities.slug, prefix)).run();
  db.delete(users).where(like(users.email, prefix)).run();
}
