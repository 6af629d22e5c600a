// A throw-away site for a test run or a benchmark, in one folder: its
// settings, its database, its build and its server. The Playwright
// configurations (./playwright-site.ts), the e2e support (./env.ts,
// ./server-copy.ts, ./e2e-server.ts) and every benchmark (scripts/lib/bench-kit.ts)
// build a site's environment here, from the settings table (server/env.ts),
// so a setting added there reaches them all the same way.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { closeDatabase } from '#db/client.ts';
import { prepareDatabase } from '#db/prepare.ts';
import { envDefaults, settings, type SettingName } from '#server/env.ts';

/** The key of client addresses in every test site (tests compute a client's rate-limit rows with it, tests/support/limits.ts). */
export const TEST_ANALYTICS_SALT = 'e2e-analytics-salt';

export type SiteSettings = Record<'DATABASE_PATH' | 'SITE_DIR' | 'MAIL_OUTBOX' | 'UPLOAD_DIR' | 'BACKUP_DIR' | 'SITE_URL' | 'PORT' | 'HOST', string> &
  Partial<Record<SettingName, string>>;

/**
 * The settings of a site whose files all live in `dir` (named as the defaults
 * name them: site.db, site, outbox, uploads, backups), served on 127.0.0.1:`port`:
 * mail to files (never the caller's SMTP), no request log, quiet builds, the
 * tests' analytics key. `extra` wins; every value must pass the table's check.
 */
export function siteSettings(dir: string, port: number, extra: Partial<Record<SettingName, string>> = {}): SiteSettings {
  const inDir = (name: SettingName) => join(dir, basename(envDefaults[name]));
  const values: SiteSettings = {
    DATABASE_PATH: inDir('DATABASE_PATH'),
    SITE_DIR: inDir('SITE_DIR'),
    MAIL_OUTBOX: inDir('MAIL_OUTBOX'),
    UPLOAD_DIR: inDir('UPLOAD_DIR'),
    BACKUP_DIR: inDir('BACKUP_DIR'),
    SITE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    SMTP_URL: '',
    REQUEST_LOG: 'off',
    REBUILD_LOG_LEVEL: 'warn',
    ANALYTICS_SALT: TEST_ANALYTICS_SALT,
    // Tests and benchmarks publish when they say so (npm run rebuild), and a
    // second server started on a site must not republish it with its own
    // origin; the tests of publishing on change turn it on for a site of their own.
    PUBLISH_ON_CHANGE: 'off',
    ...extra,
  };
  for (const [name, value] of Object.entries(values) as [SettingName, string][]) {
    const setting: { default: string; check?: (value: string) => string | null } = settings[name];
    const check = setting.check;
    const problem = value === '' ? null : check?.(value);
    if (problem) throw new Error(`test site: ${name}=${JSON.stringify(value)} ${problem}`);
  }
  return values;
}

/** The environment of a process acting on the site (this process's, with the site's settings over it). */
export type SiteEnv = NodeJS.ProcessEnv & SiteSettings;
export const siteProcessEnv = (site: SiteSettings): SiteEnv => ({ ...process.env, ...site });

/** Migrates the site's database and seeds the demo directory into it (when it has no spas yet). */
export function prepareSite(site: SiteSettings): void {
  mkdirSync(site.MAIL_OUTBOX, { recursive: true });
  prepareDatabase(site.DATABASE_PATH);
  // The build and the server open it themselves.
  closeDatabase(site.DATABASE_PATH);
}

/** Publishes the site (server/rebuild.ts, as `npm run rebuild` does); returns the milliseconds it took. Throws when it fails. */
export function buildSite(site: SiteSettings, { stdio = 'quiet' }: { stdio?: 'quiet' | 'inherit' } = {}): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['server/rebuild.ts'], {
    env: siteProcessEnv(site),
    stdio: stdio === 'inherit' ? 'inherit' : ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  if (result.status !== 0) throw new Error(`publishing the site failed (${result.error?.message ?? `exit ${result.status}`})`);
  return performance.now() - started;
}

/**
 * buildSite for a process that keeps working meanwhile (a benchmark's load
 * clients): a build takes seconds, and a process held that long by spawnSync
 * wakes up to kept-alive connections the server has closed in the meantime.
 */
export async function buildSiteAlongside(site: SiteSettings): Promise<void> {
  const { status, error } = await new Promise<{ status: number | null; error?: Error }>((resolve) => {
    const child = spawn(process.execPath, ['server/rebuild.ts'], { env: siteProcessEnv(site), stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
    child.once('error', (e) => resolve({ status: null, error: e }));
    child.once('exit', (code) => resolve({ status: code }));
  });
  if (status !== 0) throw new Error(`publishing the site failed (${error?.message ?? `exit ${status}`})`);
}

/**
 * How the tests and benchmarks start the server: as production does
 * (package.json's start and serve, docs/deploy.md), with V8's heap sized for
 * the server, not for the machine (docs/decisions/0011).
 */
export const SERVER_ARGS = ['--max-semi-space-size=4', '--max-old-space-size=512', 'server/serve.ts'];

export interface RunningSite {
  child: ChildProcess;
  /** Everything the server printed so far. */
  output: () => string;
  /** SIGTERM, and resolves once the process has exited (SIGKILL after 5 s: a stuck connection must not hang a run). */
  stop: () => Promise<void>;
}

/** Starts the site's server and resolves once it says it listens (rejects if it exits first, or after `timeoutMs`). */
export async function startSite(site: SiteSettings, { timeoutMs = 120_000 }: { timeoutMs?: number } = {}): Promise<RunningSite> {
  const child = spawn(process.execPath, SERVER_ARGS, { env: siteProcessEnv(site), stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${timeoutMs / 1000} s: ${log.slice(-500)}`)), timeoutMs);
    const onData = (data: Buffer) => {
      // Only the start-up is kept in full; after that a long run's request log would grow without end.
      if (log.length < 1_000_000) log += data.toString();
      if (log.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}): ${log.slice(-500)}`));
    });
  });
  return {
    child,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
