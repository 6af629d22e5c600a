// The member home's "Your bookings" follows the form below it (spec 7: a
// successful request refreshes the bookings list). The list is rendered by the
// server (src/pages/member.astro) in one place: after a request this fetches
// the page again and swaps in its fresh list, so there is no second template
// in the browser. Without JavaScript the form's post returns to the page,
// which shows the new request the same way.
import { BOOKING_REQUESTED_EVENT } from './booking.ts';

export const BOOKINGS_REGION_ID = 'member-bookings';

/** Replaces the region with the same region from `html`; false when either is missing. */
export function swapRegion(doc: Document, html: string, id = BOOKINGS_REGION_ID): boolean {
  const current = doc.getElementById(id);
  const fresh = new DOMParser().parseFromString(html, 'text/html').getElementById(id);
  if (!current || !fresh) return false;
  current.replaceWith(doc.importNode(fresh, true));
  return true;
}

export async function refreshBookings(doc: Document = document): Promise<boolean> {
  try {
    const response = await fetch(window.location.pathname, { credentials: 'include', cache: 'no-store', headers: { Accept: 'text/html' } });
    if (!response.ok) return false;
    return swapRegion(doc, await response.text());
  } catch {
    // The list is as it was; the next visit shows the request.
    return false;
  }
}

export function refreshBookingsOnRequest(): void {
  document.addEventListener(BOOKING_REQUESTED_EVENT, () => void refreshBookings());
}
