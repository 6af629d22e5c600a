// Request targets as the server reads them: the path and query of what a
// client asked for, and its normal form. The URL parsing is WHATWG's (Node's
// URL); this only decides what to do with the result.

/**
 * The target as a URL on `origin`. The target is always taken as a path on
 * this site: `//evil.example/x` is the path "//evil.example/x", never another
 * host; anything unparseable is "/".
 */
export function targetUrl(target: string, origin: string): URL {
  try {
    return new URL(`${origin}${target.startsWith('/') ? target : `/${target}`}`);
  } catch {
    return new URL('/', origin);
  }
}

/**
 * Where a GET or HEAD for `target` should be sent instead, or null when it is
 * in normal form already. Normal: no dot segments, no doubled slashes, no
 * backslashes, and no trailing slash but on "/" (the site's addresses have
 * none). The answer is always a path on this site (one leading slash), so a
 * redirect to it cannot send anyone elsewhere, whatever the target was: a raw
 * `//evil.example/../spas/` goes to `/spas` (issue 23, item 8).
 */
export function normalTarget(target: string): string | null {
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  const search = query === -1 ? '' : target.slice(query);
  let pathname: string;
  try {
    // Resolves dot segments (also percent-encoded ones) and reads "\" as "/", as browsers do.
    pathname = new URL(`http://x${path.startsWith('/') ? path : `/${path}`}`).pathname;
  } catch {
    return null;
  }
  let normal = pathname.replace(/\/{2,}/g, '/');
  if (normal.length > 1 && normal.endsWith('/')) normal = normal.replace(/\/+$/, '') || '/';
  return normal === path ? null : `${normal}${search}`;
}
