// What both Playwright configurations (playwright.config.ts and
// playwright.payments.config.ts) share: the Chromium they launch and the site
// they start for a run's folder.
import { join } from 'node:path';

export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** The web server of a run: `command` builds and serves a site in `dir` on `port`. */
export function siteWebServer(command: string, dir: string, port: number, extraEnv: Record<string, string> = {}) {
  const baseURL = `http://127.0.0.1:${port}`;
  return {
    command,
    url: `${baseURL}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    env: {
      E2E_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: baseURL,
      DATABASE_PATH: join(dir, 'site.db'),
      SITE_DIR: join(dir, 'site'),
      MAIL_OUTBOX: join(dir, 'outbox'),
      UPLOAD_DIR: join(dir, 'uploads'),
      REBUILD_LOG_LEVEL: 'warn',
      // One line per request would bury the test output; tests that read the log start their own server.
      REQUEST_LOG: 'off',
      ...extraEnv,
    },
  };
}
