import { describe, expect, it } from 'vitest';
import { httpUrl, pagePath } from './urls.ts';

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

describe('httpUrl', () => {
  it('keeps http and https addresses', () => {
    expect(httpUrl('https://harborlight.example/book')).toBe('https://harborlight.example/book');
    expect(httpUrl(' http://spa.example ')).toBe('http://spa.example');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '//evil.example',
    'ftp://spa.example',
    'spa.example',
    'https://',
    '',
    null,
    undefined,
  ])('refuses %s', (value) => {
    expect(httpUrl(value)).toBeNull();
  });
});
