// Who a request came from, as far as limits and analytics need to know: a keyed
// hash of the client's address, never the address itself. The address comes
// from clientAddressOf (analytics.ts), the one place that derives it.
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { ANALYTICS_SALT } from 'astro:env/server';

/**
 * The part of an address that names one client. IPv4 as is (an IPv4-mapped
 * IPv6 address is its IPv4 address); IPv6 by its /64, since one subscriber
 * gets a whole /64 and could otherwise take a fresh address for every request.
 */
export function clientAddressKey(address: string): string {
  const bare = address.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(bare) || bare.includes('.')) return bare;
  const [head = '', tail] = bare.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * HMAC-SHA256 of the client's address, keyed by a server secret
 * (ANALYTICS_SALT). Without the key, the hash cannot be reversed by hashing
 * all 2^32 IPv4 addresses. Every stored or counted client address goes
 * through here.
 */
export function hashClientAddress(address: string, secret: string = ANALYTICS_SALT): string {
  return createHmac('sha256', secret).update(clientAddressKey(address)).digest('hex');
}
