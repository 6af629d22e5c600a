// A small in-memory cache of whole responses for anonymous search requests,
// and for spa pages rendered while a change waits for the build (server/serve.ts).
// Search pages are rendered on request (they must work without JavaScript) and
// the same searches repeat all day; the answer changes only when listings do,
// so an entry lives until the content version or the served build changes,
// and at most a minute: search cards show each spa's next open time (issue
// 24), which changes with the clock and with bookings, not with listings.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

interface Entry {
  status: number;
  headers: Record<string, string | string[] | number>;
  body: Buffer;
  /** Compressed once when stored, so a hit costs no compression. */
  gzipped: Buffer;
  /** When it was stored (performance.now()). */
  at: number;
}

export interface ResponseCache {
  /** Answers from memory and returns true when it can; call before any compression. */
  serve(req: IncomingMessage, res: ServerResponse, generation: string): boolean;
  /** Records what the handler writes (uncompressed: call after compression is set up). */
  capture(req: IncomingMessage, res: ServerResponse, generation: string): void;
  readonly size: number;
}

const CACHEABLE = /^\/(?:search-results|client\/|api\/spas\/search|spas\/)/;
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=[^;]/;
const MAX_BODY = 512 * 1024;

export function isCacheable(req: IncomingMessage): boolean {
  return req.method === 'GET' && CACHEABLE.test(req.url ?? '') && !SESSION_COOKIE.test(req.headers.cookie ?? '');
}

/** How long an entry may answer: next open times on search cards stay at most this stale. */
export const RESPONSE_CACHE_MAX_AGE_MS = 60_000;

export function createResponseCache(maxEntries = 500, maxAgeMs = RESPONSE_CACHE_MAX_AGE_MS, clock: () => number = () => performance.now()): ResponseCache {
  const entries = new Map<string, Entry>();
  let currentGeneration = '';

  function remember(key: string, entry: Entry) {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  return {
    get size() {
      return entries.size;
    },
    serve(req, res, generation) {
      if (generation !== currentGeneration) {
        entries.clear();
        currentGeneration = generation;
      }
      if (!isCacheable(req)) return false;
      const hit = entries.get(req.url!);
      if (!hit) return false;
      if (clock() - hit.at > maxAgeMs) {
        entries.delete(req.url!);
        return false;
      }
      remember(req.url!, hit); // most recently used
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      const body = gzip ? hit.gzipped : hit.body;
      res.writeHead(hit.status, {
        ...hit.headers,
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
        Vary: 'Accept-Encoding',
        'Content-Length': body.length,
        'X-Cache': 'hit',
      });
      res.end(body);
      return true;
    },
    capture(req, res, generation) {
      if (!isCacheable(req)) return;
      const key = req.url!;
      const chunks: Buffer[] = [];
      let size = 0;
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string | Uint8Array);
        size += buffer.length;
        if (size <= MAX_BODY) chunks.push(buffer);
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk);
        return write(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        keep(chunk);
        if (res.statusCode === 200 && size <= MAX_BODY && generation === currentGeneration) {
          const headers = Object.fromEntries(
            Object.entries(res.getHeaders()).filter(([name]) => !['set-cookie', 'content-length', 'content-encoding', 'vary', 'x-request-id'].includes(name)),
          ) as Entry['headers'];
          const body = Buffer.concat(chunks);
          remember(key, { status: 200, headers, body, gzipped: gzipSync(body), at: clock() });
        }
        return end(chunk, ...rest);
      }) as typeof res.end;
    },
  };
}
