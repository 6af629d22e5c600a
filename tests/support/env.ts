// What the end-to-end tests know about the site under test (see playwright.config.ts).
import { join } from 'node:path';

export const e2eDir = process.env.E2E_DIR!;
export const databasePath = join(e2eDir, 'site.db');
export const siteDir = join(e2eDir, 'site');
export const baseURL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}`;

/** The environment a script needs to act on the site under test. */
export const siteEnv = {
  ...process.env,
  DATABASE_PATH: databasePath,
  SITE_DIR: siteDir,
  SITE_URL: baseURL,
  REBUILD_LOG_LEVEL: 'warn',
  // A second server a test starts on this site (another port, another SITE_URL)
  // must not publish into the shared SITE_DIR on its own: its pages would carry
  // its own origin. A test that wants publishing on change gives it its own site.
  PUBLISH_ON_CHANGE: 'off',
};

/** The server's ANALYTICS_SALT (set in playwright.config.ts), so tests can name a client's rate-limit rows. */
export const analyticsSalt = 'e2e-analytics-salt';
