// The headers every answer of server/serve.ts carries, static or rendered, an
// error or a redirect (issue 15), and the page policy for HTML the app makes
// without one. The Content-Security-Policy itself is Astro's, built from
// src/lib/content-security.ts (docs/decisions/0022).
import type { ServerResponse } from 'node:http';

const ALWAYS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // frame-ancestors 'none' in the policy says the same to browsers that read CSP.
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};

/** The fixed headers for a site at `siteUrl`: HSTS only when it is served over https. */
export function securityHeadersFor(siteUrl: string): Record<string, string> {
  return {
    ...ALWAYS,
    ...(new URL(siteUrl).protocol === 'https:' ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/**
 * Before the app answers: the build's page policy, which Astro's own header
 * replaces on rendered pages; the 404 page (read from disk by the adapter)
 * and the 413 page keep it. Not on static files: they carry their own.
 */
export function setDocumentPolicy(res: ServerResponse, policy: string | null): void {
  if (policy) res.setHeader('Content-Security-Policy', policy);
}

/**
 * Before the app answers: what it does not say otherwise is not to be kept.
 * The middleware marks rendered pages `private, no-store` and endpoints say
 * their own; this covers what Astro answers outside them (the 404 page, a
 * trailing-slash redirect, a bad URL's 400).
 */
export function setAppDefaults(res: ServerResponse, policy: string | null): void {
  setDocumentPolicy(res, policy);
  res.setHeader('Cache-Control', 'no-store');
}
