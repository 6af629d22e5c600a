// nginx in front, written from the app's own tables so the two fronts cannot
// drift (docs/decisions/0026):
//   - the security headers: server/security-headers.ts's table;
//   - each page's Content-Security-Policy: the build's (_headers.json), written
//     at publish into SITE_DIR/nginx/page-policy.conf (writePagePolicy, from server/rebuild.ts);
//   - the routes: src/lib/front-routes.ts (body caps, the signed-in home, spa
//     pages while a change waits for its build, token paths in the log) and
//     the session cookie's name (src/lib/session-cookie.ts);
//   - the cache rules: server/static-site.ts's.
// nginx serves the build's client/ folder itself (the brotli and gzip copies
// the publish step wrote, ETags, open-file cache) and asks Node only for what
// needs it. `npm run nginx:config` writes deploy/nginx/ (a test fails when
// those files and the tables differ); tests and benchmarks write their own
// copy with their own paths and ports.
//
//   node server/nginx-config.ts                      rewrites deploy/nginx/ (the production example)
//   node server/nginx-config.ts --print --server-name example.com --site-url https://example.com ...
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  API_PREFIX,
  APP_KEEP_ALIVE_SECONDS,
  DEFAULT_BODY_LIMIT,
  FRONT_CACHED_ROUTES,
  LARGE_BODY_ROUTES,
  LIVE_BEFORE_BUILD_PREFIX,
  QUERY_VARIANTS,
  SIGNED_IN_VARIANTS,
  TOKEN_PATH_PREFIXES,
} from '#lib/front-routes.ts';
import { logger } from '#lib/log.ts';
import { FRONT_FILE_CACHE_SECONDS, paths, PAGE_CACHE_CONTROL } from '#lib/server/published-site.ts';
import { sessionCookieName, sessionCookiePattern } from '#lib/session-cookie.ts';
import { tooLargeAnswer } from './request-body.ts';
import { securityHeadersFor } from './security-headers.ts';
import { ASSET_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL, INTERNAL_PATH_PATTERN, readPagePolicies } from './static-site.ts';

const log = logger('nginx-config');

