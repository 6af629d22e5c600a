// The production server. It serves whichever build `SITE_DIR/current` points at
// and switches to a new one when a rebuild swaps the link, without dropping a
// request: the new build's handler is loaded first, then swapped in; requests
// already running finish on the old one. See docs/decisions/0002-atomic-publishing.md.
import compression from 'compression';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { env, envPath, loadEnv } from './lib/env.ts';
import { createResponseCache } from './lib/response-cache.ts';
import { currentBuildDir, readBuildInfo } from './lib/site-builds.ts';
import { msUntilNextPacificMidnight } from '../src/lib/dates.ts';
import { logger } from '../src/lib/log.ts';
import { startHousekeeping } from '../src/lib/server/housekeeping.ts';
import { createMailQueue } from '../src/lib/server/mail-queue.ts';
import { createMailer, removeUnfinishedOutboxFiles } from '../src/lib/server/mailer.ts';

const log = logger('serve');

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};

/**
 * Mail that a previous process stored but did not send (it was stopped or
 * killed) goes out now; the app's own queue handles what arrives from here on.
 */
function resumeMailQueue(db: Db) {
  const outboxDir = envPath('MAIL_OUTBOX');
  const smtpUrl = process.env.SMTP_URL || undefined;
  // Nothing is being written yet: a half-written message is from a dead process, and its queue row is still unsent.
  if (!smtpUrl) removeUnfinishedOutboxFiles(outboxDir);
  const queue = createMailQueue({ db, mailer: createMailer({ smtpUrl, outboxDir, from: env('MAIL_FROM') }) });
  queue.resumeInterrupted();
  // Sent messages are kept a month, for questions like "did the spa get it?".
  queue.pruneSent(30 * 24 * 3_600_000);
  const left = queue.pending();
  if (left > 0) log.info(`sending ${left} queued message${left === 1 ? '' : 's'} left by the last run`);
  void queue.drain();
}

export async function startServer() {
  loadEnv();
  const siteDir = envPath('SITE_DIR');
  // The built server reads these through astro:env at run time.
  process.env.DATABASE_PATH = envPath('DATABASE_PATH');
  process.env.SITE_DIR = siteDir;
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const db = migrateDatabase(process.env.DATABASE_PATH);
  resumeMailQueue(db);
  // Expired sessions, spent tokens and old rate-limit rows: pruned now and nightly (issue 9, item 11).
  startHousekeeping(db);
  const contentVersion = db.$client.prepare<[], { v: number }>('select content_version as v from site_meta where id = 1');

  let active: { dir: string; id: string; handler: Handler } | null = null;
  let loading: Promise<void> | null = null;

  async function load(dir: string) {
    const entry = pathToFileURL(join(dir, 'server', 'entry.mjs')).href;
    const { handler } = (await import(entry)) as { handler: Handler };
    const id = readBuildInfo(dir)?.id ?? dir;
    active = { dir, id, handler };
    log.info(`serving build ${id}`);
  }

  function checkForNewBuild() {
    if (loading) return;
    const dir = currentBuildDir(siteDir);
    if (!dir || dir === active?.dir) return;
    loading = load(dir)
      .catch((error: unknown) => log.error(`could not load build ${dir}`, error))
      .finally(() => (loading = null));
  }

  const first = currentBuildDir(siteDir);
  if (!first) throw new Error(`No published site in ${siteDir}. Run \`npm run rebuild\` (or \`npm start\`) first.`);
  await load(first);

  // Rename events on the site folder mean `current` may have moved; the poll is
  // a safety net for file systems where watching is unreliable.
  watch(siteDir, () => checkForNewBuild()).unref();
  setInterval(checkForNewBuild, 1000).unref();

  // gzip/brotli for HTML, CSS, JS, SVG and JSON: pages are 3-6 times smaller on the wire.
  const compress = compression({ threshold: 1024 });
  const searchCache = createResponseCache();

  const server = createServer((req, res) => {
    const { id, handler } = active!;
    // Signed-in visitors get the member home; everyone else the pre-rendered one.
    if (isHomeRequest(req) && hasSessionCookie(req)) req.url = `/member${req.url!.slice(1)}`;
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    // Which build answered: lets benchmarks and operators see a swap happen.
    res.setHeader('X-Site-Build', id);
    // A build swap or a listing change starts the search cache afresh.
    const generation = `${id}:${contentVersion.get()?.v ?? 0}`;
    if (searchCache.serve(req, res, generation)) return;
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      searchCache.capture(req, res, generation);
      handler(req, res);
    });
  });
  scheduleNightlyRebuild();

  const port = Number(env('PORT'));
  const host = env('HOST');
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  log.info(`listening on http://${host}:${port}`);

  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=[^;]/;
const hasSessionCookie = (req: IncomingMessage) => SESSION_COOKIE.test(req.headers.cookie ?? '');
const isHomeRequest = (req: IncomingMessage) => (req.method === 'GET' || req.method === 'HEAD') && /^\/(?:\?|$)/.test(req.url ?? '');

// Pre-rendered pages show what was true when they were built: "Expired" on an
// offer, for one. A rebuild just after midnight in Orange County keeps them true.
function scheduleNightlyRebuild() {
  const wait = msUntilNextPacificMidnight() + 60_000;
  setTimeout(() => {
    log.info('nightly rebuild');
    spawn(process.execPath, ['scripts/publish.ts'], { stdio: 'inherit', env: process.env }).on('exit', () => scheduleNightlyRebuild());
  }, wait).unref();
}

if (import.meta.main) {
  startServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
