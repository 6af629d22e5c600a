import { describe, expect, it } from 'vitest';
import { hasSessionCookie, hasSignedInHint, SESSION_COOKIE_NAMES, sessionCookieName, sessionCookiePattern, SIGNED_IN_HINT_COOKIE } from './session-cookie.ts';

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

describe("the session cookie's pattern (for nginx)", () => {
  it('finds exactly what hasSessionCookie finds', () => {
    const headers = [
      'session=abc',
      'a=1; session=abc',
      'a=1;session=abc; b=2',
      'mysession=abc',
      'session=',
      'session=;b=1',
      '__Host-session=abc',
      'a=1; __Host-session=x',
      'session.x=1',
      '',
    ];
    for (const name of SESSION_COOKIE_NAMES) {
      const pattern = new RegExp(sessionCookiePattern(name));
      for (const header of headers) expect(pattern.test(header), `${name} in ${header}`).toBe(hasSessionCookie(header, name));
    }
  });
});

describe('the signed-in hint', () => {
  it('is read from document.cookie by its name', () => {
    expect(hasSignedInHint(`a=1; ${SIGNED_IN_HINT_COOKIE}=1`)).toBe(true);
    expect(hasSignedInHint(`${SIGNED_IN_HINT_COOKIE}=`)).toBe(false);
    expect(hasSignedInHint('not_signed_in=1')).toBe(false);
  });
});
