// The production server. It serves whichever build `SITE_DIR/current` points at
// and switches to a new one when a rebuild swaps the link, without dropping a
// request: the new build's handler is loaded first, then swapped in; requests
// already running finish on the old one. See docs/decisions/0002-atomic-publishing.md.
import compression from 'compression';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createFastLane, type FastLane, type LaneAnswer } from './fast-lane.ts';
import type { SimpleRequest } from './request-head.ts';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { env, envPath, loadEnv } from './env.ts';
import { bodyLimitFor, readCappedBody } from './request-body.ts';
import { createResponseCache } from './response-cache.ts';
import { currentBuildDir, FRESH_SPA_PAGE, readBuildInfo } from '#lib/server/published-site.ts';
import { startRebuildQueue } from './rebuild-queue.ts';
import { msUntilNextPacificMidnight } from '#lib/dates.ts';
import { CLIENT_ADDRESS_HEADER, clientAddressFrom, parseTrustProxy } from '#lib/proxy.ts';
import { hasSessionCookie, sessionCookieName } from '#lib/session-cookie.ts';
import { SLUG_PATTERN } from '#lib/slug.ts';
import { logEvent, loggablePath, logger } from '#lib/log.ts';
import { backUp } from './backups.ts';
import { processMemory, readiness, type Readiness } from './health.ts';
import { createStaticServer, type StaticServer } from './static-files.ts';
import { securityHeadersFor, setAppDefaults, setDocumentPolicy } from './security-headers.ts';
import { startHousekeeping } from '#lib/server/housekeeping.ts';
import { createMailQueue } from '#lib/server/mail/queue.ts';
import { createMailer, removeUnfinishedOutboxFiles } from '#lib/server/mail/mailer.ts';

const log = logger('serve');

