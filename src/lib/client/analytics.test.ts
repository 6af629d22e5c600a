import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyticsSessionId, trackEvent, trackPageEvent } from './analytics.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

afterEach(() => vi.unstubAllGlobals());

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

  it('sends page events only to a page-analytics tag that is present', () => {
    expect(() => trackPageEvent('book_now_nav', 'cta')).not.toThrow();
    const gtag = vi.fn();
    vi.stubGlobal('gtag', gtag);
    trackPageEvent('book_now', 'service_card', 'Botox', 12);
    expect(gtag).toHaveBeenCalledWith('event', 'book_now', { event_category: 'service_card', event_label: 'Botox', value: 12 });
  });
});
