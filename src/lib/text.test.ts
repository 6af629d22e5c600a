import { describe, expect, it } from 'vitest';
import { displayUrl, platformLabel, possessive, telHref, truncate } from './text.ts';

describe('text helpers', () => {
  it('cuts descriptions at 120 characters', () => {
    const long = 'a'.repeat(119) + ' bcdef';
    expect(truncate(long, 120)).toBe(`${'a'.repeat(119)}…`);
    expect(truncate('short', 120)).toBe('short');
    expect(truncate('x'.repeat(120), 120)).toBe('x'.repeat(120));
    expect(truncate(null, 120)).toBe('');
  });

  it('makes phone links and readable web addresses', () => {
    expect(telHref('(949) 555-0111')).toBe('tel:+19495550111');
    expect(displayUrl('https://www.saltwaterskin.com/')).toBe('saltwaterskin.com');
  });
});

describe('platform names', () => {
  it.each([
    ['tiktok', 'TikTok'],
    ['youtube', 'YouTube'],
    [null, 'Social media'],
  ])('spells platforms their own way: %s as %s', (platform, label) => {
    expect(platformLabel(platform)).toBe(label);
  });
});

describe('possessive', () => {
  it('adds ’s, or only the apostrophe after a final s (issue 26: “Harborlight Aesthetics’s page”)', () => {
    expect(possessive('Glow Spa')).toBe('Glow Spa’s');
    expect(possessive('Harborlight Aesthetics')).toBe('Harborlight Aesthetics’');
    expect(possessive('SKIN LABS ')).toBe('SKIN LABS’');
  });
});
