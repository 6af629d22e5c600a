// What the end-to-end tests know about the site under test (see playwright.config.ts).
import { siteProcessEnv, siteSettings, TEST_ANALYTICS_SALT } from './site.ts';

export const e2eDir = process.env.E2E_DIR!;
const port = Number(process.env.E2E_PORT ?? 4399);
/** The settings the Playwright web server runs the site with (playwright.config.ts). */
export const site = siteSettings(e2eDir, port);
export const databasePath = site.DATABASE_PATH;
export const siteDir = site.SITE_DIR;
export const baseURL = site.SITE_URL;

/** The environment a script (a rebuild, another server) needs to act on the site under test. */
export const siteEnv = siteProcessEnv(site);

/** The server's ANALYTICS_SALT, so tests can name a client's rate-limit rows. */
export const analyticsSalt = TEST_ANALYTICS_SALT;
