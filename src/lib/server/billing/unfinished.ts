// Card steps left unfinished (no-show protection, docs/decisions/0030): a
// booking that asked for a card or a deposit and did not get it within
// SECURE_WITHIN_MINUTES lapses: cancelled, its time free again, nothing
// charged (a deposit that still arrives later is refunded by the webhook).
// The client was never told of it as booked (the announcement waits for the
// card), so no mail goes out. Takes the database as a parameter (no
// astro:env): housekeeping.ts runs it every few minutes in the one process
// with BACKGROUND_JOBS=on.
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { bookings } from '#db/schema.ts';
import { SECURE_WITHIN_MINUTES } from '#lib/no-show-policy.ts';

/** How often housekeeping looks: a lapsed booking frees its time at most this much after its 30 minutes. */
export const UNFINISHED_CHECK_MS = 5 * 60_000;

export function lapseUnfinishedCardSteps(db: Db, now = Date.now()): number {
  return db
    .update(bookings)
    .set({ status: 'cancelled', secureStatus: 'expired', updatedAt: new Date(now) })
    .where(
      and(
        eq(bookings.secureStatus, 'awaiting'),
        inArray(bookings.status, ['pending', 'confirmed']),
        lt(bookings.createdAt, new Date(now - SECURE_WITHIN_MINUTES * 60_000)),
      ),
    )
    .run().changes;
}
