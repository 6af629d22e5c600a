// How the member home shows a client's bookings (spec 2, Member home; issue
// 26): the price with its unit, what each card offers to do, and which visit
// comes next. Pure, so the page and its tests agree.
import type { BookingStatus } from '#db/schema.ts';
import { appointmentStart } from './booking-lifecycle.ts';
import { centsToDecimal } from './money.ts';

/** "$14.00 per unit", "$150.00", "Complimentary"; a dash without a service. */
export function bookingPriceLabel(service: { priceCents: number; priceUnit?: string | null } | null): string {
  if (!service) return '—';
  if (service.priceCents === 0) return 'Complimentary';
  return `$${centsToDecimal(service.priceCents)}${service.priceUnit ? ` ${service.priceUnit}` : ''}`;
}

/** Only a booking still to happen can be changed or cancelled from its manage page. */
export const canManage = (status: BookingStatus) => status === 'pending' || status === 'confirmed';

interface Dated {
  status: BookingStatus;
  preferredDate: string | null;
  scheduledAt: Date | null;
}

/**
 * The visit to show first: the soonest pending or confirmed booking that has
 * not started (a preferred day counts until that day ends), then one without
 * a date yet; null when there is none.
 */
export function nextVisit<T extends Dated>(bookings: readonly T[], now = new Date()): T | null {
  const DAY_MS = 86_400_000;
  const upcoming = bookings
    .filter((booking) => canManage(booking.status))
    .map((booking) => ({ booking, start: appointmentStart(booking) }))
    .filter(({ booking, start }) => start === null || (booking.scheduledAt ? start.getTime() >= now.getTime() : start.getTime() + DAY_MS > now.getTime()));
  upcoming.sort((a, b) => (a.start?.getTime() ?? Infinity) - (b.start?.getTime() ?? Infinity));
  return upcoming[0]?.booking ?? null;
}
