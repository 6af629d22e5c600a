// Who is asking, when a reverse proxy may stand in front of the server.
// TRUST_PROXY is the number of proxies we run in front of it (0: none, the
// default). Only then is X-Forwarded-For believed, and only the entries those
// proxies appended: everything to their left was written by the client.

/** server/serve.ts writes the address it decided on here; anything a client sent under this name is replaced. */
export const CLIENT_ADDRESS_HEADER = 'x-medspa-client-address';

/**
 * The client's address: with `trustedHops` proxies in front, the entry the
 * outermost one appended to X-Forwarded-For; otherwise the socket's peer.
 */
export function clientAddressFrom(forwardedFor: string | string[] | undefined, socketAddress: string | undefined, trustedHops: number): string | null {
  const peer = socketAddress || null;
  if (trustedHops <= 0 || forwardedFor === undefined) return peer;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // The nearest proxy is the socket peer; it appended the address it saw last.
  const candidate = entries[entries.length - trustedHops];
  return candidate && isIpAddress(candidate) ? candidate : peer;
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-f:.]{2,45}$/i;
const isIpAddress = (value: string) => IPV4.test(value) || (value.includes(':') && IPV6.test(value));

/** TRUST_PROXY's value: a count of proxies; anything else is a mistake worth stopping for. */
export function parseTrustProxy(value: string | undefined): number {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return 0;
  if (text === 'true') return 1;
  if (/^[1-9]$/.test(text)) return Number(text);
  throw new Error(`TRUST_PROXY=${JSON.stringify(value)} must be the number of proxies in front of the server (0-9)`);
}
