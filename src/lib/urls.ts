/**
 * The public path of a page. At build time Astro.url may carry the written
 * file's shape (privacy-policy.html, privacy-policy/); visitors and search
 * engines see /privacy-policy.
 */
export function pagePath(url: URL): string {
  const path = url.pathname
    .replace(/\.html$/, '')
    .replace(/\/index$/, '/')
    .replace(/(.)\/$/, '$1');
  return path === '' ? '/' : path;
}

/** Whether a navigation link leads to the page at `path` (a section link, /#about, never does). */
export function isCurrentPage(href: string, path: string): boolean {
  return href === path || (href !== '/' && !href.includes('#') && path.startsWith(href));
}

// Addresses that owners give (website, booking link, social feed, video) end
// up in href attributes. Only http(s) may: "javascript:" or "data:" in an href
// runs in our origin when clicked. The database refuses other schemes on write
// (migration 0007); this is the same rule where the URL is rendered.

/** The URL when it is an absolute http(s) URL; null otherwise. */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return null;
  const url = new URL(text);
  // The address as the owner wrote it (trimmed), once it is known to be http(s).
  return url.protocol === 'http:' || url.protocol === 'https:' ? text : null;
}

// A bare host, as people type a web address: labels and a top-level name,
// then an optional port and path. Nothing with a scheme ("javascript:...",
// "ftp://...") or without a dot looks like this.
const BARE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/**
 * A web address as an owner types it: "walkthroughglow.example" means
 * https://walkthroughglow.example (issue 26). Anything else is left as typed,
 * for httpUrl to accept or refuse.
 */
export function withWebScheme(value: string): string {
  const text = value.trim();
  return BARE_HOST.test(text) ? `https://${text}` : text;
}
