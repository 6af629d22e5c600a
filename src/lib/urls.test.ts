import { describe, expect, it } from 'vitest';
import { httpUrl, isCurrentPage, pagePath } from './urls.ts';

describe('pagePath', () => {
  it.each(
    Object.entries({ '/privacy-policy.html': '/privacy-policy', '/spas/glow.html': '/spas/glow', '/index.html': '/', '/cities/irvine/': '/cities/irvine' }),
  )('drops the .html of pre-rendered files: %s is %s', (file, page) => {
    expect(pagePath(new URL(file, 'http://x'))).toBe(page);
  });

  it.each(['/', '/search-results'])('leaves request-time paths alone: %s', (path) => {
    expect(pagePath(new URL(path, 'http://x'))).toBe(path);
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

describe('isCurrentPage', () => {
  it('marks the page a link leads to, and its sub-pages, never a section link', () => {
    expect(isCurrentPage('/services', '/services')).toBe(true);
    expect(isCurrentPage('/', '/')).toBe(true);
    expect(isCurrentPage('/', '/services')).toBe(false);
    expect(isCurrentPage('/#about', '/')).toBe(false);
    expect(isCurrentPage('/offers', '/offers/botox-week')).toBe(true);
  });
});
