import { describe, expect, it } from 'vitest';
import { httpUrl, isCurrentPage, pagePath, withWebScheme } from './urls.ts';

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

describe('withWebScheme', () => {
  it.each([
    ['walkthroughglow.example', 'https://walkthroughglow.example'],
    [' www.glow-spa.example/book?x=1 ', 'https://www.glow-spa.example/book?x=1'],
    ['glow.example:8443/path', 'https://glow.example:8443/path'],
  ])('reads the bare host %s as %s', (typed, stored) => {
    expect(withWebScheme(typed)).toBe(stored);
    expect(httpUrl(withWebScheme(typed))).toBe(stored);
  });

  it.each(['https://glow.example', 'http://glow.example', 'javascript:alert(1)', 'ftp://glow.example', '//glow.example', 'localhost', 'not a url', ''])(
    'leaves %s as typed',
    (typed) => {
      expect(withWebScheme(typed)).toBe(typed);
    },
  );
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
