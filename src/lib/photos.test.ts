import { describe, expect, it } from 'vitest';
import { canonicalUrl, parseUploadUrl, pictureSources, uploadContentType, variantPaths, widthsFor } from './photos.ts';

const hash = '0123456789abcdef01234567';

describe('uploaded picture URLs', () => {
  it('names the largest WebP and carries its size, so a page needs no query', () => {
    const url = canonicalUrl({ kind: 'photos', hash, width: 1200, height: 800 });
    expect(url).toBe(`/uploads/photos/${hash}-1200x800.webp`);
    expect(parseUploadUrl(url)).toEqual({ kind: 'photos', hash, width: 1200, height: 800 });
  });

  it('lists AVIF before WebP, in every stored width, with the true size on the img', () => {
    const picture = pictureSources(`/uploads/photos/${hash}-1200x800.webp`)!;
    expect(picture.width).toBe(1200);
    expect(picture.height).toBe(800);
    expect(picture.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(picture.sources[0]!.srcset).toBe(
      `/uploads/photos/${hash}-400.avif 400w, /uploads/photos/${hash}-800.avif 800w, /uploads/photos/${hash}-1200x800.avif 1200w`,
    );
  });

  it('stores only the widths below the picture, never enlarging it', () => {
    expect(widthsFor(1200)).toEqual([400, 800, 1200]);
    expect(widthsFor(640)).toEqual([400, 640]);
    expect(widthsFor(300)).toEqual([300]);
    expect(variantPaths({ kind: 'social', hash, width: 640, height: 360 })).toEqual([
      `social/${hash}-400.avif`,
      `social/${hash}-400.webp`,
      `social/${hash}-640x360.avif`,
      `social/${hash}-640x360.webp`,
    ]);
  });

  it('leaves demo images and anything else alone', () => {
    for (const url of [
      '/images/spas/spa-01.svg',
      'https://example.com/x.webp',
      `/uploads/photos/${hash}-1200x800.jpg`,
      `/uploads/other/${hash}-1200x800.webp`,
      `/uploads/photos/../${hash}-1x1.webp`,
      null,
      undefined,
    ]) {
      expect(pictureSources(url), String(url)).toBeNull();
    }
  });

  it('serves only names the pipeline writes', () => {
    expect(uploadContentType(`${hash}-400.avif`)).toBe('image/avif');
    expect(uploadContentType(`${hash}-1200x800.webp`)).toBe('image/webp');
    for (const name of ['../site.db', `${hash}-400.svg`, `${hash}-400.webp.partial`, '.htaccess', `${hash.toUpperCase()}-400.webp`])
      expect(uploadContentType(name), name).toBeNull();
  });
});
