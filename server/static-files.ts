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

export interface StaticServer {
  /** Answers the request and returns true when it names a file of the build. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
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
 * 256 KB are kept in memory once read, up to `memoryBytes` in all (least
 * recently used go first). Without a manifest (a build made before this
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
  const remember = (key: string, bytes: Buffer) => {
    if (bytes.length > 256 * 1024) return;
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

  return {
    get files() {
      return Object.keys(manifest).length;
    },
    documentPolicy,
    serve(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const raw = (req.url ?? '/').split('?')[0]!;
      let urlPath: string;
      try {
        urlPath = decodeURIComponent(raw);
      } catch {
        return false;
      }
      // The 404 page is Astro's to answer (with its status).
      if (urlPath === '/404' || urlPath.startsWith('/404/')) return false;
      const found = lookup(urlPath);
      if (!found) return false;
      const { key, entry } = found;
      const encoding = chooseEncoding(req.headers['accept-encoding'], entry);
      const type = TYPES[extname(key)] ?? 'application/octet-stream';
      res.setHeader('Content-Type', type);
      res.setHeader('Cache-Control', cacheControlFor(key));
      if (entry.csp) res.setHeader('Content-Security-Policy', entry.csp);
      res.setHeader('ETag', encoding ? `${entry.etag.slice(0, -1)}-${encoding}"` : entry.etag);
      if (entry.br !== undefined || entry.gz !== undefined) res.appendHeader('Vary', 'Accept-Encoding');
      if (notModified(req.headers['if-none-match'], res.getHeader('ETag') as string)) {
        res.statusCode = 304;
        res.end();
        return true;
      }
      if (encoding) res.setHeader('Content-Encoding', encoding);
      const file = encoding === 'br' ? `${key}.br` : encoding === 'gzip' ? `${key}.gz` : key;
      const size = encoding === 'br' ? entry.br! : encoding === 'gzip' ? entry.gz! : entry.size;
      res.setHeader('Content-Length', size);
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      const cached = memory.get(file);
      if (cached) {
        // Most recently used goes last.
        memory.delete(file);
        memory.set(file, cached);
        res.end(cached);
        return true;
      }
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
