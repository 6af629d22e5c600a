// Serving the pre-rendered pages and assets of a build, as a CDN would: the
// rebuild compresses every text file once (brotli and gzip beside it) and
// writes a manifest with each file's strong ETag; the server reads the
// manifest when it loads the build, answers from memory for hot files,
// revalidates HTML with 304s and lets hashed assets be cached for a year.
// Anything it does not know (on-request pages, the API, 404s) goes to Astro.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { PAGE_CACHE_CONTROL } from '#lib/server/published-site.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.webmanifest', '.xml', '.txt', '.svg', '.ico']);
const MANIFEST = 'static-manifest.json';
/** Larger files are read from disk each time (pictures, mostly: the pages are far smaller). */
const MAX_HELD_FILE = 256 * 1024;

export interface ManifestEntry {
  etag: string;
  size: number;
  br?: number;
  gz?: number;
  /** The page's Content-Security-Policy, from Astro's _headers.json (HTML pages only). */
  csp?: string;
}
export type StaticManifest = Record<string, ManifestEntry>;

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else if (entry.isFile() && !/\.(br|gz)$/.test(entry.name) && entry.name !== MANIFEST) files.push(path);
  }
  return files;
}

/**
 * At publish: compresses each text file of the build's client folder once
 * (brotli at its best setting for the few hashed assets, a quicker one for
 * the many pages) and writes the manifest. A compressed copy no smaller than
 * the original is not kept.
 */
