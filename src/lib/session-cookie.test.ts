import { describe, expect, it } from 'vitest';
import { hasSessionCookie, sessionCookieName } from './session-cookie.ts';

describe('session cookie', () => {
  it('is __Host-session over https and session over http', () => {
    expect(sessionCookieName('https://ocmedspa.example')).toBe('__Host-session');
    expect(sessionCookieName('http://localhost:4321')).toBe('session');
  });

  it('is found only under its exact name', () => {
    expect(hasSessionCookie('__Host-session=abc', '__Host-session')).toBe(true);
    expect(hasSessionCookie('a=1; __Host-session=abc; b=2', '__Host-session')).toBe(true);
    // A stray cookie of the other name, over https: not a signed-in visitor.
    expect(hasSessionCookie('session=abc', '__Host-session')).toBe(false);
    expect(hasSessionCookie('__Host-session=abc', 'session')).toBe(false);
    expect(hasSessionCookie('mysession=abc', 'session')).toBe(false);
    expect(hasSessionCookie('session=', 'session')).toBe(false);
    expect(hasSessionCookie(undefined, 'session')).toBe(false);
  });
});
