// The pre-rendered pages and assets of one build, served by sirv (a
// maintained static-file server) from the build's client/ folder, for
// `npm start` without nginx in front. The rebuild wrote a brotli and a gzip
// copy beside each text file (server/precompress.ts); sirv sends the one the
// client takes, with an ETag, and answers 304 to a revalidation. Here: how
// long each kind of file may be kept, each page's Content-Security-Policy
// (Astro writes them to the build's _headers.json), and what is never served
// (the compressed copies by their own names, the error pages as pages).
// In production nginx serves the same folder the same way (deploy/nginx/).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
import { PAGE_CACHE_CONTROL } from '#lib/server/published-site.ts';

/** Hashed assets never change under their name. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Everything else that is not a page (pictures, robots.txt, sitemaps): an hour, then checked. */
export const ASSET_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';

const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** A page is an address without a file extension (pages are dir/index.html), or an .html file. */
export const isPagePath = (path: string) => !lastSegment(path).includes('.') || path.endsWith('.html');

/** How a file may be kept, by its address. */
export function cacheControlFor(path: string): string {
  if (path.startsWith('/_astro/')) return IMMUTABLE_CACHE_CONTROL;
  return isPagePath(path) ? PAGE_CACHE_CONTROL : ASSET_CACHE_CONTROL;
}

/**
 * Addresses of the build that are not its public files: the compressed
 * copies by their own names (a page is asked for by its own name and comes
 * compressed), and the error pages, which the app answers with their status.
 */
export const INTERNAL_PATH_PATTERN = '\\.(?:br|gz)$|^/(?:404|500)(?:\\.html|/|$)';
const internalPath = new RegExp(INTERNAL_PATH_PATTERN, 'i');

export function isInternalPath(path: string): boolean {
  let decoded = path;
  try {
    // As sirv reads it.
    decoded = decodeURI(path);
  } catch {
    // sirv keeps a malformed address as it is.
  }
  return internalPath.test(path) || internalPath.test(decoded);
}

/**
 * The page policy of each pre-rendered page, by address, from Astro's
 * _headers.json ([{ pathname, headers: [{ key, value }] }]); every page of a
 * build carries the same text, kept once.
 */
export function readPagePolicies(buildDir: string): Map<string, string> {
  const policies = new Map<string, string>();
  let routes: { pathname: string; headers: { key: string; value: string }[] }[];
  try {
    routes = JSON.parse(readFileSync(join(buildDir, '_headers.json'), 'utf8'));
  } catch {
    return policies;
  }
  const texts = new Map<string, string>();
  for (const { pathname, headers } of routes) {
    const csp = headers.find((header) => header.key.toLowerCase() === 'content-security-policy')?.value;
    if (!csp) continue;
    if (!texts.has(csp)) texts.set(csp, csp);
    policies.set(pathname === '/' ? '/' : pathname.replace(/\/$/, ''), texts.get(csp)!);
  }
  return policies;
}

export interface StaticSite {
  readonly buildDir: string;
  /**
   * The build's page policy (the 404 page's, which every page shares: Astro
   * lists all the build's hashes in each), for HTML the app makes without one
   * of its own; null when the build has none.
   */
  readonly pagePolicy: string | null;
  /** Answers a GET or HEAD for one of the build's public files; calls `next` for anything else. */
  serve(req: IncomingMessage, res: ServerResponse, next: () => void): void;
}

/**
 * Serves `buildDir`/client. `varyByCookie` names the addresses whose answer
 * also depends on the Cookie header (a page with a signed-in variant), so
 * caches keep the two apart.
 */
export function createStaticSite(buildDir: string, { varyByCookie = () => false }: { varyByCookie?: (path: string) => boolean } = {}): StaticSite {
  const policies = readPagePolicies(buildDir);
  const pagePolicy = policies.get('/404') ?? policies.values().next().value ?? null;
  const files = sirv(join(buildDir, 'client'), {
    // The compressed copies written at publish time; sirv picks by Accept-Encoding and says Vary.
    brotli: true,
    gzip: true,
    etag: true,
    // Pages are dir/index.html: sirv finds them by these extensions.
    extensions: ['html'],
    // The file list is read once, when the build is loaded: a build never changes.
    dev: false,
    setHeaders(res, path) {
      res.setHeader('Cache-Control', cacheControlFor(path));
      if (varyByCookie(path)) res.setHeader('Vary', 'Accept-Encoding, Cookie');
      if (isPagePath(path)) {
        const policy = policies.get(path === '/' ? '/' : path.replace(/\/$/, '').replace(/\/index\.html$/, '')) ?? pagePolicy;
        if (policy) res.setHeader('Content-Security-Policy', policy);
      }
    },
  });
  return {
    buildDir,
    pagePolicy,
    serve(req, res, next) {
      const path = (req.url ?? '/').split('?')[0]!;
      if ((req.method !== 'GET' && req.method !== 'HEAD') || isInternalPath(path)) return next();
      files(req, res, next);
    },
  };
}
