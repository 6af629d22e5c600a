import { describe, expect, it } from 'vitest';
import { hasSessionCookie, sessionCookieName } from './session-cookie.ts';

describe('session cookie', () => {
  it('is __Host-session over https and session over http', () => {
    expect(sessionCookieName('https://ocmedspa.example')).toBe('__Host-session');
    expect(sessionCookieName('http://localhost:4321')).toBe('session');
  });

  it.each([
    ['__Host-session=abc', '__Host-session', true],
    ['a=1; __Host-session=abc; b=2', '__Host-session', true],
    // A stray cookie of the other name, over https: not a signed-in visitor.
    ['session=abc', '__Host-session', false],
    ['__Host-session=abc', 'session', false],
    ['mysession=abc', 'session', false],
    ['session=', 'session', false],
    [undefined, 'session', false],
  ])('is found only under its exact name: in %j, %s is found: %s', (header, name, found) => {
    expect(hasSessionCookie(header, name)).toBe(found);
  });
});
