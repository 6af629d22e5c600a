import { describe, expect, it } from 'vitest';
import { reviewSchema, summarise, visitMonthLabel } from './review-schema.ts';

describe('the review form', () => {
  it('keeps the text as typed, trimmed, without control characters', () => {
    const parsed = reviewSchema.parse({
      rating: '4',
      body: '  Great <b>visit</b>\r\nsee https://x.example \u0007 ',
      authorName: ' Ana ',
      treatment: '',
      visited: 'yes',
    });
    expect(parsed).toEqual({ rating: 4, body: 'Great <b>visit</b>\nsee https://x.example', authorName: 'Ana', treatment: null, visited: 'yes' });
  });

  it('refuses a missing or out-of-range rating, short and over-long text', () => {
    const issues = (input: Record<string, unknown>) =>
      reviewSchema.safeParse({ body: 'x'.repeat(30), authorName: 'A', visited: 'yes', ...input }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({})).toEqual(['rating: Choose a rating from 1 to 5 stars']);
    expect(issues({ rating: '6' })).toEqual(['rating: Choose a rating from 1 to 5 stars']);
    expect(issues({ rating: '0' })).toEqual(['rating: Choose a rating from 1 to 5 stars']);
    expect(issues({ rating: '5', body: 'Too short' })).toEqual(['body: Tell others a little more: at least 20 characters']);
    expect(issues({ rating: '5', body: 'x'.repeat(2001) })).toEqual(['body: Must be at most 2000 characters']);
  });

  it('asks the client to confirm the visit themselves', () => {
    const issues = (visited: unknown) =>
      reviewSchema.safeParse({ rating: '5', body: 'x'.repeat(30), authorName: 'A', visited }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    for (const visited of [undefined, '', 'no', 'on', true])
      expect(issues(visited), String(visited)).toEqual(['visited: Confirm that you visited to publish a review']);
    expect(issues('yes')).toBeUndefined();
  });
});

describe('the rating summary', () => {
  it('counts, averages to one decimal and distributes 5 down to 1', () => {
    expect(summarise([5, 4, 4, 1])).toEqual({
      count: 4,
      average: 3.5,
      distribution: [
        { stars: 5, count: 1 },
        { stars: 4, count: 2 },
        { stars: 3, count: 0 },
        { stars: 2, count: 0 },
        { stars: 1, count: 1 },
      ],
    });
    expect(summarise([]).average).toBeNull();
    expect(visitMonthLabel('2026-10')).toBe('October 2026');
  });
});
