// What a front must know of the app's routes, as data the app owns. There are
// two fronts: the Node server (server/serve.ts, `npm start`) and nginx in
// production (deploy/nginx/, written by server/nginx-config.ts). Neither names
// a route of its own; both read this table, so they cannot disagree with the
// app or with each other.

/** Forms and JSON: the largest real one (a booking request) is under 4 KB. The one cap of every body not listed below. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** A body not listed below must arrive whole within this many seconds of its request's start, or is answered 408. */
export const DEFAULT_BODY_SECONDS = 30;

export interface LargeBodyRoute {
  method: 'POST';
  /** A regular expression both JavaScript and nginx (PCRE) read the same way, over the path without its query. */
  path: string;
  limit: number;
  /**
   * At most this many such bodies arrive at once: a body this large is read
   * by the page itself, after it has checked who is asking, never by the
   * front ahead of it (issue 23, item 6).
   */
  concurrent: number;
  /**
   * The whole body must arrive within this many seconds of the request's
   * start. A photo is sent from a phone: 10 MB in 30 s needs an uplink of
   * 2.8 Mbit/s, in 180 s 0.47 Mbit/s.
   */
  seconds: number;
}

/**
 * The routes that take more than DEFAULT_BODY_LIMIT: a listing's photo upload,
 * a 10 MB picture (the page refuses larger ones with its own message) and the
 * form around it (src/lib/server/photos/actions.ts reads no more).
 */
export const LARGE_BODY_ROUTES: readonly LargeBodyRoute[] = [
  { method: 'POST', path: '^/owner/spas/[1-9][0-9]{0,9}/photos$', limit: 10 * 1024 * 1024 + DEFAULT_BODY_LIMIT, concurrent: 4, seconds: 180 },
];

/** The longest any body may take to arrive: the Node server's own request limit (server/serve.ts). */
export const LONGEST_BODY_SECONDS = Math.max(DEFAULT_BODY_SECONDS, ...LARGE_BODY_ROUTES.map((route) => route.seconds));

/**
 * How long the Node server keeps an idle connection open for another request
 * (server/serve.ts). nginx lets go of its idle connections to Node a second
 * sooner (server/nginx-config.ts): when both sides close at the same instant,
 * nginx can send a request on a connection Node is closing, and a post (a
 * booking) that fails so is answered 502, not retried.
 */
export const APP_KEEP_ALIVE_SECONDS = 5;

/** The largest body any route takes: the app's adapter refuses anything past it (astro.config.mjs). */
export const LARGEST_BODY = Math.max(DEFAULT_BODY_LIMIT, ...LARGE_BODY_ROUTES.map((route) => route.limit));

const pathOf = (url: string) => url.split('?')[0] ?? '/';

/** The large-body route a request goes to, or null. */
export function largeBodyRoute(method: string | undefined, url: string): LargeBodyRoute | null {
  const path = pathOf(url);
  return LARGE_BODY_ROUTES.find((route) => route.method === method && new RegExp(route.path).test(path)) ?? null;
}

/** The cap for a request's body, in bytes; 0 for methods that carry none. */
export function bodyLimitFor(method: string | undefined, url = ''): number {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 0;
  return largeBodyRoute(method, url)?.limit ?? DEFAULT_BODY_LIMIT;
}

export interface FrontCachedRoute {
  /** A regular expression both JavaScript and nginx (PCRE) read the same way, over the path without its query. */
  path: string;
  /** A request with this query parameter is one client's: answered for them alone and never kept. */
  privateParam?: string;
  /**
   * Kept this many seconds by the front, whatever the answer's Cache-Control
   * tells browsers (which ask again each time); without it, as long as that
   * Cache-Control says.
   */
  frontSeconds?: number;
}

/**
 * Public answers a front may keep. The open times of a spa (issue 24), asked
 * by every visitor of its page and worked out from a month of its calendar,
 * for their own max-age; a client moving their booking (`privateParam`, with
 * its manage token) is never answered from it. Search results (spec 2: the
 * same page for everyone, rendered on request because it must work without
 * JavaScript; /client/* is the same screen) for 10 seconds: the same searches
 * repeat all day, and at 5,000 spas a search costs Node about 13 ms of CPU
 * (docs/decisions/0026). A listing change shows in them up to 10 s late,
 * sooner than in the pre-rendered lists, which wait for their build.
 * nginx keeps these (server/nginx-config.ts); Node alone keeps the slots
 * answers itself (src/lib/server/availability/slots.ts) and renders every
 * search.
 */
export const FRONT_CACHED_ROUTES: readonly FrontCachedRoute[] = [
  { path: '^/api/spas/[1-9][0-9]{0,9}/slots$', privateParam: 'booking' },
  { path: '^/(?:search-results$|client/)', frontSeconds: 10 },
];

/** The JSON API's addresses: a body a front refuses is answered in the API's JSON error shape there (else as a page). */
export const API_PREFIX = '/api/';

/**
 * A pre-rendered page with another answer for a signed-in visitor: the front
 * gives the file to everyone else (answers vary by Cookie), and asks the app
 * for `signedIn` when the request carries the session cookie.
 */
export const SIGNED_IN_VARIANTS: readonly { path: string; signedIn: string }[] = [{ path: '/', signedIn: '/member' }];

/**
 * A pre-rendered page with another answer when its query names something: the
 * front gives the file for the plain address, and asks the app for `app` (with
 * the same query) when the query carries a value for `param`. /booking?spa={id}
 * is that spa's open times and form, rendered on request (docs/decisions/0028).
 */
export const QUERY_VARIANTS: readonly { path: string; param: string; app: string }[] = [{ path: '/booking', param: 'spa', app: '/booking/for-spa' }];

/** Where the app renders a read of `pathname` with this query, when a query variant applies; else null. */
export function queryVariantOf(pathname: string, query: URLSearchParams): string | null {
  const variant = QUERY_VARIANTS.find((v) => v.path === pathname && query.get(v.param));
  return variant ? variant.app : null;
}

/**
 * Pre-rendered pages under this prefix are rendered by the app instead of
 * sent from the build while a listing change waits for its build (the
 * published site's `unpublished` mark, src/lib/server/published-site.ts), so
 * the change is on its page at once (docs/decisions/0025).
 */
export const LIVE_BEFORE_BUILD_PREFIX = '/spas/';

/**
 * Pages whose address carries a secret in its path (the query string is never
 * logged at all): access logs write `:token` for the rest of the path.
 */
export const TOKEN_PATH_PREFIXES: readonly string[] = [
  '/api/bookings/secure/',
  '/bookings/cancel/',
  '/bookings/manage/',
  '/bookings/secure/',
  '/reviews/write/',
];

/**
 * Pages whose address carries a secret: in the path (above) or as ?token=.
 * They are answered with `Referrer-Policy: no-referrer` (server/security-headers.ts), so the address
 * never leaves in a Referer header (issue 23, item 10).
 */
export function carriesToken(url: URL): boolean {
  return url.searchParams.has('token') || TOKEN_PATH_PREFIXES.some((prefix) => url.pathname.startsWith(prefix));
}
