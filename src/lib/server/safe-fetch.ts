// Fetching a URL that a user gave us (a social feed's oEmbed, its thumbnail)
// without letting them aim the server at itself or its network (SSRF): only
// http(s), only public addresses (checked on the address actually connected
// to, so a DNS answer cannot change between check and use), redirects
// followed by hand and checked again, a deadline and a size cap.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Which addresses are public is ipaddr.js's to know (its range() names every
// special-purpose block the IANA registries list: private, loopback, link-local,
// CGNAT, documentation, 6to4, NAT64, Teredo, site-local...): we keep no list of
// our own. An address is fetched from only when ipaddr.js calls it plain
// 'unicast'; an IPv6 one must also be global unicast (2000::/3, RFC 4291), which
// refuses what the registries leave unnamed, such as the deprecated
// IPv4-compatible ::a.b.c.d (so [::127.0.0.1] is not 127.0.0.1 by another name).
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

export interface FetchPolicy {
  /** Tests only: let 127.0.0.1 / ::1 through (a local stand-in). Private networks stay refused. */
  allowLoopback?: boolean;
}

/** Whether the server may connect to this address. IPv4-mapped IPv6 (::ffff:a.b.c.d) is refused outright: a client has no reason to write one. */
export function isPublicAddress(address: string, policy: FetchPolicy = {}): boolean {
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (policy.allowLoopback && range === 'loopback') return true;
  if (range !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

export class FetchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchRefused';
  }
}

function guardedLookup(policy: FetchPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const list = addresses ?? [];
      const refused = list.find((entry) => !isPublicAddress(entry.address, policy));
      if (refused || list.length === 0) return callback(new FetchRefused(`${hostname} resolves to an address we do not fetch from`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export interface SafeFetchOptions extends FetchPolicy {
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
}

/** What another server answered: its status, type and body (read whole, within the limits), and the address that gave it. */
export interface Fetched {
  status: number;
  contentType: string;
  body: Buffer;
  url: string;
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused('only http(s) URLs are fetched');
  if (url.username || url.password) throw new FetchRefused('URLs with credentials are not fetched');
  return url;
}

function once(url: URL, options: SafeFetchOptions, deadline: number): Promise<{ response: IncomingMessage; body: Buffer }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host, options)) return Promise.reject(new FetchRefused(`${host} is not an address we fetch from`));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const req = request(
      url,
      {
        method: 'GET',
        lookup: guardedLookup(options),
        headers: { accept: options.accept ?? '*/*', 'user-agent': 'OCMedSpaDirectory/1.0 (+oEmbed)' },
        timeout: remaining,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            req.destroy(new FetchRefused(`the answer is larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ response, body: Buffer.concat(chunks, size) }));
        response.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new FetchRefused('no answer in time')), remaining);
    req.on('timeout', () => req.destroy(new FetchRefused('no answer in time')));
    req.on('error', reject);
    req.on('close', () => clearTimeout(timer));
    req.end();
  });
}

/** GET `raw` under the policy; throws FetchRefused (or a network error) rather than reaching anything it should not. */
export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<Fetched> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  let url = parseHttpUrl(raw);
  for (let hops = 0; ; hops++) {
    const { response, body } = await once(url, options, deadline);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      if (hops >= (options.maxRedirects ?? 3)) throw new FetchRefused('too many redirects');
      url = parseHttpUrl(new URL(response.headers.location, url).href);
      continue;
    }
    return { status, contentType: String(response.headers['content-type'] ?? ''), body, url: url.href };
  }
}
