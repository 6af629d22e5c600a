import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunch, siteWebServer } from '#tests/support/playwright-site.ts';

// The payment tests (npm run test:e2e:payments): the site with Stripe
// configured against the local stand-in (tests/support/stripe-stand-in.ts,
// on E2E_PORT + 1) and a Stripe.js test double served by page.route.
// Separate from playwright.config.ts, whose site runs without Stripe keys.
process.env.E2E_DIR ??= mkdtempSync(join(tmpdir(), 'medspa-e2e-pay-'));
const port = Number(process.env.E2E_PORT ?? 4399);
export const baseURL = `http://127.0.0.1:${port}`;

const chromium = chromiumLaunch;

export const stripeEnv = {
  STRIPE_SECRET_KEY: 'sk_test_e2e_stand_in',
  STRIPE_WEBHOOK_SECRET: 'whsec_e2e_stand_in',
  PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_stand_in',
  STRIPE_API_HOST: '127.0.0.1',
  STRIPE_API_PORT: String(port + 1),
  STRIPE_API_PROTOCOL: 'http',
};

export default defineConfig({
  testDir: 'tests/e2e-payments',
  outputDir: `test-results/${port}-payments`,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: { baseURL, trace: 'retain-on-failure', launchOptions: chromium },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium } }],
  webServer: siteWebServer('node tests/support/payments-server.ts', process.env.E2E_DIR!, port, stripeEnv),
});
