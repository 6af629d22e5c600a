import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN, slugify, uniqueSlug } from './slug.ts';

describe('slugs', () => {
  it('makes readable, URL-safe slugs', () => {
    expect(slugify('Crème & Co. Aesthetics')).toBe('creme-and-co-aesthetics');
    expect(slugify("  Laguna's   Glow Studio!! ")).toBe('lagunas-glow-studio');
    expect(slugify('Newport Beach')).toBe('newport-beach');
    expect(slugify('---')).toBe('');
  });

  it('always matches the slug pattern', () => {
    for (const text of ['A', 'Dr. Smith MD, FAAD', 'Ünïcödé Spa', 'x'.repeat(200), '100% Glow']) {
      const slug = slugify(text);
      expect(slug, text).toMatch(SLUG_PATTERN);
      expect(slug.length).toBeLessThanOrEqual(80);
    }
  });

  it('numbers a slug that is taken', () => {
    const taken = new Set(['glow', 'glow-2']);
    expect(uniqueSlug('Glow', (s) => taken.has(s))).toBe('glow-3');
    expect(uniqueSlug('Fresh', (s) => taken.has(s))).toBe('fresh');
    expect(uniqueSlug('!!!', () => false)).toBe('item');
  });
});
