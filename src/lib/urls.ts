/**
 * The public path of a page. Pre-rendered pages are written as files
 * (privacy-policy.html) and Astro.url carries that name at build time; visitors
 * and search engines see /privacy-policy.
 */
export function pagePath(url: URL): string {
  const path = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
  return path === '' ? '/' : path;
}
