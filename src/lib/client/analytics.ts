// Browser analytics (spec 7): events to our own endpoint, fire and forget, and
// page events to a page-analytics tag when the page has one. Failures only warn:
// analytics must never break a page. Only the event's type is imported, so
// this module stays a few hundred bytes.
import type { AnalyticsEventInput } from '../analytics-event.ts';

const SESSION_KEY = 'analytics_session_id';
const ENDPOINT = '/api/analytics/event';

let memorySessionId: string | undefined;

function newId(): string | undefined {
  // randomUUID exists only in secure contexts (https, localhost).
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : undefined;
}

/** One id per browser tab; kept in memory when sessionStorage is blocked (private modes, sandboxed frames). */
export function analyticsSessionId(): string | undefined {
  try {
    const stored = sessionStorage.getItem(SESSION_KEY);
    if (stored) return stored;
    const id = newId();
    if (id) sessionStorage.setItem(SESSION_KEY, id);
    return id;
  } catch {
    memorySessionId ??= newId();
    return memorySessionId;
  }
}

function referrerOriginOf(referrer: string): string | undefined {
  try {
    return referrer ? new URL(referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

export type TrackedEvent = Pick<AnalyticsEventInput, 'eventType' | 'entityType' | 'entityId' | 'tier' | 'source' | 'metadata'>;

export function trackEvent(event: TrackedEvent): void {
  try {
    const body = JSON.stringify({
      ...event,
      sessionId: analyticsSessionId(),
      // The origin only: the page before may have had a token in its address
      // (the server keeps no more than the origin either).
      referrer: referrerOriginOf(document.referrer),
      timestamp: new Date().toISOString(),
    } satisfies AnalyticsEventInput);
    // keepalive lets a click that navigates away still deliver its event.
    fetch(ENDPOINT, { method: 'POST', keepalive: true, credentials: 'include', headers: { 'Content-Type': 'application/json' }, body })
      .then((response) => {
        if (!response.ok) console.warn(`analytics: ${response.status} ${response.statusText}`);
      })
      .catch((error: unknown) => console.warn('analytics: event not sent', error));
  } catch (error) {
    console.warn('analytics: event not sent', error);
  }
}

type Gtag = (command: 'event', action: string, params: Record<string, unknown>) => void;

/** A page event (navigation/scroll_to_section, cta/book_now_nav...) for the page-analytics tag, when present. */
export function trackPageEvent(action: string, category: string, label?: string, value?: number): void {
  const { gtag } = globalThis as typeof globalThis & { gtag?: Gtag };
  if (typeof gtag !== 'function') return;
  try {
    gtag('event', action, { event_category: category, event_label: label, value });
  } catch (error) {
    console.warn('analytics: page event not sent', error);
  }
}
