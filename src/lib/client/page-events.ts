// Page events of spec 7 (navigation/scroll_to_section, cta/book_now_nav...)
// for the page-analytics tag, when a page has one (PageAnalytics.astro). Apart
// from analytics.ts so that the one script importing that stays free of
// shared chunks.

type Gtag = (command: 'event', action: string, params: Record<string, unknown>) => void;

/** Sends a page event to the page-analytics tag when present; only warns when it fails. */
export function trackPageEvent(action: string, category: string, label?: string, value?: number): void {
  const { gtag } = globalThis as typeof globalThis & { gtag?: Gtag };
  if (typeof gtag !== 'function') return;
  try {
    gtag('event', action, { event_category: category, event_label: label, value });
  } catch (error) {
    console.warn('analytics: page event not sent', error);
  }
}
