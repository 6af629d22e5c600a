import { describe, expect, it } from 'vitest';
import { clientAddressFrom, parseTrustProxy } from './proxy.ts';

describe('clientAddressFrom', () => {
  it('believes no header when no proxy is trusted', () => {
    expect(clientAddressFrom('203.0.113.9', '127.0.0.1', 0)).toBe('127.0.0.1');
  });

  it('takes the entry the trusted proxy appended, not what the client wrote', () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; nginx appended the real peer.
    expect(clientAddressFrom('6.6.6.6, 198.51.100.7', '127.0.0.1', 1)).toBe('198.51.100.7');
    expect(clientAddressFrom(['6.6.6.6', '198.51.100.7, 10.0.0.2'], '127.0.0.1', 2)).toBe('198.51.100.7');
  });

  it('falls back to the peer when the header is missing, short or not an address', () => {
    expect(clientAddressFrom(undefined, '127.0.0.1', 1)).toBe('127.0.0.1');
    expect(clientAddressFrom('198.51.100.7', '127.0.0.1', 2)).toBe('127.0.0.1');
    expect(clientAddressFrom('not-an-ip', '127.0.0.1', 1)).toBe('127.0.0.1');
    expect(clientAddressFrom('2001:db8::1', '::1', 1)).toBe('2001:db8::1');
  });
});

describe('parseTrustProxy', () => {
  it('is off unless set', () => {
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(parseTrustProxy('')).toBe(0);
    expect(parseTrustProxy('false')).toBe(0);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(() => parseTrustProxy('yes please')).toThrow(/TRUST_PROXY/);
  });
});
