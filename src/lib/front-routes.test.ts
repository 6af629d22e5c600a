import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPLOAD_FORM_LIMIT } from '#lib/server/photos/actions.ts';
import { MAX_BODY_BYTES } from '#lib/server/http.ts';
import {
  bodyLimitFor,
  carriesToken,
  DEFAULT_BODY_LIMIT,
  FRONT_CACHED_ROUTES,
  LARGE_BODY_ROUTES,
  LARGEST_BODY,
  largeBodyRoute,
  TOKEN_PATH_PREFIXES,
} from './front-routes.ts';

describe('body caps', () => {
  it('caps every form and JSON body at 64 KiB, the one number the app reads with too, and reads none on GET', () => {
    expect(DEFAULT_BODY_LIMIT).toBe(64 * 1024);
    expect(MAX_BODY_BYTES).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('POST', '/api/bookings')).toBe(64 * 1024);
    expect(bodyLimitFor('POST', '/owner/spas/7')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('GET', '/owner/spas/7/photos')).toBe(0);
  });

  it('makes one exception: POST to a listing photo page may carry a 10 MB picture, as much as the page reads', () => {
    const [upload] = LARGE_BODY_ROUTES;
    expect(upload!.limit).toBeGreaterThan(10 * 1024 * 1024);
    expect(upload!.limit).toBe(UPLOAD_FORM_LIMIT);
    expect(LARGEST_BODY).toBe(upload!.limit);
    expect(bodyLimitFor('POST', '/owner/spas/7/photos')).toBe(upload!.limit);
    expect(bodyLimitFor('POST', '/owner/spas/7/photos?x=1')).toBe(upload!.limit);
    expect(largeBodyRoute('POST', '/owner/spas/7/photos')).toBe(upload);
  });

  it('does not stretch the exception to look-alike paths or other methods', () => {
    for (const url of [
      '/owner/spas/7/photos/x',
      '/owner/spas/7/photosx',
      '/owner/spas/abc/photos',
      '/owner/spas/0/photos',
      '/api/owner/spas/7/photos',
      '//owner/spas/7/photos',
      '/owner/spas/7/../../api/bookings/photos',
    ]) {
      expect(bodyLimitFor('POST', url), url).toBe(DEFAULT_BODY_LIMIT);
    }
    expect(bodyLimitFor('PUT', '/owner/spas/7/photos')).toBe(DEFAULT_BODY_LIMIT);
  });
});

describe('token pages', () => {
  it('are the addresses with a token in the query or under a token path', () => {
    for (const url of ['/auth/confirm?token=abc', '/newsletter/unsubscribe?token=abc', '/bookings/manage/abc', '/reviews/write/abc']) {
      expect(carriesToken(new URL(url, 'http://x')), url).toBe(true);
    }
    for (const url of ['/auth/confirm', '/spas/harborlight-aesthetics', '/bookings', '/reviews/report/3']) {
      expect(carriesToken(new URL(url, 'http://x')), url).toBe(false);
    }
  });

  it('name every page whose route takes a [token] from its path', () => {
    const pages = join(process.cwd(), 'src/pages');
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
    const tokenRoutes = walk(pages)
      .filter((file) => file.includes('[token]'))
      .map((file) => `/${relative(pages, file).split('[token]')[0]}`);
    expect(tokenRoutes.length).toBeGreaterThan(0);
    expect(tokenRoutes.toSorted()).toEqual([...TOKEN_PATH_PREFIXES].toSorted());
  });
});

describe('the answers a front keeps', () => {
  const keptFor = (path: string) => FRONT_CACHED_ROUTES.find((route) => new RegExp(route.path).test(path));

  it('are a spa’s open times for their own max-age, and the search screens for a few seconds', () => {
    expect(keptFor('/api/spas/12/slots')?.privateParam).toBe('booking');
    expect(keptFor('/api/spas/12/slots')?.frontSeconds).toBeUndefined();
    for (const path of ['/search-results', '/client/irvine', '/client/']) expect(keptFor(path)?.frontSeconds, path).toBe(10);
  });

  it('are no other page, and nothing signed in', () => {
    for (const path of [
      '/',
      '/search-results/x',
      '/search-results-old',
      '/spas/harborlight-aesthetics',
      '/member',
      '/api/spas/search',
      '/owner/dashboard',
      '/clients',
    ])
      expect(keptFor(path), path).toBeUndefined();
  });
});
