// The site under test: a fresh database in this run's folder, seeded with the
// demo directory, published by the real rebuild, served by the real server.
// Playwright starts this process with the site's settings (siteWebServer in
// ./playwright-site.ts).
import { startServer } from '#server/serve.ts';
import { buildSite, prepareSite, type SiteEnv } from './site.ts';

const site = process.env as SiteEnv;
// scripts/test.ts builds the site beside the unit tests (./e2e-build.ts) and says so.
if (process.env.E2E_SITE_BUILT !== '1') {
  prepareSite(site);
  buildSite(site, { stdio: 'inherit' });
}
await startServer();
