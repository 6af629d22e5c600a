// What both Playwright configurations (playwright.config.ts and
// playwright.payments.config.ts) share: the Chromium they launch and the site
// they start for a run's folder.
import type { SettingName } from '#server/env.ts';
import { siteSettings } from './site.ts';

export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** The web server of a run: `command` builds and serves a site in `dir` on `port` (its settings: ./site.ts). */
export function siteWebServer(command: string, dir: string, port: number, extraEnv: Partial<Record<SettingName, string>> = {}) {
  const site = siteSettings(dir, port, extraEnv);
  return {
    command,
    url: `${site.SITE_URL}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    // One line per request would bury the test output (REQUEST_LOG is off); tests that read the log start their own server.
    env: { E2E_DIR: dir, ...site },
  };
}
