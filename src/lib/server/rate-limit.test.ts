import { describe, expect, it } from 'vitest';
import { hit } from './rate-limit.ts';

describe('rate limits', () => {
  it('allows the limit, refuses the next, and opens a new window later', () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    const start = 1_800_000_000_000;
    for (let i = 0; i < 5; i++) expect(hit(key, 5, 60_000, start + i).allowed).toBe(true);
    const sixth = hit(key, 5, 60_000, start + 10_000);
    expect(sixth).toMatchObject({ allowed: false, count: 6 });
    expect(sixth.retryAfterSeconds).toBe(50);
    expect(hit(key, 5, 60_000, start + 60_001)).toMatchObject({ allowed: true, count: 1 });
  });

  it('counts each key on its own', () => {
    const a = `a:${Math.random()}`;
    const b = `b:${Math.random()}`;
    hit(a, 1, 60_000);
    expect(hit(a, 1, 60_000).allowed).toBe(false);
    expect(hit(b, 1, 60_000).allowed).toBe(true);
  });
});

describe('hitAll', () => {
  it('stops at the first limit that refuses, leaving the later ones uncounted', async () => {
    const { hitAll } = await import('./rate-limit.ts');
    const first = `first:${Math.random()}`;
    const second = `second:${Math.random()}`;
    const limits = [
      { key: first, limit: 1, windowMs: 60_000 },
      { key: second, limit: 5, windowMs: 60_000 },
    ];
    expect(hitAll(limits)).toMatchObject({ allowed: true });
    expect(hitAll(limits)).toMatchObject({ allowed: false, count: 2 });
    expect(hit(second, 5, 60_000).count).toBe(2);
  });
});
