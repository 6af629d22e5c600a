import { describe, expect, it } from 'vitest';
import { normalTarget, targetUrl } from './targets.ts';

describe('normalTarget', () => {
  it('leaves an address in normal form alone', () => {
    for (const target of ['/', '/spas/harborlight-aesthetics', '/search-results?service=botox&city=irvine', '/_astro/a.b.css', '/?x=//evil.example/']) {
      expect(normalTarget(target), target).toBeNull();
    }
  });

  it('sends a trailing slash, doubled slashes and dot segments to the normal form, with the query', () => {
    expect(normalTarget('/spas/')).toBe('/spas');
    expect(normalTarget('/cities/irvine/?page=2')).toBe('/cities/irvine?page=2');
    expect(normalTarget('/cities//irvine')).toBe('/cities/irvine');
    expect(normalTarget('/a/./b/../c')).toBe('/a/c');
    expect(normalTarget('/a/%2e%2e/c')).toBe('/c');
  });

  it('never answers with an address a raw client reads as another host', () => {
    for (const target of [
      '//evil.example/../spas/',
      '//evil.example/',
      '/\\evil.example/',
      '/\\/evil.example',
      '///evil.example//x',
      '/.//evil.example',
      '/%2e//evil.example',
    ]) {
      const normal = normalTarget(target) ?? target;
      expect(normal, target).toMatch(/^\/(?![/\\])/);
      expect(new URL(normal, 'https://ocmedspa.example').origin, target).toBe('https://ocmedspa.example');
    }
    expect(normalTarget('//evil.example/../spas/')).toBe('/spas');
  });
});

describe('targetUrl', () => {
  it('reads every target as a path on this site', () => {
    expect(targetUrl('//evil.example/x?y=1', 'http://127.0.0.1:4321')).toMatchObject({ host: '127.0.0.1:4321', pathname: '//evil.example/x', search: '?y=1' });
    expect(targetUrl('*', 'http://127.0.0.1:4321').pathname).toBe('/*');
  });
});
