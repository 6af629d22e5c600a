// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { envDefaults, loadEnv } from '#server/env.ts';
import { contentSecurityPolicy } from '#lib/content-security.ts';
import islandDirectives from './src/integrations/island-directives.ts';
import signedInDirective from './src/integrations/signed-in-directive.ts';

loadEnv();

// The public origin, for canonical URLs, OpenGraph tags and sitemap.xml. Read at
// build time because pre-rendered pages bake it in.
const site = process.env.SITE_URL || envDefaults.SITE_URL;

export default defineConfig({
  site,
  output: 'static',
  // server/serve.ts caps bodies per route before Astro sees them; this is the
  // backstop for anything that reaches the adapter another way.
  // staticHeaders: the pre-rendered pages' Content-Security-Policy goes to
  // _headers.json (a header, never a <meta>, which cannot carry
  // frame-ancestors); the publish step copies it into the static manifest.
  adapter: node({ mode: 'standalone', bodySizeLimit: 1024 * 1024, staticHeaders: true }),
  integrations: [react(), signedInDirective(), islandDirectives()],
  // We keep sessions in SQLite ourselves (src/lib/server/auth/sessions.ts). Astro's
  // own sessions would bake a file-store path into the build.
  session: false,
  // src/middleware.ts refuses every cross-origin state change (forms and JSON
  // alike). Astro's own check would also refuse POSTs that carry no Origin
  // at all, which is how mail providers send RFC 8058 one-click unsubscribes.
  // csp: hashes for every script and style Astro bundles, plus our own
  // directives and inline snippets (src/lib/content-security.ts; docs/decisions/0017).
  // Built from the environment at build time: Stripe's and the Google tag's
  // hosts are listed only when they are configured.
  security: { checkOrigin: false, csp: contentSecurityPolicy({ ...process.env, SITE_URL: site }) },
  trailingSlash: 'never',
  // Pages are written as dir/index.html: a city page and its treatment pages
  // (cities/irvine, cities/irvine/botox) cannot both be files.
  build: { format: 'directory' },
  vite: { plugins: [tailwindcss()] },
  // No Markdown pages; Shiki's inline styles would need 'unsafe-inline' under the policy.
  markdown: { syntaxHighlight: false },
  env: {
    // Every variable here is read at run time (access: 'secret') unless it is
    // public: a secret never reaches an island.
    schema: {
      DATABASE_PATH: envField.string({ context: 'server', access: 'secret', default: envDefaults.DATABASE_PATH }),
      SITE_DIR: envField.string({ context: 'server', access: 'secret', default: envDefaults.SITE_DIR }),
      MAIL_OUTBOX: envField.string({ context: 'server', access: 'secret', default: envDefaults.MAIL_OUTBOX }),
      MAIL_FROM: envField.string({ context: 'server', access: 'secret', default: envDefaults.MAIL_FROM }),
      SMTP_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      // How many reverse proxies stand in front of the server (0: none). Only
      // then are X-Forwarded-For and an https Origin believed (src/lib/proxy.ts).
      TRUST_PROXY: envField.string({ context: 'server', access: 'secret', default: envDefaults.TRUST_PROXY }),
      // Salt for the hashed visitor addresses in analytics_events. Set a long
      // random value in production: with the default anyone can rebuild the hashes.
      // A page-analytics tag (Google tag id, e.g. G-XXXX). Unset: no tag, and
      // pages without islands ship no JavaScript at all.
      PUBLIC_PAGE_ANALYTICS_ID: envField.string({ context: 'client', access: 'public', optional: true }),
      ANALYTICS_SALT: envField.string({ context: 'server', access: 'secret', default: 'dev-only-analytics-salt' }),
      // "Continue with Google" appears only when both credentials are set. The
      // endpoints default to Google's; tests point them at a local server.
      GOOGLE_CLIENT_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      GOOGLE_CLIENT_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      GOOGLE_AUTHORIZATION_URL: envField.string({ context: 'server', access: 'secret', url: true, default: 'https://accounts.google.com/o/oauth2/v2/auth' }),
      GOOGLE_TOKEN_URL: envField.string({ context: 'server', access: 'secret', url: true, default: 'https://oauth2.googleapis.com/token' }),
      GOOGLE_USERINFO_URL: envField.string({ context: 'server', access: 'secret', url: true, default: 'https://openidconnect.googleapis.com/v1/userinfo' }),
      // Stripe (src/lib/server/billing/billing.ts). No secret key: pages that pay say
      // "payments are not configured" and the payment endpoints answer 503.
      STRIPE_SECRET_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_WEBHOOK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      // Only to send API calls to a local stand-in (tests); unset means api.stripe.com.
      STRIPE_API_HOST: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_API_PORT: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_API_PROTOCOL: envField.string({ context: 'server', access: 'secret', optional: true }),
      // The browser's key for Stripe.js (the card form). Public by design.
      PUBLIC_STRIPE_PUBLISHABLE_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
    },
  },
});
