// Bookings. The read the member home needs lives here now; the booking
// lifecycle (requests, confirmations, cancellations) joins it with its issue.
import { desc, eq } from 'drizzle-orm';
import { bookings, services } from '../../../db/schema.ts';
import { db } from './db.ts';

/** A user's latest bookings with the service embedded (spec 3: name, duration, price). */
export function listUserBookings(userId: number, limit?: number) {
  const query = db
    .select({
      id: bookings.id,
      status: bookings.status,
      preferredDate: bookings.preferredDate,
      createdAt: bookings.createdAt,
      service: { id: services.id, name: services.name, duration: services.duration, priceCents: services.priceCents, priceUnit: services.priceUnit },
    })
    .from(bookings)
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .where(eq(bookings.userId, userId))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  return limit ? query.limit(limit).all() : query.all();
}
