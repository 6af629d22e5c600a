// The security headers, one table for both fronts: the Node server sets them
// on every answer it gives (static or rendered, an error or a redirect; issue
// 15), and nginx's include (deploy/nginx/security-headers.conf) is written
// from the same table by server/nginx-config.ts, for the answers nginx gives
// itself; a test fails when the file and the table differ. The
// Content-Security-Policy itself is Astro's, built from src/lib/content-security.ts
// (docs/decisions/0022), and sent with each page from the build's _headers.json.
import type { ServerResponse } from 'node:http';

const EVERY_ANSWER: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // frame-ancestors 'none' in the policy says the same to browsers that read CSP.
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};

/**
 * A page whose address carries a secret (a manage link, a sign-in or review
 * link: src/lib/front-routes.ts, carriesToken) sends no Referer at all, so the
 * address never reaches another site or its logs (issue 23, item 10).
 */
const TOKEN_PAGE: Record<string, string> = { 'Referrer-Policy': 'no-referrer' };

/** HSTS only when the site is served over https. */
const HTTPS_ONLY: Record<string, string> = { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' };

/** The fixed headers for a site at `siteUrl`; `tokenPage` for an address that carries a secret. */
export function securityHeadersFor(siteUrl: string, { tokenPage = false }: { tokenPage?: boolean } = {}): Record<string, string> {
  return {
    ...EVERY_ANSWER,
    ...(tokenPage ? TOKEN_PAGE : {}),
    ...(new URL(siteUrl).protocol === 'https:' ? HTTPS_ONLY : {}),
  };
}

/**
 * Before the app answers: what it does not say otherwise is not to be kept,
 * and HTML it makes without a policy of its own (the 404 page the adapter
 * reads from disk) gets the build's page policy. The middleware marks
 * rendered pages `private, no-store` and endpoints say their own; Astro's
 * own policy header replaces this one on the pages it renders.
 */
export function setAppDefaults(res: ServerResponse, pagePolicy: string | null): void {
  if (pagePolicy) res.setHeader('Content-Security-Policy', pagePolicy);
  res.setHeader('Cache-Control', 'no-store');
}
