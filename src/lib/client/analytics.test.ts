import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyticsSessionId, outboundClickOf, startPageAnalytics, trackEvent, whenShown, type ShownWindow } from './analytics.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

afterEach(() => vi.unstubAllGlobals());

/** Stands in for a DOM element (the unit tests run without a DOM): `closest` finds the given link, or nothing. */
class FakeElement {
  constructor(private readonly link: unknown) {}
  closest() {
    return this.link;
  }
}
/**
 * Stands in for `window` as whenShown sees it: events fired by hand, timers
 * and idle callbacks run by hand, and (when `paintTiming`) a PerformanceObserver
 * whose first-contentful-paint entry arrives when `paint()` is called.
 */
function fakeWindow({ paintTiming, readyState = 'loading' }: { paintTiming: boolean; readyState?: DocumentReadyState }) {
  const listeners = new Map<string, (() => void)[]>();
  let timers: (() => void)[] = [];
  const observers: { callback: (list: { getEntriesByName: (name: string) => unknown[] }) => void; connected: boolean }[] = [];
  class Observer {
    static supportedEntryTypes = ['paint'];
    private readonly entry;
    constructor(callback: (list: { getEntriesByName: (name: string) => unknown[] }) => void) {
      this.entry = { callback, connected: false };
      observers.push(this.entry);
    }
    observe() {
      this.entry.connected = true;
    }
    disconnect() {
      this.entry.connected = false;
    }
  }
  const win = {
    document: { readyState },
    addEventListener: (type: string, listener: () => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    setTimeout: (callback: () => void) => timers.push(callback),
    requestIdleCallback: paintTiming ? (callback: () => void) => timers.push(callback) : undefined,
    PerformanceObserver: paintTiming ? Observer : undefined,
  } as unknown as ShownWindow;
  const fire = (type: string) => (listeners.get(type) ?? []).forEach((listener) => listener());
  const paint = (name = 'first-contentful-paint') =>
    observers.filter((o) => o.connected).forEach((o) => o.callback({ getEntriesByName: (asked) => (asked === name ? [{ name }] : []) }));
  const runTimers = () => {
    const due = timers;
    timers = [];
    due.forEach((callback) => callback());
  };
  /** Everything that would show the page: the load, the first contentful paint, idle time. */
  const settle = () => {
    fire('load');
    paint();
    runTimers();
  };
  return { win, fire, paint, runTimers, settle };
}

const clickOn = (link: unknown, type = 'click', button = 0) => ({ target: new FakeElement(link) as unknown as EventTarget, type, button });

describe('browser analytics', () => {
  it('keeps one session id in sessionStorage', () => {
    const storage = memoryStorage();
    vi.stubGlobal('sessionStorage', storage);
    const id = analyticsSessionId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(storage.getItem('analytics_session_id')).toBe(id);
    expect(analyticsSessionId()).toBe(id);
  });

  it('still has a session id when sessionStorage is blocked', () => {
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    const id = analyticsSessionId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(analyticsSessionId()).toBe(id);
  });

  it('posts the event with credentials and keepalive, and only warns when it fails', async () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    vi.stubGlobal('navigator', { userAgent: 'Test/1' });
    vi.stubGlobal('document', { referrer: '' });
    const fetch = vi.fn(() => Promise.reject(new TypeError('offline')));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('fetch', fetch);

    trackEvent({ eventType: 'click', entityType: 'spa', entityId: 3 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/analytics/event');
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'include', headers: { 'Content-Type': 'application/json' } });
    const body = JSON.parse(init.body as string);
    expect(body).toMatchObject({ eventType: 'click', entityType: 'spa', entityId: 3, sessionId: analyticsSessionId() });
    // Nobody reads the user agent, so it is not sent.
    expect(body).not.toHaveProperty('userAgent');
    expect(body).not.toHaveProperty('referrer');
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    warn.mockRestore();
  });

  it('sends only the origin of the page before, never its path or query', () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    vi.stubGlobal('document', { referrer: 'https://site.example/bookings/manage/abcdefghijklmnopqrstuvwxyz234567?x=1' });
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
    vi.stubGlobal('fetch', fetch);
    trackEvent({ eventType: 'view', entityType: 'page' });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string).referrer).toBe('https://site.example');
  });

  it('records a click on a marked link with the tab, the page and the visit source; other clicks are not its business', () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    sessionStorage.setItem('visit_source', JSON.stringify({ source: 'newsletter', medium: 'email' }));
    const link = { dataset: { clickSpa: '7', clickKind: 'phone' } };
    vi.stubGlobal('Element', FakeElement);
    expect(outboundClickOf(clickOn(link), '/spas/harborlight-aesthetics')).toEqual({
      spaId: 7,
      kind: 'phone',
      page: '/spas/harborlight-aesthetics',
      sessionId: analyticsSessionId(),
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: undefined,
    });
    // A middle click opens the link; a right click does not.
    expect(outboundClickOf(clickOn(link, 'auxclick', 1), '/')).not.toBeNull();
    expect(outboundClickOf(clickOn(link, 'auxclick', 2), '/')).toBeNull();
    expect(outboundClickOf(clickOn(null), '/')).toBeNull();
    expect(outboundClickOf({ target: null, type: 'click', button: 0 }, '/')).toBeNull();
  });

  it('on a page: a view for each tracked element, a beacon for each marked click, and what islands dispatch', () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    vi.stubGlobal('document', { referrer: '' });
    vi.stubGlobal('location', { search: '?utm_source=google', pathname: '/spas/harborlight-aesthetics' });
    vi.stubGlobal('Element', FakeElement);
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
    vi.stubGlobal('fetch', fetch);
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', { sendBeacon });
    const listeners = new Map<string, (event: unknown) => void>();
    const page = {
      querySelectorAll: () => [{ dataset: { entityType: 'spa', entityId: '3', tier: 'ELITE' } }],
      addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    } as unknown as Document;

    const shown = fakeWindow({ paintTiming: false });
    startPageAnalytics(page, shown.win);
    const sent = () => fetch.mock.calls.map((call) => JSON.parse((call as unknown as [string, RequestInit])[1].body as string));
    // The view waits for the page to load and the browser to be idle.
    expect(sent()).toEqual([]);
    shown.fire('load');
    shown.runTimers();
    expect(sent()).toEqual([expect.objectContaining({ eventType: 'view', entityType: 'spa', entityId: '3', tier: 'ELITE', source: 'google' })]);

    listeners.get('click')!(clickOn({ dataset: { clickSpa: '3', clickKind: 'website' } }));
    const [url, blob] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toBe('/api/clicks');
    expect(blob.type).toBe('application/json');
    listeners.get('auxclick')!(clickOn({ dataset: { clickSpa: '3', clickKind: 'website' } }, 'auxclick', 2));
    expect(sendBeacon).toHaveBeenCalledTimes(1);

    listeners.get('analytics:track')!({
      detail: { eventType: 'booking', entityType: 'spa', entityId: '3', source: 'booking_form', metadata: { action: 'submitted' } },
    });
    expect(sent()[1]).toMatchObject({ eventType: 'booking', entityType: 'spa', entityId: '3', source: 'booking_form', metadata: { action: 'submitted' } });
  });

  describe('whenShown', () => {
    it('waits for the load, then the first contentful paint, then an idle moment, and runs once', () => {
      const run = vi.fn();
      const shown = fakeWindow({ paintTiming: true });
      whenShown(run, shown.win);
      shown.paint();
      shown.runTimers();
      expect(run).not.toHaveBeenCalled();
      shown.fire('load');
      shown.paint('first-paint');
      shown.runTimers();
      expect(run).not.toHaveBeenCalled();
      shown.paint();
      expect(run).not.toHaveBeenCalled();
      shown.runTimers();
      expect(run).toHaveBeenCalledTimes(1);
      shown.fire('pagehide');
      shown.settle();
      expect(run).toHaveBeenCalledTimes(1);
    });

    it('runs at once when the visitor leaves first, and not again later', () => {
      const run = vi.fn();
      const shown = fakeWindow({ paintTiming: true });
      whenShown(run, shown.win);
      shown.fire('pagehide');
      expect(run).toHaveBeenCalledTimes(1);
      shown.settle();
      expect(run).toHaveBeenCalledTimes(1);
    });

    it('on a page already loaded, goes by the paint already seen; without paint timing, by the load alone', () => {
      const loaded = vi.fn();
      const done = fakeWindow({ paintTiming: true, readyState: 'complete' });
      whenShown(loaded, done.win);
      done.paint();
      done.runTimers();
      expect(loaded).toHaveBeenCalledTimes(1);

      const noPaintTiming = vi.fn();
      const older = fakeWindow({ paintTiming: false });
      whenShown(noPaintTiming, older.win);
      older.runTimers();
      expect(noPaintTiming).not.toHaveBeenCalled();
      older.fire('load');
      older.runTimers();
      expect(noPaintTiming).toHaveBeenCalledTimes(1);
    });
  });
});