/** A value as an nginx string: double-quoted; refused when it holds what nginx would read as a variable or an escape. */
function quoted(value: string): string {
  if (/["\\$\n\r]/.test(value)) throw new Error(`cannot write ${JSON.stringify(value.slice(0, 60))} into nginx's configuration`);
  return `"${value}"`;
}

/** A regular expression as an nginx string: nginx keeps a backslash before anything but a quote, a backslash or t, r, n. */
function quotedRegex(value: string): string {
  if (/["\n\r]|\\[\\"'trn]/.test(value)) throw new Error(`cannot write ${JSON.stringify(value)} into nginx's configuration`);
  return `"${value}"`;
}

/** A body nginx returns itself: single-quoted, so it may hold double quotes. */
function singleQuoted(value: string): string {
  if (/['\\$\n\r]/.test(value)) throw new Error(`cannot write ${JSON.stringify(value.slice(0, 60))} into nginx's configuration`);
  return `'${value}'`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The security headers, as add_header lines (`always`: on errors too). */
export function securityHeadersInclude(siteUrl: string): string {
  const lines = Object.entries(securityHeadersFor(siteUrl)).map(([name, value]) => `add_header ${name} ${quoted(value)} always;`);
  return `# Written by \`npm run nginx:config\` from server/security-headers.ts (the table the Node server uses); do not edit.\n${lines.join('\n')}\n`;
}

/**
 * The build's page policy as an nginx map: HTML nginx sends gets it, other
 * files none (an empty value sends no header). Every page of a build carries
 * the same policy (Astro lists all the build's hashes on each); a build that
 * did not would need a map by address, so it is refused here, at publish.
 */
export function pagePolicyInclude(buildDir: string): string {
  const policies = new Set(readPagePolicies(buildDir).values());
  if (policies.size > 1) throw new Error(`the build has ${policies.size} different page policies; nginx's map holds one`);
  const [policy] = policies;
  return [
    `# Written at publish (server/rebuild.ts) from the build's _headers.json: nginx reloads when it changes (docs/deploy.md).`,
    'map $sent_http_content_type $medspa_page_policy {',
    ...(policy ? [`  ~^text/html ${quoted(policy)};`] : []),
    '  default "";',
    '}',
    '# The same for the 413 page nginx answers itself, when it is HTML.',
    'map $medspa_body_answer $medspa_error_policy {',
    ...(policy ? [`  html ${quoted(policy)};`] : []),
    '  default "";',
    '}',
    '',
  ].join('\n');
}

/**
 * At publish: writes the build's page policy where nginx reads it, when it
 * differs from what is there (written whole, then renamed). Returns whether
 * it changed: nginx must then reload (a path unit does it in production).
 */
export function writePagePolicy(siteDir: string, buildDir: string): boolean {
  const file = nginxPaths(siteDir).pagePolicy;
  const text = pagePolicyInclude(buildDir);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, text);
  renameSync(`${file}.${process.pid}.tmp`, file);
  return true;
}

export const nginxPaths = (siteDir: string) => ({ pagePolicy: join(siteDir, 'nginx', 'page-policy.conf') });

export interface SiteConfigOptions {
  serverName: string;
  /** SITE_URL: https decides HSTS and the session cookie's name. */
  siteUrl: string;
  siteDir: string;
  /** Where the Node server listens. */
  upstream: string;
  /** Where nginx listens for https. */
  listen: string;
  /** An http listener that sends everyone to https; null for none. */
  redirectHttpFrom: string | null;
  certificate: string;
  certificateKey: string;
  /** The include with the security headers (securityHeadersInclude). */
  securityHeaders: string;
  accessLog: string;
  errorLog: string;
  /** Where nginx keeps the public answers of FRONT_CACHED_ROUTES (a folder its workers may write). */
  cacheDir: string;
}

/** The http-level maps and the server blocks of the site. */
export function siteConfig(o: SiteConfigOptions): string {
  const cookie = sessionCookieName(o.siteUrl);
  const headers = `include ${o.securityHeaders};`;
  const unpublished = paths(o.siteDir).unpublished;
  const tooLarge = (kind: 'json' | 'html', limit: number) => tooLargeAnswer(limit, kind === 'json');
  const signedIn = SIGNED_IN_VARIANTS.map((variant) => variant.path);
  const limits = [...new Set([DEFAULT_BODY_LIMIT, ...LARGE_BODY_ROUTES.map((route) => route.limit)])];
  const pageHeaders = [headers, 'add_header Content-Security-Policy $medspa_page_policy always;', 'add_header Cache-Control $medspa_cache_control always;'];
  const indent = (lines: string[], by = '    ') => lines.map((line) => (line ? `${by}${line}` : line)).join('\n');
  const nodeOnly = (location: string, extra: string[] = []) => [
    `  location ${location} {`,
    indent([...extra, 'proxy_pass http://medspa_node;', ...proxyLines]),
    '  }',
  ];
  const proxyLines = [
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_set_header Host $host;',
    // The Node server believes the last entry (TRUST_PROXY=1): the address nginx saw.
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
  ];
  return `# Written by \`npm run nginx:config\` (server/nginx-config.ts) from the app's tables; do not edit.
# Included in nginx's http block (Debian: /etc/nginx/sites-enabled/). Needs
# libnginx-mod-http-brotli-static, and a published build (npm run rebuild):
# the page policy below is written with it.
include ${nginxPaths(o.siteDir).pagePolicy};

upstream medspa_node {
  server ${o.upstream};
  keepalive 16;
  # Idle connections to Node end here before Node ends them (src/lib/front-routes.ts APP_KEEP_ALIVE_SECONDS).
  keepalive_timeout ${APP_KEEP_ALIVE_SECONDS - 1}s;
}

# Public answers kept as long as their Cache-Control says (src/lib/front-routes.ts FRONT_CACHED_ROUTES).
proxy_cache_path ${o.cacheDir} levels=1:2 keys_zone=medspa_answers:10m max_size=100m inactive=10m use_temp_path=off;

# A visitor with the session cookie (src/lib/session-cookie.ts) gets the member home from Node.
map $http_cookie $medspa_signed_in {
  ${quotedRegex(`~${sessionCookiePattern(cookie)}`)} 1;
  default 0;
}

# Pages are revalidated each time, other files kept an hour (server/static-site.ts).
map $sent_http_content_type $medspa_cache_control {
  ~^text/html ${quoted(PAGE_CACHE_CONTROL)};
  default ${quoted(ASSET_CACHE_CONTROL)};
}

# The access log's path: never the query string, and a token path cut to its prefix (src/lib/front-routes.ts).
map $request_uri $medspa_log_path {
${TOKEN_PATH_PREFIXES.map((prefix) => `  ${quotedRegex(`~^${escapeRegex(prefix)}`)} ${quoted(`${prefix}:token`)};`).join('\n')}
  "~^(?<medspa_path>[^?]*)" $medspa_path;
}
log_format medspa escape=json '{"time":"$time_iso8601","method":"$request_method","path":"$medspa_log_path","status":$status,"bytes":$body_bytes_sent,"ms":$request_time}';

# A refused body is answered as Node answers it (server/request-body.ts): JSON for the API and clients that ask for it.
map "$request_uri|$http_accept" $medspa_body_answer {
  ${quotedRegex(`~^${escapeRegex(API_PREFIX)}`)} json;
  "~\\|.*json" json;
  default html;
}
map $medspa_body_answer $medspa_body_answer_type {
  json ${quoted(tooLarge('json', DEFAULT_BODY_LIMIT).type)};
  default ${quoted(tooLarge('html', DEFAULT_BODY_LIMIT).type)};
}
${limits
  .map(
    (limit) => `map $medspa_body_answer $medspa_too_large_${limit} {
  json ${singleQuoted(tooLarge('json', limit).body)};
  default ${singleQuoted(tooLarge('html', limit).body)};
}
`,
  )
  .join('')}
${
  o.redirectHttpFrom
    ? `server {
  listen ${o.redirectHttpFrom};
  server_name ${o.serverName};
  access_log ${o.accessLog} medspa buffer=64k flush=1s;
  location / { return 301 https://$host$request_uri; }
}

`
    : ''
}server {
  listen ${o.listen} ssl http2;
  server_name ${o.serverName};
  ssl_certificate ${o.certificate};
  ssl_certificate_key ${o.certificateKey};
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:medspa_tls:10m;
  ssl_session_timeout 1d;
  server_tokens off;

  # Written a block at a time (at most a second late), not a write per request.
  access_log ${o.accessLog} medspa buffer=64k flush=1s;
  # Error lines quote the request line, query string and all: only what stops nginx.
  error_log ${o.errorLog} crit;

  # The published build, as the Node server serves it: compressed copies,
  # ETags, a path switched atomically by each publish (docs/decisions/0002).
  root ${join(o.siteDir, 'current', 'client')};
  brotli_static on;
  gzip_static on;
  gzip_vary on;
  sendfile on;
  tcp_nopush on;
  etag on;
  charset utf-8;
  # Open files are kept ${FRONT_FILE_CACHE_SECONDS} s at most after a publish
  # (FRONT_FILE_CACHE_SECONDS: the unpublished mark stays as long); a missing
  # file is looked up each time, so the mark is seen at once.
  open_file_cache max=10000 inactive=60s;
  open_file_cache_valid ${FRONT_FILE_CACHE_SECONDS}s;
  open_file_cache_errors off;
  absolute_redirect off;
  keepalive_requests 10000;

  # Bodies: ${DEFAULT_BODY_LIMIT / 1024} KB (src/lib/front-routes.ts), read whole before Node sees them.
  client_max_body_size ${DEFAULT_BODY_LIMIT};
  client_body_buffer_size ${DEFAULT_BODY_LIMIT};
  error_page 413 @medspa_too_large_${DEFAULT_BODY_LIMIT};
  error_page 400 /_medspa/bad-request;
  # A post to a page's file: the app answers it, as it does without nginx.
  error_page 405 = @node;

${limits
  .map(
    (limit) => `  # A body over ${limit} bytes (a named location: over HTTP/2, nginx sends its own page instead of an address's).
  location @medspa_too_large_${limit} {
${indent([
  headers,
  'add_header Content-Security-Policy $medspa_error_policy always;',
  'add_header Cache-Control "no-store" always;',
  'default_type "";',
  'add_header Content-Type $medspa_body_answer_type always;',
  `return 413 $medspa_too_large_${limit};`,
])}
  }
`,
  )
  .join('')}  location = /_medspa/bad-request {
    internal;
${indent([headers, 'add_header Cache-Control "no-store" always;', 'default_type "text/plain; charset=utf-8";', "return 200 'Bad request.';"])}
  }

  # A backslash, which browsers read as a slash: Node sends it to the normal form (nginx would keep it in a Location). First: regular expressions are tried in order.
  location ~ "\\x5c" {
    proxy_pass http://medspa_node;
${indent(proxyLines)}
  }

  # No address ends in a slash but the home page's: the normal form, on this site (nginx has merged slashes and dot segments).
  location ~ "^(?<medspa_without_slash>.+)/$" {
    error_page 418 = @node;
    if ($request_method !~ ^(?:GET|HEAD)$) { return 418; }
${indent([headers, 'add_header Content-Security-Policy $medspa_page_policy always;', 'add_header Cache-Control "no-store" always;', 'return 301 $medspa_without_slash$is_args$args;'])}
  }

  # The compressed copies by their own names and the error pages are not addresses: Node answers its 404 page.
  location ~* ${quotedRegex(INTERNAL_PATH_PATTERN)} {
    proxy_pass http://medspa_node;
${indent(proxyLines)}
  }

  location /_astro/ {
${indent([headers, `add_header Cache-Control ${quoted(IMMUTABLE_CACHE_CONTROL)} always;`, 'try_files $uri @node;'])}
  }

${signedIn
  .map(
    (path) => `  # The signed-in variant comes from Node; caches keep the two apart by cookie.
  location = ${path} {
    error_page 418 = @node;
    if ($medspa_signed_in) { return 418; }
${indent([...pageHeaders, 'add_header Vary "Cookie" always;', `try_files ${path === '/' ? '/index.html' : `${path}/index.html`} @node;`])}
  }
`,
  )
  .join('\n')}
${QUERY_VARIANTS.map(
  (variant) => `  # With ?${variant.param}= the page comes from Node (it renders ${variant.app}).
  location = ${variant.path} {
    error_page 418 = @node;
    if ($arg_${variant.param}) { return 418; }
${indent([...pageHeaders, `try_files ${variant.path}/index.html @node;`])}
  }
`,
).join('\n')}
  # While a change waits for its build, these pages come from the data (docs/decisions/0025).
  location ${LIVE_BEFORE_BUILD_PREFIX} {
    error_page 418 = @node;
    if (-f ${unpublished}) { return 418; }
${indent([...pageHeaders, 'try_files $uri/index.html $uri @node;'])}
  }

${LARGE_BODY_ROUTES.map((route) =>
  nodeOnly(`~ ${quotedRegex(route.path)}`, [
    `# ${route.limit} bytes, passed on as they arrive: the page reads them after checking who is asking.`,
    `client_max_body_size ${route.limit};`,
    'proxy_request_buffering off;',
    `error_page 413 @medspa_too_large_${route.limit};`,
  ]).join('\n'),
).join('\n\n')}

${FRONT_CACHED_ROUTES.map((route) =>
  nodeOnly(`~ ${quotedRegex(route.path)}`, [
    route.frontSeconds
      ? `# Kept ${route.frontSeconds} s whatever its Cache-Control tells browsers; once kept, one request at a time asks Node for a new answer while the others get the one kept.`
      : '# Kept for its max-age; once kept, one request at a time asks Node for a new answer while the others get the one kept.',
    ...(route.privateParam ? [`# With ?${route.privateParam}= it is one client's: never kept.`] : []),
    // No proxy_cache_lock: a request waiting on the lock sleeps in 500 ms steps (p99 0.4 s at 100
    // connections in scripts/bench-slots.ts); a first burst costs Node one answer per request.
    'proxy_cache medspa_answers;',
    'proxy_cache_key $scheme$host$request_uri;',
    ...(route.frontSeconds ? ['proxy_ignore_headers Cache-Control Expires;', `proxy_cache_valid 200 ${route.frontSeconds}s;`] : []),
    'proxy_cache_use_stale updating error timeout;',
    'proxy_cache_background_update on;',
    ...(route.privateParam ? [`proxy_cache_bypass $arg_${route.privateParam};`, `proxy_no_cache $arg_${route.privateParam};`] : []),
    'add_header X-Cache-Status $upstream_cache_status always;',
  ]).join('\n'),
).join('\n\n')}

  location / {
${indent([...pageHeaders, 'try_files $uri $uri/index.html @node;'])}
  }

  location @node {
${indent(['proxy_pass http://medspa_node;', ...proxyLines])}
  }
}
`;
}

/** The production example in deploy/nginx/: the paths and names docs/deploy.md uses. */
export const PRODUCTION = {
  serverName: 'ocmedspadirectory.com',
  siteUrl: 'https://ocmedspadirectory.com',
  siteDir: '/srv/medspa/data/site',
  upstream: '127.0.0.1:4321',
  listen: '443',
  redirectHttpFrom: '80',
  certificate: '/etc/letsencrypt/live/ocmedspadirectory.com/fullchain.pem',
  certificateKey: '/etc/letsencrypt/live/ocmedspadirectory.com/privkey.pem',
  securityHeaders: '/etc/nginx/medspa/security-headers.conf',
  accessLog: '/var/log/nginx/medspa-access.log',
  errorLog: '/var/log/nginx/medspa-error.log',
  cacheDir: '/var/cache/nginx/medspa',
} satisfies SiteConfigOptions;

/** The files of deploy/nginx/, by name. */
export function deployFiles(options: SiteConfigOptions = PRODUCTION): Record<string, string> {
  return { 'medspa.conf': siteConfig(options), 'security-headers.conf': securityHeadersInclude(options.siteUrl) };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'deploy/nginx' } } });
  for (const [name, text] of Object.entries(deployFiles())) {
    writeFileSync(join(values.out!, name), text);
    log.info(`wrote ${join(values.out!, name)}`);
  }
}
