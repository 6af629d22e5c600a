import { describe, expect, it } from 'vitest';
import { rateLimitKeyForEmail } from './rate-limit-key.ts';

describe('rateLimitKeyForEmail', () => {
  it('folds +tags and case into one key', () => {
    const key = rateLimitKeyForEmail('victim@example.com');
    expect(key).toBe('victim@example.com');
    for (const alias of ['victim+1@example.com', 'victim+2@example.com', 'Victim+Spam@EXAMPLE.com', ' victim@example.com ']) {
      expect(rateLimitKeyForEmail(alias)).toBe(key);
    }
  });

  it('drops dots for Gmail and reads googlemail.com as gmail.com', () => {
    expect(rateLimitKeyForEmail('j.o.h.n.doe+x@gmail.com')).toBe('johndoe@gmail.com');
    expect(rateLimitKeyForEmail('John.Doe@googlemail.com')).toBe('johndoe@gmail.com');
  });

  it('keeps dots elsewhere, where they may name another inbox', () => {
    expect(rateLimitKeyForEmail('john.doe@example.com')).toBe('john.doe@example.com');
    expect(rateLimitKeyForEmail('john.doe@example.com')).not.toBe(rateLimitKeyForEmail('johndoe@example.com'));
  });

  it('leaves odd addresses readable rather than empty', () => {
    expect(rateLimitKeyForEmail('+tag@example.com')).toBe('+tag@example.com');
    expect(rateLimitKeyForEmail('no-at-sign')).toBe('no-at-sign');
    expect(rateLimitKeyForEmail('a@b@example.com')).toBe('a@b@example.com');
  });
});
