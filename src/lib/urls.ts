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
