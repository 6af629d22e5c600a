// The content module holds the words and prices an editor may change (rulings,
// Content): its defaults are the spec's, and components read them from here
// instead of repeating them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as site from './site.ts';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.(astro|tsx)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );

describe('content module defaults (spec 1, 2, 9)', () => {
  it('has the package promo: $650, was $825, save $175', () => {
    expect(site.packagePromo).toMatchObject({ priceCents: 65_000, wasCents: 82_500 });
    expect(site.packagePromo.wasCents - site.packagePromo.priceCents).toBe(17_500);
  });

  it('has the plan prices: Premium $97 a month or $970 a year, Elite $197 or $1,970', () => {
    expect(site.plans.PREMIUM).toMatchObject({ name: 'Premium', monthlyCents: 9_700, yearlyCents: 97_000 });
    expect(site.plans.ELITE).toMatchObject({ name: 'Elite', monthlyCents: 19_700, yearlyCents: 197_000 });
    expect(site.plans.annualBadge).toBe('Save 20%');
  });

  it('has the brand line, the stat labels and the owner pitch', () => {
    expect(site.brand.tagline.toLowerCase()).toContain('premier medical spa destination');
    expect(site.claims.monthlySearchesLabel).toBeTruthy();
    expect(site.claims.leadQualityLabel).toBeTruthy();
    expect(site.ownerPitch.cta).toBe('Explore Plans');
  });
});

describe('components and pages', () => {
  const sources = files('src').filter((file) => !file.includes('content/'));
  const hardCoded = [/\$(650|825|175|97|197|970|1,970)\b/, />\s*Monthly searches\s*</, />\s*Lead quality\s*</, /Grow your practice/, /The Radiance Package/];

  it('take copy and prices from the content module instead of repeating them', () => {
    const found = sources.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return hardCoded.filter((pattern) => pattern.test(text)).map((pattern) => `${file}: ${pattern}`);
    });
    expect(found).toEqual([]);
  });
});
