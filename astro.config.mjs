// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { astroEnvSchema, envDefaults, loadEnv } from './server/env.ts';
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
  adapter: node({ mode: 'standalone', bodySizeLimit: 1024 * 1024 }),
  integrations: [react(), signedInDirective(), islandDirectives()],
  // We keep sessions in SQLite ourselves (src/lib/server/auth/sessions.ts). Astro's
  // own sessions would bake a file-store path into the build.
  session: false,
  // src/middleware.ts refuses every cross-origin state change (forms and JSON
  // alike). Astro's own check would also refuse POSTs that carry no Origin
  // at all, which is how mail providers send RFC 8058 one-click unsubscribes.
  security: { checkOrigin: false },
  trailingSlash: 'never',
  // Pages are written as dir/index.html: a city page and its treatment pages
  // (cities/irvine, cities/irvine/botox) cannot both be files.
  build: { format: 'directory' },
  vite: { plugins: [tailwindcss()] },
  env: {
    // Every variable here is read at run time (access: 'secret') unless it is
    // public: a secret never reaches an island.
    // The table in server/env.ts: defaults, checks, context and access.
    schema: astroEnvSchema(envField),
  },
});
