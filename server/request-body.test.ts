import { describe, expect, it } from 'vitest';
import { UPLOAD_FORM_LIMIT } from '#lib/server/photos/actions.ts';
import { bodyLimitFor, DEFAULT_BODY_LIMIT, PHOTO_UPLOAD_BODY_LIMIT } from './request-body.ts';

describe('bodyLimitFor', () => {
  it('caps every form and JSON body at 64 KiB, and reads none on GET', () => {
    expect(bodyLimitFor('POST', '/api/bookings')).toBe(64 * 1024);
    expect(bodyLimitFor('POST', '/owner/spas/7')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('GET', '/owner/spas/7/photos')).toBe(0);
  });

  it('makes one exception: POST to a listing photo page may carry a 10 MB picture', () => {
    expect(PHOTO_UPLOAD_BODY_LIMIT).toBeGreaterThan(10 * 1024 * 1024);
    // The server's cap and the page's own reading limit are the same number.
    expect(PHOTO_UPLOAD_BODY_LIMIT).toBe(UPLOAD_FORM_LIMIT);
    expect(bodyLimitFor('POST', '/owner/spas/7/photos')).toBe(PHOTO_UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor('POST', '/owner/spas/7/photos?x=1')).toBe(PHOTO_UPLOAD_BODY_LIMIT);
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
