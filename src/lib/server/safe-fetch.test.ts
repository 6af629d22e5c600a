// The URL fetcher's address rule (security review, issue 23 item 12): what a
// user-given URL may make the server connect to, judged by ipaddr.js, and
// judged on the address the socket is about to use.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchRefused, isPublicAddress, safeFetch } from './safe-fetch.ts';

describe('isPublicAddress', () => {
  it('lets public unicast addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:2800:220:1::1', '2a00:1450:4001:81c::200e']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses the addresses the review found let through', () => {
    for (const address of [
      // [::127.0.0.1], as the URL parser writes it: IPv4-compatible, outside global unicast.
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      // NAT64 for local use (RFC 8215) and the well-known prefix.
      '64:ff9b:1::7f00:1',
      '64:ff9b:1:ffff::1',
      '64:ff9b::7f00:1',
      // 6to4 (embeds 127.0.0.1 here) and its relay anycast.
      '2002:7f00:1::1',
      '2002::1',
      '192.88.99.1',
      '192.88.99.255',
      // Deprecated site-local.
      'fec0::1',
      'feff:ffff::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses loopback, private, link-local, shared, reserved and special-purpose addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fd00::1',
      'fc00::1',
      'fe80::1',
      'fe80::1%eth0',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      '100::1',
      '2001:db8::1',
      '2001::1',
      '3fff::1',
      'not-an-ip',
      '',
      'localhost',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('lets loopback through only when the policy says so, and nothing else with it', () => {
    expect(isPublicAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isPublicAddress('::1', { allowLoopback: true })).toBe(true);
    for (const address of ['10.0.0.1', '::7f00:1', '2002:7f00:1::1', '64:ff9b::7f00:1', '::ffff:127.0.0.1']) {
      expect(isPublicAddress(address, { allowLoopback: true }), address).toBe(false);
    }
  });
});

describe('safeFetch', () => {
  let server: Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refused = (url: string, policy = {}) => expect(safeFetch(url, { maxBytes: 1_000, timeoutMs: 2_000, ...policy })).rejects.toBeInstanceOf(FetchRefused);

  it('refuses address literals before connecting, whatever their spelling', async () => {
    const before = requests;
    for (const host of ['127.0.0.1', '[::127.0.0.1]', '[::ffff:127.0.0.1]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::1]', '[fec0::1]', '192.88.99.1', '0x7f.1']) {
      await refused(`http://${host}:${port}/`);
    }
    expect(requests).toBe(before);
  });

  it('checks the address a name resolves to when the socket connects', async () => {
    const before = requests;
    // localhost resolves to loopback: refused by the lookup the socket uses.
    await refused(`http://localhost:${port}/`);
    expect(requests).toBe(before);
    // The same stand-in with loopback allowed (the tests' policy) is reached through the same lookup.
    const fetched = await safeFetch(`http://localhost:${port}/`, { maxBytes: 1_000, allowLoopback: true });
    expect(fetched.body.toString()).toBe('reached');
    expect(requests).toBe(before + 1);
  });

  it('refuses what is not http(s)', async () => {
    await refused('file:///etc/passwd');
    await refused('gopher://example.com/');
    await refused(`http://user:pw@127.0.0.1:${port}/`, { allowLoopback: true });
  });
});
