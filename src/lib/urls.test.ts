import { describe, expect, it } from 'vitest';
import { pagePath } from './urls.ts';

describe('pagePath', () => {
  it('drops the .html of pre-rendered files', () => {
    expect(pagePath(new URL('http://x/privacy-policy.html'))).toBe('/privacy-policy');
    expect(pagePath(new URL('http://x/spas/glow.html'))).toBe('/spas/glow');
    expect(pagePath(new URL('http://x/index.html'))).toBe('/');
    expect(pagePath(new URL('http://x/cities/irvine/'))).toBe('/cities/irvine');
  });

  it('leaves request-time paths alone', () => {
    expect(pagePath(new URL('http://x/'))).toBe('/');
    expect(pagePath(new URL('http://x/search-results'))).toBe('/search-results');
  });
});
