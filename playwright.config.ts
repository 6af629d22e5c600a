import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunch, siteWebServer } from '#tests/support/playwright-site.ts';

// Each run gets its own folder: database, published builds, outbox. Workers
// inherit the variable from the main process, so they all see the same one.
process.env.E2E_DIR ??= mkdtempSync(join(tmpdir(), 'medspa-e2e-'));
const port = Number(process.env.E2E_PORT ?? 4399);
export const baseURL = `http://127.0.0.1:${port}`;

const chromium = chromiumLaunch;

export default defineConfig({
  testDir: 'tests/e2e',
  // One folder per port, so runs side by side do not delete each other's artifacts.
  outputDir: `test-results/${port}`,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: { baseURL, trace: 'retain-on-failure', launchOptions: chromium },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium } }],
  // tests/support/site.ts sets the rest: the tests' own ANALYTICS_SALT (they clear the limits of
  // 127.0.0.1 between tests) and no publishing on change (tests run `npm run rebuild` themselves;
  // admin.spec.ts starts a server of its own with it on).
  webServer: siteWebServer('node tests/support/e2e-server.ts', process.env.E2E_DIR!, port, {
    // Social cards ask a local oEmbed stand-in (tests/e2e/photos.spec.ts starts it on the next port).
    OEMBED_ENDPOINTS: `youtube=http://127.0.0.1:${port + 1}/oembed,tiktok=http://127.0.0.1:${port + 1}/oembed`,
    OEMBED_ALLOW_LOOPBACK: 'on',
  }),
});
