// Browser analytics (spec 7): events to our own endpoint, fire and forget, and
// outbound clicks to POST /api/clicks. Failures only warn: analytics must never
// break a page. Only one page script imports this module (Analytics.astro), and
// nothing else at run time: islands dispatch an `analytics:track` event instead,
// and the page-analytics tag has its own module (page-events.ts). So the script
// stays one small chunk with no imports, which the build writes into the page
// rather than loading it as files before the first paint (decision 0032).
import type { AnalyticsEventInput } from '../analytics-event.ts';
import type { ClickEventInput } from '../click-event.ts';

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

declare global {
  interface DocumentEventMap {
    /** An event an island reports (BookingForm); the page's analytics script sends it. */
    'analytics:track': CustomEvent<TrackedEvent>;
  }
}

/**
 * The utm_* values of the page the visit landed on (stored by the head snippet
 * in Layout.astro). Read here rather than with readVisitSource (booking.ts):
 * the booking form imports that module, and sharing it would put a chunk back
 * in front of this script.
 */
function visitSource(): { source?: string; medium?: string; campaign?: string } {
  try {
    return JSON.parse(sessionStorage.getItem('visit_source') ?? '{}') as { source?: string; medium?: string; campaign?: string };
  } catch {
    return {};
  }
}

/** The click to record when `event` follows a link marked data-click-kind and data-click-spa; null for any other click. */
export function outboundClickOf(event: Pick<MouseEvent, 'target' | 'type' | 'button'>, path: string): ClickEventInput | null {
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-click-kind][data-click-spa]') : null;
  if (!link) return null;
  // A middle click opens the link; other auxiliary buttons do not.
  if (event.type === 'auxclick' && event.button !== 1) return null;
  const source = visitSource();
  return {
    spaId: Number(link.dataset.clickSpa),
    kind: link.dataset.clickKind as ClickEventInput['kind'],
    page: path,
    sessionId: analyticsSessionId(),
    utmSource: source.source,
    utmMedium: source.medium,
    utmCampaign: source.campaign,
  };
}

/** Sends an outbound click; a beacon outlives the page the link leaves, fetch with keepalive where beacons are refused. */
export function sendOutboundClick(click: ClickEventInput): void {
  const payload = JSON.stringify(click);
  try {
    if (navigator.sendBeacon?.('/api/clicks', new Blob([payload], { type: 'application/json' }))) return;
    void fetch('/api/clicks', {
      method: 'POST',
      keepalive: true,
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: payload,
    }).catch(() => undefined);
  } catch {
    /* recording a click must never stop the link */
  }
}

/** What `whenShown` asks of the browser: `window` on a page, a stand-in in the unit tests. */
export type ShownWindow = Pick<Window, 'addEventListener' | 'setTimeout'> & {
  document: Pick<Document, 'readyState'>;
  requestIdleCallback?: Window['requestIdleCallback'];
  PerformanceObserver?: typeof PerformanceObserver;
};

/**
 * Runs `run` once: when the page has loaded, has shown its first content and
 * the browser is idle, or when the visitor leaves before that. A view sent at
 * once went out beside the page's own stylesheet and pictures, so on a slow
 * phone it competed with the first paint, and Lighthouse counted its request
 * into the largest paint (decision 0032). A page never shown (a tab opened
 * behind) counts when it is closed; keepalive delivers that one.
 */
export function whenShown(run: () => void, win: ShownWindow = window): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  win.addEventListener('pagehide', once, { once: true });
  const whenIdle = () => (win.requestIdleCallback ? win.requestIdleCallback(once, { timeout: 1_000 }) : win.setTimeout(once, 0));
  const afterFirstContent = () => {
    const Observer = win.PerformanceObserver;
    // Browsers without paint timing go by the load alone.
    if (!Observer?.supportedEntryTypes?.includes('paint')) return whenIdle();
    const observer = new Observer((entries) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      whenIdle();
    });
    // buffered: a paint before this point is reported at once.
    observer.observe({ type: 'paint', buffered: true });
  };
  if (win.document.readyState === 'complete') afterFirstContent();
  else win.addEventListener('load', afterFirstContent, { once: true });
}

/**
 * The page's analytics, started once: one "view" for each [data-track-view]
 * element (the spa or offer the page shows) once the page is shown, the
 * outbound clicks of marked links (the links are plain links and work without
 * this), and the events islands dispatch.
 */
export function startPageAnalytics(doc: Document = document, win: ShownWindow = window): void {
  const views = [...doc.querySelectorAll<HTMLElement>('[data-track-view]')].map(({ dataset: { entityType, entityId, tier } }) => ({
    eventType: 'view' as const,
    entityType: entityType as 'spa' | 'offer',
    entityId,
    tier: tier as 'FREE' | 'PREMIUM' | 'ELITE' | undefined,
    source: new URLSearchParams(location.search).get('utm_source') ?? undefined,
  }));
  if (views.length) whenShown(() => views.forEach(trackEvent), win);
  const record = (event: MouseEvent) => {
    const click = outboundClickOf(event, location.pathname);
    if (click) sendOutboundClick(click);
  };
  doc.addEventListener('click', record, { capture: true });
  doc.addEventListener('auxclick', record, { capture: true });
  doc.addEventListener('analytics:track', (event) => trackEvent(event.detail));
}
