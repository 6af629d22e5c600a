// The security-header scan (issue 15): one request of every kind of answer the
// server gives (a static page, a rendered page, redirects, the 404 page, API
// JSON success and errors, 413s, a bad request, static assets, /healthz), and
// for each the headers it must carry: the Content-Security-Policy on HTML
// (with frame-ancestors 'none', no 'unsafe-inline' for scripts),
// X-Content-Type-Options, Referrer-Policy, frame protection,
// Permissions-Policy, HSTS when the site is https, the right Cache-Control for
// its kind; and that no error answer shows a stack trace or a path on disk.
// Prints a table; exits 1 on any miss.
//
//   node scripts/scan-headers.ts                 a throw-away site of its own, as behind a TLS proxy (SITE_URL https)
//   node scripts/scan-headers.ts --url http://127.0.0.1:4321 [--https]   a running site (--https: expect HSTS)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { logger } from '#lib/log.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { benchSiteEnv, runBenchmark, SERVER_ARGS, waitForReady } from './lib/bench-kit.ts';

const log = logger('scan-headers');

type Kind = 'page' | 'private' | 'redirect' | 'not-found' | 'json' | 'json-error' | 'too-large' | 'asset' | 'immutable' | 'health' | 'bad-request';

interface Probe {
  name: string;
  kind: Kind;
  path: string | ((home: string) => string);
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /** The Referrer-Policy it must carry: no-referrer where the address holds a secret. */
  referrer?: string;
}

const big = 'x'.repeat(70 * 1024);
const PROBES: Probe[] = [
  { name: 'static page', kind: 'page', path: '/', status: 200 },
  { name: 'static spa page', kind: 'page', path: '/spas/harborlight-aesthetics', status: 200 },
  { name: 'rendered page', kind: 'private', path: '/owner/login', status: 200 },
  { name: 'rendered search', kind: 'page', path: '/search-results', status: 200 },
  { name: 'redirect (sign-in)', kind: 'redirect', path: '/member', status: 303 },
  { name: 'redirect (slash)', kind: 'redirect', path: '/spas/harborlight-aesthetics/', status: 301 },
  { name: '404 page', kind: 'not-found', path: '/no-such-page', status: 404 },
  { name: 'raw compressed copy', kind: 'not-found', path: '/index.html.br', status: 404 },
  { name: 'token page', kind: 'private', path: '/bookings/manage/abcdefghijklmnopqrstuvwxyz234567', status: 404, referrer: 'no-referrer' },
  { name: 'API JSON', kind: 'json', path: '/api/cities', status: 200 },
  { name: 'API 401', kind: 'json-error', path: '/api/bookings/999999999', status: 401 },
  { name: 'API 404', kind: 'json-error', path: '/api/spas/999999999/services', status: 404 },
  { name: 'API 422', kind: 'json-error', path: '/api/bookings', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', status: 422 },
  {
    name: 'API bad JSON',
    kind: 'json-error',
    path: '/api/bookings',
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"name":',
    status: 400,
  },
  {
    name: 'API cross-origin',
    kind: 'json-error',
    path: '/api/bookings',
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
    body: '{}',
    status: 403,
  },
  { name: 'API 413', kind: 'too-large', path: '/api/bookings', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: big, status: 413 },
  {
    name: 'form 413 (HTML)',
    kind: 'too-large',
    path: '/newsletter',
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    body: `email=${big}`,
    status: 413,
  },
  { name: 'bad URL', kind: 'bad-request', path: '/%E0%A4%A', status: 400 },
  { name: 'hashed asset', kind: 'immutable', path: (home) => /renderer-url="(\/_astro\/[^"]+\.js)"/.exec(home)?.[1] ?? '/_astro/missing.js', status: 200 },
  { name: 'image', kind: 'asset', path: '/favicon.svg', status: 200 },
  { name: 'healthz', kind: 'health', path: '/healthz', status: 200 },
  { name: 'readyz', kind: 'health', path: '/readyz', status: 200 },
];

const CACHE: Record<Kind, RegExp | null> = {
  page: /^public, max-age=0, must-revalidate$/,
  private: /^private, no-store$/,
  redirect: /no-store|max-age=\d+/,
  'not-found': /no-store|no-cache|max-age=\d+/,
  json: /^private, no-store$|^public, max-age=\d+/,
  'json-error': /no-store/,
  'too-large': /no-store/,
  'bad-request': /no-store/,
  asset: /^public, max-age=\d+/,
  immutable: /^public, max-age=31536000, immutable$/,
  health: /^no-store$/,
};
const ERROR_KINDS = new Set<Kind>(['not-found', 'json-error', 'too-large', 'bad-request']);

