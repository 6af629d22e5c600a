import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { spas } from '#db/schema.ts';
import { db } from '../db.ts';
import { listFeaturedSpas } from './directory.ts';

const WEIGHT = { ELITE: 3, PREMIUM: 2, FREE: 1 } as const;

describe('listFeaturedSpas (spec 2, Services: up to 6 featured spas, Premium and Elite only, tier then newest)', () => {
  it('takes every active Premium and Elite spa, whether or not it carries the featured flag', () => {
    const expected = db
      .select({ id: spas.id, tier: spas.tier, createdAt: spas.createdAt, featured: spas.featured })
      .from(spas)
      .where(and(eq(spas.active, true), inArray(spas.tier, ['PREMIUM', 'ELITE'])))
      .all()
      .sort((a, b) => WEIGHT[b.tier] - WEIGHT[a.tier] || b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .slice(0, 6);
    // The demo data has an unflagged Elite spa newer than flagged ones: it belongs here.
    expect(expected.some((spa) => !spa.featured)).toBe(true);
    expect(listFeaturedSpas(6).map((spa) => spa.id)).toEqual(expected.map((spa) => spa.id));
  });

  it('never shows a Free or an inactive spa, and honours the limit', () => {
    const all = listFeaturedSpas(1000);
    expect(all.length).toBeGreaterThan(6);
    expect(all.every((spa) => spa.tier !== 'FREE')).toBe(true);
    const inactive = new Set(
      db
        .select({ id: spas.id })
        .from(spas)
        .where(eq(spas.active, false))
        .all()
        .map((row) => row.id),
    );
    expect(all.some((spa) => inactive.has(spa.id))).toBe(false);
    expect(listFeaturedSpas(6)).toHaveLength(6);
  });
});