export async function precompress(clientDir: string, concurrency = 4): Promise<{ files: number; ms: number }> {
  const started = performance.now();
  const files = walk(clientDir);
  const manifest: StaticManifest = {};
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const bytes = await readFile(file);
      const key = `/${relative(clientDir, file).split(sep).join('/')}`;
      const entry: ManifestEntry = { etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`, size: bytes.length };
      if (COMPRESSIBLE.has(extname(file)) && bytes.length >= 512) {
        const quality = key.startsWith('/_astro/') ? 11 : 6;
        const [br, gz] = await Promise.all([
          brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
          gzipAsync(bytes, { level: 9 }),
        ]);
        if (br.length < bytes.length) {
          await writeFile(`${file}.br`, br);
          entry.br = br.length;
        }
        if (gz.length < bytes.length) {
          await writeFile(`${file}.gz`, gz);
          entry.gz = gz.length;
        }
      }
      manifest[key] = entry;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const [key, csp] of pagePolicies(join(clientDir, '..'), manifest)) manifest[key]!.csp = csp;
  writeFileSync(join(clientDir, MANIFEST), JSON.stringify(manifest));
  return { files: files.length, ms: Math.round(performance.now() - started) };
}

/**
 * The Content-Security-Policy of each pre-rendered page, by manifest key.
 * Astro (security.csp with the node adapter's staticHeaders) writes them to
 * the build's _headers.json as [{ pathname, headers: [{ key, value }] }]
 * instead of a <meta> tag, which could not carry frame-ancestors.
 */
export function pagePolicies(buildDir: string, manifest: StaticManifest): Map<string, string> {
  const policies = new Map<string, string>();
  let routes: { pathname: string; headers: { key: string; value: string }[] }[];
  try {
    routes = JSON.parse(readFileSync(join(buildDir, '_headers.json'), 'utf8'));
  } catch {
    return policies;
  }
  for (const { pathname, headers } of routes) {
    const csp = headers.find((header) => header.key.toLowerCase() === 'content-security-policy')?.value;
    const base = pathname === '/' ? '' : pathname.replace(/\/$/, '');
    const key = [`${base}/index.html`, `${base}.html`].find((candidate) => manifest[candidate]);
    if (csp && key) policies.set(key, csp);
  }
  return policies;
}

/** Which stored copy to send for an Accept-Encoding header: brotli, then gzip, then none. */
export function chooseEncoding(acceptEncoding: string | undefined, entry: ManifestEntry): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const wants = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (entry.br !== undefined && wants('br')) return 'br';
  if (entry.gz !== undefined && wants('gzip')) return 'gzip';
  return null;
}

/** Hashed assets never change under their name; everything else is checked each time. */
export const cacheControlFor = (path: string) =>
  path.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : path.endsWith('.html') ? PAGE_CACHE_CONTROL : 'public, max-age=3600, must-revalidate';

/** True when If-None-Match names this ETag (or is "*"). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

interface Variant {
  status: 200 | 304;
  /** In the order they are sent; Content-Length included. */
  headers: [string, string][];
  /** The same, as they go on the wire: "Name: value\r\n" each. */
  headerLines: string;
  /** The stored file to send: the page itself or its .br or .gz copy. */
  file: string;
  etag: string;
}

/** How the build answers a GET or HEAD for one of its files. */
export interface StaticAnswer extends Variant {
  /** Its bytes when they are in memory; null when they must be read (or none are sent: 304, HEAD). */
  body: Buffer | null;
  /** No body goes out (304, HEAD). */
  bodiless: boolean;
}

export interface StaticServer {
  /** What the build would answer for a GET or HEAD of this target; null when it names no file of the build. */
  resolve(method: string, target: string, acceptEncoding: string | undefined, ifNoneMatch: string | undefined): StaticAnswer | null;
  /** Answers the request and returns true when it names a file of the build. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Reads the build's compressed copies into memory, as far as the budget goes. */
  warm(concurrency?: number): Promise<{ files: number; bytes: number }>;
  /** Lets go of the bytes held, for a build that has been replaced (its files are read from disk after). */
  release(): void;
  readonly files: number;
  /**
   * The build's page policy (the 404 page's, which every page shares: Astro
   * lists all the build's hashes in each), for HTML the app makes without
   * one of its own (the 404 page read from disk); null without a manifest.
   */
  readonly documentPolicy: string | null;
}

/**
 * Serves a build's client folder from its manifest. Bytes of files up to
 * 256 KB are kept in memory (read ahead by warm(), or once read), up to
 * `memoryBytes` in all (least recently used go first). Without a manifest (a build made before this
 * existed) it serves nothing and Astro's own handler does the work.
 */
export function createStaticServer(clientDir: string, memoryBytes = 48 * 1024 * 1024): StaticServer {
  let manifest: StaticManifest = {};
  try {
    manifest = JSON.parse(readFileSync(join(clientDir, MANIFEST), 'utf8')) as StaticManifest;
  } catch {
    manifest = {};
  }
  // Every page carries the same policy text: keep it once, not once per page.
  const policies = new Map<string, string>();
  for (const entry of Object.values(manifest)) {
    if (!entry.csp) continue;
    const known = policies.get(entry.csp);
    if (known) entry.csp = known;
    else policies.set(entry.csp, entry.csp);
  }
  const documentPolicy = (manifest['/404.html'] ?? manifest['/404/index.html'] ?? manifest['/index.html'])?.csp ?? null;
  const memory = new Map<string, Buffer>();
  let held = 0;
  // Set when a newer build replaces this one: what it held goes, and it holds nothing more.
  let released = false;
  const remember = (key: string, bytes: Buffer) => {
    if (released || bytes.length > MAX_HELD_FILE) return;
    memory.set(key, bytes);
    held += bytes.length;
    for (const [oldKey, old] of memory) {
      if (held <= memoryBytes) break;
      memory.delete(oldKey);
      held -= old.length;
    }
  };

  function lookup(urlPath: string): { key: string; entry: ManifestEntry } | null {
    const exact = manifest[urlPath];
    if (exact && !urlPath.endsWith('/')) return { key: urlPath, entry: exact };
    if (urlPath.endsWith('/') && urlPath !== '/') return null; // Astro redirects these
    const index = urlPath === '/' ? '/index.html' : `${urlPath}/index.html`;
    const page = manifest[index];
    return page ? { key: index, entry: page } : null;
  }

  // The headers of each (file, encoding, status) are made once for the build, and kept formatted for the fast lane.
  const variants = new Map<string, Variant>();
  function variant(key: string, entry: ManifestEntry, encoding: 'br' | 'gzip' | null, status: 200 | 304): Variant {
    const id = `${status} ${encoding ?? ''} ${key}`;
    const known = variants.get(id);
    if (known) return known;
    const etag = encoding ? `${entry.etag.slice(0, -1)}-${encoding}"` : entry.etag;
    const headers: [string, string][] = [
      ['Content-Type', TYPES[extname(key)] ?? 'application/octet-stream'],
      ['Cache-Control', cacheControlFor(key)],
    ];
    if (entry.csp) headers.push(['Content-Security-Policy', entry.csp]);
    headers.push(['ETag', etag]);
    if (entry.br !== undefined || entry.gz !== undefined) headers.push(['Vary', 'Accept-Encoding']);
    const file = encoding === 'br' ? `${key}.br` : encoding === 'gzip' ? `${key}.gz` : key;
    if (status === 200) {
      if (encoding) headers.push(['Content-Encoding', encoding]);
      const size = encoding === 'br' ? entry.br! : encoding === 'gzip' ? entry.gz! : entry.size;
      headers.push(['Content-Length', String(size)]);
    }
    const made: Variant = { status, headers, headerLines: headers.map(([name, value]) => `${name}: ${value}\r\n`).join(''), file, etag };
    variants.set(id, made);
    return made;
  }

  return {
    get files() {
      return Object.keys(manifest).length;
    },
    documentPolicy,
    async warm(concurrency = 8) {
      // Nearly every client takes brotli or gzip, and their copies are a
      // fifth of the size: those are read ahead; a plain file (or a picture)
      // is kept once it is asked for.
      const wanted: [string, number][] = [];
      for (const [key, entry] of Object.entries(manifest)) {
        if (entry.br !== undefined) wanted.push([`${key}.br`, entry.br]);
        if (entry.gz !== undefined) wanted.push([`${key}.gz`, entry.gz]);
      }
      let files = 0;
      let next = 0;
      // Several reads at a time: one after another, each waits a turn of a busy event loop.
      const reader = async () => {
        while (next < wanted.length && !released) {
          const [file, size] = wanted[next++]!;
          if (size > MAX_HELD_FILE || held + size > memoryBytes || memory.has(file)) continue;
          const bytes = await readFile(join(clientDir, file)).catch(() => null);
          if (!bytes || released) continue;
          remember(file, bytes);
          files++;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, reader));
      return { files, bytes: held };
    },
    release() {
      released = true;
      memory.clear();
      variants.clear();
      held = 0;
    },
    resolve(method, target, acceptEncoding, ifNoneMatch) {
      if (method !== 'GET' && method !== 'HEAD') return null;
      const raw = target.split('?')[0]!;
      let urlPath: string;
      try {
        urlPath = decodeURIComponent(raw);
      } catch {
        return null;
      }
      // The 404 page is Astro's to answer (with its status).
      if (urlPath === '/404' || urlPath.startsWith('/404/')) return null;
      const found = lookup(urlPath);
      if (!found) return null;
      const { key, entry } = found;
      const encoding = chooseEncoding(acceptEncoding, entry);
      const full = variant(key, entry, encoding, 200);
      if (notModified(ifNoneMatch, full.etag)) return { ...variant(key, entry, encoding, 304), body: null, bodiless: true };
      if (method === 'HEAD') return { ...full, body: null, bodiless: true };
      const cached = memory.get(full.file);
      if (cached) {
        // Most recently used goes last.
        memory.delete(full.file);
        memory.set(full.file, cached);
      }
      return { ...full, body: cached ?? null, bodiless: false };
    },
    serve(req, res) {
      const answer = this.resolve(req.method ?? 'GET', req.url ?? '/', req.headers['accept-encoding'], req.headers['if-none-match']);
      if (!answer) return false;
      res.statusCode = answer.status;
      // Vary may already hold Cookie (the home page): add to it, not over it.
      for (const [name, value] of answer.headers) {
        if (name === 'Vary') res.appendHeader(name, value);
        else res.setHeader(name, value);
      }
      if (answer.bodiless || answer.body) {
        res.end(answer.body ?? undefined);
        return true;
      }
      const { file } = answer;
      readFile(join(clientDir, file)).then(
        (bytes) => {
          remember(file, bytes);
          res.end(bytes);
        },
        () => {
          // The build was pruned under us (an old request on a replaced build).
          if (!res.headersSent) {
            res.removeHeader('Content-Encoding');
            res.removeHeader('Content-Length');
            res.statusCode = 503;
            res.setHeader('Retry-After', '1');
          }
          res.end();
        },
      );
      return true;
    },
  };
}
