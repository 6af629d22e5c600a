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