/** Set by SIGTERM (shutDown below). */
let stopping = false;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

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
  process.env.UPLOAD_DIR = envPath('UPLOAD_DIR');
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const db = migrateDatabase(process.env.DATABASE_PATH);
  // With several processes on one database, one runs the jobs (the mail
  // queue's recovery at start, the nightly rebuild and backup); all serve.
  const runsJobs = env('BACKGROUND_JOBS') === 'on';
  if (runsJobs) resumeMailQueue(db);
  // Expired sessions, spent tokens and old rate-limit rows: pruned now and nightly (issue 9, item 11).
  if (runsJobs) startHousekeeping(db);
  // A listing change is live within seconds: debounced rebuilds, and the editors' Rebuild now (docs/decisions/0019).
  const publishOnChange = env('PUBLISH_ON_CHANGE') === 'on';
  if (runsJobs) startRebuildQueue(db.$client, siteDir, { onChange: publishOnChange });
  const contentVersion = db.$client.prepare<[], { v: number }>('select content_version as v from site_meta where id = 1');
  const dataVersion = () => contentVersion.get()?.v ?? 0;

  let active: { dir: string; id: string; builtAt: string | null; publishedVersion: number; handler: Handler; files: StaticServer } | null = null;
  let loading: Promise<void> | null = null;
  let buildsLoaded = 0;

  async function load(dir: string) {
    const entry = pathToFileURL(join(dir, 'server', 'entry.mjs')).href;
    const { handler } = (await import(entry)) as { handler: Handler };
    buildsLoaded++;
    const info = readBuildInfo(dir);
    const id = info?.id ?? dir;
    const files = createStaticServer(join(dir, 'client'));
    // At start the build's files are read into memory before the server
    // listens, so the first visitors get the fast lane too. A new build is
    // served at once, and warms while it serves: until a file is in memory
    // the full handler reads it from disk.
    const warming = files.warm().then(({ files: count, bytes }) => log.info(`build ${id}: ${count} files, ${Math.round(bytes / 1024)} KB in memory`));
    if (!active) await warming;
    const replaced = active?.files;
    active = {
      dir,
      id,
      builtAt: info?.builtAt ?? null,
      // A build without build.json (made by hand) is taken as current.
      publishedVersion: info?.contentVersion ?? Number.POSITIVE_INFINITY,
      handler,
      files,
    };
    log.info(`serving build ${id}`);
    replaced?.release();
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

  const trustedProxies = parseTrustProxy(env('TRUST_PROXY'));
  // The one cookie name the app reads (over https it is __Host-session): a
  // stray cookie of the other name must not send "/" to the member home, which
  // would find nobody signed in and send the visitor back, for ever.
  const cookieName = sessionCookieName(env('SITE_URL'));

  const logRequests = env('REQUEST_LOG') !== 'off';
  // Every answer, static or rendered, an error or a redirect, carries these.
  const securityHeaders = Object.entries(securityHeadersFor(env('SITE_URL')));
  const securityHeaderLines = securityHeaders.map(([name, value]) => `${name}: ${value}\r\n`).join('');

  /**
   * The fast lane's answer (server/fast-lane.ts): what the request handler
   * below would answer for a pre-rendered page or asset whose bytes are in
   * memory, with the same headers and log line; null where that handler has
   * more to decide (health, a signed-in home, a fresh spa page, a stop).
   */
  function laneAnswer(request: SimpleRequest): LaneAnswer | null {
    const started = performance.now();
    if (stopping || isHealthTarget(request.target)) return null;
    const home = isHomeTarget(request.target);
    if (home && hasSessionCookie(request.cookie, cookieName)) return null;
    const { id, files, publishedVersion } = active!;
    if (publishOnChange && spaPageTarget(request.method, request.target) && dataVersion() > publishedVersion) return null;
    if (bookingForSpaTarget(request.method, request.target)) return null;
    const file = files.resolve(request.method, request.target, request.acceptEncoding, request.ifNoneMatch);
    if (!file || (!file.bodiless && !file.body)) return null;
    const requestId = newRequestId();
    // In the order the handler below sends them.
    const headerLines = `${securityHeaderLines}X-Request-Id: ${requestId}\r\n${home ? 'Vary: Cookie\r\n' : ''}X-Site-Build: ${id}\r\n${file.headerLines}`;
    if (logRequests) {
      logEvent('http', {
        id: requestId,
        method: request.method,
        path: loggablePath(request.target),
        status: file.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
    return { status: file.status, headerLines, body: file.bodiless ? null : file.body };
  }

  const server = createServer(async (req, res) => {
    const started = performance.now();
    // Stopping: answer what arrives on an open connection, and close it after,
    // so a keep-alive client goes to the next process instead of keeping this one.
    if (stopping) res.shouldKeepAlive = false;
    // One id per request, sent back and logged, so a report can be matched to its line.
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    const requestId = newRequestId();
    const originalUrl = req.url ?? '/';
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (logRequests) {
      res.once('finish', () =>
        logEvent('http', {
          id: requestId,
          method: req.method,
          path: loggablePath(originalUrl),
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
        }),
      );
    }
    const reading = isRead(req.method);
    if (reading && isHealthTarget(originalUrl)) return answerHealth(req, res);

    const limit = bodyLimitFor(req.method, req.url);
    if (limit > 0) {
      setDocumentPolicy(res, active!.files.documentPolicy); // the 413 page is HTML too
      const body = await readCappedBody(req, res, limit);
      if (!body) return;
      // Astro's node adapter builds the Request from req.body when it is set.
      (req as IncomingMessage & { body?: Buffer }).body = body;
    }
    // Whatever a client wrote under this name is replaced by what we decided.
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddressFrom(req.headers['x-forwarded-for'], req.socket.remoteAddress, trustedProxies) ?? '';

    const { id, handler, files, publishedVersion } = active!;
    // Signed-in visitors get the member home; everyone else the pre-rendered
    // one. Both answer at "/", so caches must keep them apart by cookie.
    if (reading && isHomeTarget(originalUrl)) {
      res.setHeader('Vary', 'Cookie');
      if (hasSessionCookie(req.headers.cookie, cookieName)) req.url = `/member${req.url!.slice(1)}`;
    }
    // Which build answered: lets benchmarks and operators see a swap happen.
    res.setHeader('X-Site-Build', id);
    // Pre-rendered pages and assets, precompressed, from memory where hot. A
    // spa page is rendered from the data instead while publishing on change
    // is on and the data is ahead of this build, so a listing change is live
    // before its rebuild lands (docs/decisions/0025).
    if (req.headers[FRESH_SPA_PAGE.header] !== undefined) delete req.headers[FRESH_SPA_PAGE.header];
    const spaPage = publishOnChange ? spaPageTarget(req.method, req.url ?? '/') : null;
    const freshSpaPage = spaPage && dataVersion() > publishedVersion ? spaPage : null;
    // /booking?spa={id} is the spa's booking, rendered on request; plain /booking is a file.
    const bookingPage = bookingForSpaTarget(req.method, req.url ?? '/');
    if (!freshSpaPage && !bookingPage && files.serve(req, res)) return;
    // A build swap or a listing change starts the cache of rendered answers afresh.
    const generation = `${id}:${dataVersion()}`;
    if (searchCache.serve(req, res, generation)) return;
    setAppDefaults(res, files.documentPolicy);
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      searchCache.capture(req, res, generation); // under the address asked for
      if (freshSpaPage) {
        req.headers[FRESH_SPA_PAGE.header] = '1';
        req.url = `${FRESH_SPA_PAGE.pathPrefix}${freshSpaPage.slug}${freshSpaPage.query}`;
      }
      if (bookingPage) req.url = bookingPage;
      handler(req, res);
    });
  });
  if (runsJobs) scheduleNightly();

  function answerHealth(req: IncomingMessage, res: ServerResponse) {
    const path = req.url!.split('?')[0];
    const body =
      path === '/healthz'
        ? { status: 'ok' }
        : readiness(db.$client, siteDir, active ? { id: active.id, builtAt: active.builtAt } : null, processMemory(buildsLoaded));
    const status = path === '/healthz' || (body as Readiness).ready ? 200 : 503;
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Site-Build': active?.id ?? '' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  }

  // Slow or idle clients may not hold the server: a request must arrive whole
  // within 30 s (headers within 10 s), and there is a cap on open connections.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = Number(env('MAX_CONNECTIONS'));

  // The lane accepts the connections and answers the hot static requests;
  // `server` gets every connection at its first request that is anything else.
  const lane = createFastLane({
    http: server,
    answer: laneAnswer,
    headersTimeoutMs: server.headersTimeout,
    keepAliveTimeoutMs: server.keepAliveTimeout,
    maxConnections: server.maxConnections,
  });

  const port = Number(env('PORT'));
  const host = env('HOST');
  await new Promise<void>((resolve) => lane.server.listen(port, host, resolve));
  log.info(`listening on http://${host}:${port}`);

  process.once('SIGTERM', () => shutDown(lane));
  process.once('SIGINT', () => shutDown(lane));
  return lane.server;
}

/**
 * A request id: sent back as X-Request-Id and logged, so a report can be
 * matched to its line. Random bytes are drawn 4 KB at a time: one draw per
 * request cost a seventh of the static lane's time.
 */
let idPool = Buffer.alloc(0);
let idOffset = 0;
function newRequestId(): string {
  if (idOffset + 8 > idPool.length) {
    idPool = randomBytes(4096);
    idOffset = 0;
  }
  idOffset += 8;
  return idPool.toString('hex', idOffset - 8, idOffset);
}

const isRead = (method: string | undefined) => method === 'GET' || method === 'HEAD';

const isHealthTarget = (target: string) => /^\/(?:healthz|readyz)(?:\?|$)/.test(target);

/** How long a stop may take; systemd's default is 90 s, a load balancer's drain often 10-30 s. */
const SHUTDOWN_MS = 8_000;

/**
 * SIGTERM: stop accepting, let requests in flight finish, close idle
 * keep-alive connections at once and busy ones after their answer
 * (`Connection: close`), and cut whatever is still open (a client trickling a
 * byte every few seconds) when the time is up. Mail is durable in
 * the queue: a send cut off here is sent again by the next start.
 */
function shutDown(lane: FastLane) {
  stopping = true;
  log.info('stopping: no new connections; waiting for requests in flight');
  const forced = setTimeout(() => {
    log.warn('stopping: time is up; closing the connections still open');
    lane.closeAll();
    setTimeout(() => process.exit(0), 200).unref();
  }, SHUTDOWN_MS);
  forced.unref();
  lane.close(() => {
    clearTimeout(forced);
    process.exit(0);
  });
}

/** A spa's page, /spas/{slug} with or without a query: its slug and query. */
function spaPageTarget(method: string | undefined, target: string): { slug: string; query: string } | null {
  if (!isRead(method)) return null;
  const match = /^\/spas\/([^/?]+)(\?.*)?$/.exec(target);
  return match && SLUG_PATTERN.test(match[1]!) ? { slug: match[1]!, query: match[2] ?? '' } : null;
}

/**
 * /booking?spa={id} (with or without more of a query): where the on-request
 * page that renders it lives (src/pages/booking/for-spa.astro), else null.
 * The node adapter would answer the pre-rendered /booking for it.
 */
function bookingForSpaTarget(method: string | undefined, target: string): string | null {
  if (!isRead(method)) return null;
  const match = /^\/booking\/?\?(.*)$/.exec(target);
  return match && /(?:^|&)spa=/.test(match[1]!) ? `/booking/for-spa?${match[1]}` : null;
}

const isHomeTarget = (target: string) => /^\/(?:\?|$)/.test(target);

// Pre-rendered pages show what was true when they were built: "Expired" on an
// offer, for one. A rebuild just after midnight in Orange County keeps them
// true; then the night's backup of the database (docs/decisions/0011).
function scheduleNightly() {
  const wait = msUntilNextPacificMidnight() + 60_000;
  setTimeout(() => {
    log.info('nightly rebuild');
    spawn(process.execPath, ['server/rebuild.ts'], { stdio: 'inherit', env: process.env }).on('exit', (code) => {
      logEvent('job', { job: 'nightly-rebuild', ok: code === 0 });
      const started = performance.now();
      backUp(envPath('DATABASE_PATH'), envPath('BACKUP_DIR'), new Date(), { uploadDir: envPath('UPLOAD_DIR') })
        .then((result) =>
          logEvent('job', {
            job: 'nightly-backup',
            ok: true,
            bytes: result.bytes,
            removed: result.removed.length,
            ms: Math.round(performance.now() - started),
          }),
        )
        .catch((error: unknown) => {
          logEvent('job', { job: 'nightly-backup', ok: false });
          log.error('nightly backup failed', error);
        })
        .finally(() => scheduleNightly());
    });
  }, wait).unref();
}

if (import.meta.main) {
  startServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
