// What the booking form carries between pages, in session storage: where the
// visit came from (utm_* on the landing page, for the lead) and the service a
// visitor chose with Schedule on a service card. Storage can be blocked
// (private modes, sandboxed frames); then the form simply goes without.

export const VISIT_SOURCE_KEY = 'visit_source';
export const SCHEDULED_SERVICE_KEY = 'booking_service';
/** Fired on document when the booking form has stored a request, so lists of bookings can refresh. */
export const BOOKING_REQUESTED_EVENT = 'booking:requested';

export interface VisitSource {
  source?: string;
  medium?: string;
  campaign?: string;
}

function fromSearch(search: string): VisitSource {
  const params = new URLSearchParams(search);
  const found: VisitSource = {};
  for (const key of ['source', 'medium', 'campaign'] as const) {
    const value = params.get(`utm_${key}`)?.trim();
    if (value) found[key] = value.slice(0, 100);
  }
  return found;
}

/** The current address's utm_* values, else those of the page the visit landed on (see Layout.astro). */
export function readVisitSource(): VisitSource {
  const here = fromSearch(window.location.search);
  if (Object.keys(here).length > 0) return here;
  try {
    const stored = JSON.parse(sessionStorage.getItem(VISIT_SOURCE_KEY) ?? '{}') as unknown;
    if (!stored || typeof stored !== 'object') return {};
    const { source, medium, campaign } = stored as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries({ source, medium, campaign })
        .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
        .map(([key, value]) => [key, value.slice(0, 100)]),
    );
  } catch {
    return {};
  }
}

/** The service a Schedule button chose, once: reading it clears it. */
export function takeScheduledService(): { id: number; label: string } | null {
  try {
    const raw = sessionStorage.getItem(SCHEDULED_SERVICE_KEY);
    sessionStorage.removeItem(SCHEDULED_SERVICE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { id?: unknown; label?: unknown };
    return Number.isSafeInteger(value.id) && (value.id as number) > 0 && typeof value.label === 'string'
      ? { id: value.id as number, label: value.label.slice(0, 200) }
      : null;
  } catch {
    return null;
  }
}
