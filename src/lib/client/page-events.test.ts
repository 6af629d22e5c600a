import { afterEach, describe, expect, it, vi } from 'vitest';
import { trackPageEvent } from './page-events.ts';

afterEach(() => vi.unstubAllGlobals());

describe('page events', () => {
  it('go only to a page-analytics tag that is present', () => {
    expect(() => trackPageEvent('book_now_nav', 'cta')).not.toThrow();
    const gtag = vi.fn();
    vi.stubGlobal('gtag', gtag);
    trackPageEvent('book_now', 'service_card', 'Botox', 12);
    expect(gtag).toHaveBeenCalledWith('event', 'book_now', { event_category: 'service_card', event_label: 'Botox', value: 12 });
  });

  it('only warn when the tag throws', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('gtag', () => {
      throw new Error('tag broke');
    });
    expect(() => trackPageEvent('book_now', 'cta')).not.toThrow();
    expect(warn).toHaveBeenCalledWith('analytics: page event not sent', expect.any(Error));
    warn.mockRestore();
  });
});
