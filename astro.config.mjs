// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { astroEnvSchema, env, loadEnv } from './server/env.ts';
import { LARGEST_BODY } from './src/lib/front-routes.ts';
import { contentSecurityPolicy } from './src/lib/content-security.ts';
import islandDirectives from './src/integrations/island-directives.ts';
import signedInDirective from './src/integrations/signed-in-directive.ts';

loadEnv();

// The public origin, for canonical URLs, OpenGraph tags, sitemap.xml and
// robots.txt. Read at build time because pre-rendered pages bake it in; when
// SITE_URL is not set, loadEnv() made it where the server listens.
const site = env('SITE_URL');

export default defineConfig({
  site,
  output: 'static',
  // middleware: the build's server code is the app alone; server/serve.ts
  // (or nginx) serves the build's files in front of it.
  // The fronts cap bodies per route before Astro sees them (src/lib/front-routes.ts);
  // this is the backstop, at the largest any route takes.
  // staticHeaders: the pre-rendered pages' Content-Security-Policy goes to
  // _headers.json (a header, never a <meta>, which cannot carry
  // frame-ancestors); the fronts send it with each page.
  adapter: node({ mode: 'middleware', bodySizeLimit: LARGEST_BODY, staticHeaders: true }),
  integrations: [react(), signedInDirective(), islandDirectives()],
  // We keep sessions in SQLite ourselves (src/lib/server/auth/sessions.ts). Astro's
  // own sessions would bake a file-store path into the build.
  session: false,
  // src/middleware.ts refuses every cross-origin state change (forms and JSON
  // alike). Astro's own check would also refuse POSTs that carry no Origin
  // at all, which is how mail providers send RFC 8058 one-click unsubscribes.
  // csp: hashes for every script and style Astro bundles, plus our own
  // directives and inline snippets (src/lib/content-security.ts; docs/decisions/0022).
  // Built from the environment at build time: Stripe's and the Google tag's
  // hosts are listed only when they are configured.
  security: { checkOrigin: false, csp: contentSecurityPolicy({ ...process.env, SITE_URL: site }) },
  trailingSlash: 'never',
  // Pages are written as dir/index.html: a city page and its treatment pages
  // (cities/irvine, cities/irvine/botox) cannot both be files.
  // The stylesheet stays a file of its own (docs/decisions/0032-first-paint.md).
  build: { format: 'directory' },
  vite: { plugins: [tailwindcss()] },
  // No Markdown pages; Shiki's inline styles would need 'unsafe-inline' under the policy.
  markdown: { syntaxHighlight: false },
  env: {
    // Every variable here is read at run time (access: 'secret') unless it is
    // public: a secret never reaches an island.
    // The table in server/env.ts: defaults, checks, context and access.
    schema: astroEnvSchema(envField),
  },
});
