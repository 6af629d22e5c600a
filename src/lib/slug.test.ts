import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN, slugify, uniqueSlug } from './slug.ts';

describe('slugs', () => {
  it.each([
    { name: 'Crème & Co. Aesthetics', slug: 'creme-and-co-aesthetics' },
    { name: "  Laguna's   Glow Studio!! ", slug: 'lagunas-glow-studio' },
    { name: 'Newport Beach', slug: 'newport-beach' },
    { name: '---', slug: '' },
  ])('makes a readable, URL-safe slug of $name: $slug', ({ name, slug }) => {
    expect(slugify(name)).toBe(slug);
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
