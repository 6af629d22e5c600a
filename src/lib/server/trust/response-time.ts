// How fast a spa answers, from the stored requests (../response-time.ts has the
// rules). Called at build for the spa page.
import { and, eq, gt, lte, ne } from 'drizzle-orm';
import { bookings } from '#db/schema.ts';
import { RESPONSE_WINDOW_DAYS, responseTime, type ResponseTime } from '#lib/response-time.ts';
import { db } from '../db.ts';

export function responseTimeFor(spaId: number, now: Date = new Date()): ResponseTime {
  const since = new Date(now.getTime() - RESPONSE_WINDOW_DAYS * 24 * 3_600_000);
  const requests = db
    .select({ status: bookings.status, createdAt: bookings.createdAt, firstAnsweredAt: bookings.firstAnsweredAt, updatedAt: bookings.updatedAt })
    .from(bookings)
    // An open time booked instantly was never a request for the spa to answer (issue 24).
    .where(and(eq(bookings.spaId, spaId), gt(bookings.createdAt, since), lte(bookings.createdAt, now), ne(bookings.bookedVia, 'instant')))
    .all();
  return responseTime(requests, now);
}
