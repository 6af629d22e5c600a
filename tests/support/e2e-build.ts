// Builds a browser-test run's site ahead of the run: its database and its
// published build, made with exactly the settings the run's web server gets
// (the Playwright configuration named on the command line, with E2E_DIR and
// E2E_PORT from the environment). scripts/test.ts runs this beside the unit
// tests and then starts the run with E2E_SITE_BUILT=1, so the web server
// (./e2e-server.ts, ./payments-server.ts) only starts serving.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSite, prepareSite, type SiteSettings } from './site.ts';

const configFile = process.argv[2];
if (!configFile || !process.env.E2E_DIR) throw new Error('usage: E2E_DIR=... E2E_PORT=... node tests/support/e2e-build.ts <playwright config>');
const { default: config } = (await import(pathToFileURL(resolve(configFile)).href)) as { default: { webServer: { env: SiteSettings } } };
const site = config.webServer.env;
prepareSite(site);
const ms = buildSite(site, { stdio: 'inherit' });
console.log(`e2e-build: ${configFile}'s site built in ${site.SITE_DIR} in ${Math.round(ms / 100) / 10} s`);
