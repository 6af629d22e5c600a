import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientAddressKey, hashClientAddress } from './client-address.ts';

describe('hashClientAddress', () => {
  it('is an HMAC-SHA256 keyed by the secret, not a plain hash anyone can recompute', () => {
    const hash = hashClientAddress('203.0.113.7', 'secret-a');
    expect(hash).toBe(createHmac('sha256', 'secret-a').update('203.0.113.7').digest('hex'));
    expect(hash).not.toBe(createHash('sha256').update('203.0.113.7').digest('hex'));
    expect(hash).not.toBe(createHash('sha256').update('secret-a').update('203.0.113.7').digest('hex'));
    expect(hash).not.toContain('203.0.113.7');
  });

  it('changes with the address and with the secret', () => {
    const hash = hashClientAddress('203.0.113.7', 'secret-a');
    expect(hashClientAddress('203.0.113.8', 'secret-a')).not.toBe(hash);
    expect(hashClientAddress('203.0.113.7', 'secret-b')).not.toBe(hash);
  });

  it('uses the configured secret by default', () => {
    expect(hashClientAddress('198.51.100.1')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('clientAddressKey', () => {
  it('reads an IPv4-mapped address as its IPv4 address', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(hashClientAddress('::ffff:203.0.113.7', 's')).toBe(hashClientAddress('203.0.113.7', 's'));
  });

  it('groups IPv6 addresses by their /64', () => {
    expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(clientAddressKey('2001:db8:1:2::1'));
  });
});