/** What a leaked error looks like: a stack frame, Node's internals, a path on this disk. */
export function leaks(body: string, root = process.cwd()): string | null {
  const patterns: [string, RegExp][] = [
    ['stack frame', /\n\s+at [^\n]+[:(]\d+:\d+\)?/],
    ['node internals', /node:internal|node_modules\//],
    ['error class', /\b(?:TypeError|ReferenceError|SyntaxError|SqliteError|RangeError): /],
    ['path on disk', new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|/home/|/tmp/|/root/|file://`)],
  ];
  return patterns.find(([, pattern]) => pattern.test(body))?.[0] ?? null;
}

interface Row {
  probe: string;
  status: string;
  checks: Record<string, boolean | null>;
  misses: string[];
}

async function scan(origin: string, https: boolean): Promise<Row[]> {
  const home = await fetch(`${origin}/`).then((r) => r.text());
  const rows: Row[] = [];
  for (const probe of PROBES) {
    const path = typeof probe.path === 'function' ? probe.path(home) : probe.path;
    const response = await fetch(`${origin}${path}`, { method: probe.method ?? 'GET', headers: probe.headers, body: probe.body, redirect: 'manual' }).catch(
      (error: unknown) => error as Error,
    );
    if (response instanceof Error) {
      rows.push({ probe: probe.name, status: 'failed', checks: {}, misses: [`${probe.name}: ${response.message}`] });
      continue;
    }
    const body = await response.text().catch(() => '');
    const header = (name: string) => response.headers.get(name);
    const html = /text\/html/.test(header('content-type') ?? '');
    const csp = header('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    const checks: Record<string, boolean | null> = {
      status: response.status === probe.status,
      CSP: html ? csp.includes("frame-ancestors 'none'") && scriptSrc.includes("'self'") && !/unsafe-inline|unsafe-eval/.test(scriptSrc) : null,
      nosniff: header('x-content-type-options') === 'nosniff',
      referrer: header('referrer-policy') === (probe.referrer ?? 'strict-origin-when-cross-origin'),
      frames: header('x-frame-options') === 'DENY',
      permissions: /camera=\(\)/.test(header('permissions-policy') ?? ''),
      HSTS: https ? /^max-age=\d{7,}/.test(header('strict-transport-security') ?? '') : header('strict-transport-security') === null,
      cache: CACHE[probe.kind]!.test(header('cache-control') ?? ''),
      'no leak': ERROR_KINDS.has(probe.kind) || response.status >= 400 ? leaks(body) === null : null,
    };
    const misses = Object.entries(checks)
      .filter(([, ok]) => ok === false)
      .map(([check]) => {
        const detail =
          check === 'status'
            ? `${response.status}, expected ${probe.status}`
            : check === 'cache'
              ? `Cache-Control ${JSON.stringify(header('cache-control'))}`
              : check === 'no leak'
                ? `shows a ${leaks(body)}`
                : check === 'CSP'
                  ? JSON.stringify(csp.slice(0, 80))
                  : 'missing or wrong';
        return `${probe.name} (${probe.method ?? 'GET'} ${path.slice(0, 60)}): ${check}: ${detail}`;
      });
    rows.push({ probe: probe.name, status: String(response.status), checks, misses });
  }
  return rows;
}

function printTable(rows: Row[]) {
  const columns = ['status', 'CSP', 'nosniff', 'referrer', 'frames', 'permissions', 'HSTS', 'cache', 'no leak'];
  const mark = (ok: boolean | null | undefined) => (ok === null || ok === undefined ? '-' : ok ? 'ok' : 'MISS');
  const width = Math.max(...rows.map((row) => row.probe.length), 5);
  const lines = [
    `${'answer'.padEnd(width)}  code  ${columns.map((c) => c.padEnd(13)).join('')}`,
    ...rows.map((row) => `${row.probe.padEnd(width)}  ${row.status.padEnd(4)}  ${columns.map((c) => mark(row.checks[c]).padEnd(13)).join('')}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const children: ChildProcess[] = [];
let work: string | null = null;

async function main() {
  const { values } = parseArgs({ options: { url: { type: 'string' }, https: { type: 'boolean', default: false }, port: { type: 'string', default: '4396' } } });
  let origin = values.url?.replace(/\/$/, '');
  let https = values.https;
  if (!origin) {
    // A site of its own, as production runs it: behind a TLS proxy, so SITE_URL is https.
    const port = Number(values.port);
    work = mkdtempSync(join(tmpdir(), 'medspa-scan-'));
    const env = benchSiteEnv(work, port, { SITE_URL: `https://127.0.0.1:${port}`, TRUST_PROXY: '1' });
    prepareSite(env);
    buildSite(env);
    children.push(spawn(process.execPath, SERVER_ARGS, { env, stdio: ['ignore', 'ignore', 'inherit'] }));
    origin = `http://127.0.0.1:${port}`;
    https = true;
    await waitForReady(origin);
  }
  log.info(`scanning ${origin}${https ? ' (https site: HSTS expected)' : ''}`);
  const rows = await scan(origin, https);
  printTable(rows);
  const misses = rows.flatMap((row) => row.misses);
  if (misses.length) {
    for (const miss of misses) log.error(miss);
    process.exitCode = 1;
  } else log.info(`${rows.length} answers, every header present`);
}

if (import.meta.main) {
  runBenchmark(main, { processes: () => children, graceMs: 300, work }, log);
}
