import { describe, expect, it } from 'vitest';
import { hasSessionCookie, sessionCookieName } from './session-cookie.ts';

describe('session cookie', () => {
  it('is __Host-session over https and session over http', () => {
    expect(sessionCookieName('https://ocmedspa.example')).toBe('__Host-session');
    expect(sessionCookieName('http://localhost:4321')).toBe('session');
  });

  describe('is found only under its exact name', () => {
    it.each(['__Host-session=abc', 'a=1; __Host-session=abc; b=2'])('finds __Host-session in %j', (header) => {
      expect(hasSessionCookie(header, '__Host-session')).toBe(true);
    });

    // A stray cookie of the other name, over https: not a signed-in visitor.
    it('does not take a cookie named session for __Host-session', () => {
      expect(hasSessionCookie('session=abc', '__Host-session')).toBe(false);
    });

    it.each(['__Host-session=abc', 'mysession=abc', 'session=', undefined])('finds no cookie named session in %j', (header) => {
      expect(hasSessionCookie(header, 'session')).toBe(false);
    });
  });
});
