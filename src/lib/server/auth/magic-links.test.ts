import { describe, expect, it } from 'vitest';
import { safeNextPath } from './magic-links.ts';

const origin = 'https://ocmedspa.example';

describe('safeNextPath', () => {
  it('keeps paths on this site, with their query and fragment', () => {
    expect(safeNextPath('/owner/dashboard', origin)).toBe('/owner/dashboard');
    expect(safeNextPath('/checkout?service=12#pay', origin)).toBe('/checkout?service=12#pay');
  });

  it.each([
    ['a tab the browser drops', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a NUL', '/\u0000/evil.example'],
    ['a backslash', '/\\evil.example'],
    ['a backslash later on', '/x/..\\..\\/evil.example'],
    ['a protocol-relative URL', '//evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a scheme', 'javascript:alert(1)'],
    ['a relative path', 'owner/dashboard'],
    ['nothing', ''],
  ])('refuses %s', (_, next) => {
    expect(safeNextPath(next, origin)).toBeUndefined();
  });

  it('never yields a value that a browser resolves to another host', () => {
    for (const next of ['/%09/evil.example', '/%2F%2Fevil.example', '/.//evil.example', '/a/../../evil.example']) {
      const kept = safeNextPath(next, origin);
      if (kept !== undefined) expect(new URL(kept, origin).origin).toBe(origin);
    }
  });
});
