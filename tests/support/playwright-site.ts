// What both Playwright configurations (playwright.config.ts and
// playwright.payments.config.ts) share: the Chromium they launch, the site
// they start for a run's folder, and the rest of a run's settings.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import type { SettingName } from '#server/env.ts';
import './astro-env-hook.ts';
import { siteSettings } from './site.ts';

// Debian's chromium-headless-shell, the shell Playwright itself uses for headless
// runs: the same Blink as the full browser, but a new context and a page load
// cost about half the CPU here (29 tests: 57 s against 107 s), which is most
// of what a run spends. CHROMIUM_PATH picks another browser.
const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** The port of a run's site (E2E_PORT); the stand-ins a run needs take the next one. */
export const e2ePort = Number(process.env.E2E_PORT ?? 4399);

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

/**
 * A run of the tests in `testDir` on desktop Chrome against a site of its own:
 * `command` builds and serves it on e2ePort, with `extraEnv` over the test
 * settings, in the run's folder (database, published builds, outbox): a new
 * one named `dirPrefix`…, unless E2E_DIR names it. Workers inherit the variable
 * from the main process, so they all see the same folder.
 */
export function siteRunConfig({
  testDir,
  outputDir,
  dirPrefix,
  command,
  extraEnv = {},
}: {
  testDir: string;
  outputDir: string;
  dirPrefix: string;
  command: string;
  extraEnv?: Partial<Record<SettingName, string>>;
}) {
  process.env.E2E_DIR ??= mkdtempSync(join(tmpdir(), dirPrefix));
  // Each test is a client of its own, named in X-Forwarded-For (./fixtures.ts), which the site believes as it does behind nginx.
  const env = { TRUST_PROXY: '1', ...extraEnv };
  // The workers (which inherit this environment) reach the site's database, outbox and uploads through the project's modules.
  const site = siteSettings(process.env.E2E_DIR, e2ePort, env);
  for (const name of ['DATABASE_PATH', 'UPLOAD_DIR', 'SITE_DIR', 'MAIL_OUTBOX', 'SMTP_URL', 'ANALYTICS_SALT'] as const) process.env[name] = site[name];
  return defineConfig({
    testDir,
    outputDir,
    timeout: 30_000,
    expect: { timeout: 10_000 },
    fullyParallel: true,
    workers: 2,
    forbidOnly: !!process.env.CI,
    reporter: [['list']],
    // A failed test keeps its trace (actions with their errors and call logs,
    // network, console) and a screenshot of the page as it failed, but neither a
    // screencast nor DOM snapshots: recording them for every test, to keep them
    // for the few that fail, cost a quarter of a run's CPU (frames; 29 tests: 40
    // s against 56 s of user and system time) and another tenth (snapshots; 90
    // tests: 157-171 s against 174-197 s, pacct). `--trace on` records everything.
    use: {
      baseURL: `http://127.0.0.1:${e2ePort}`,
      trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
      screenshot: 'only-on-failure',
      launchOptions: chromiumLaunch,
    },
    projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromiumLaunch } }],
    webServer: siteWebServer(command, process.env.E2E_DIR, e2ePort, env),
  });
}
