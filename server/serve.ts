// The production server, on Node's own HTTP server. It serves whichever build
// `SITE_DIR/current` points at and switches to a new one when a rebuild swaps
// the link, without dropping a request (docs/decisions/0002-atomic-publishing.md):
// the build's files through sirv (server/static-site.ts), everything else
// through the app (Astro's node adapter in middleware mode), with the request
// log, request ids, body caps, security headers and a graceful stop here, in
// one place. In production nginx stands in front and serves the files itself
// (deploy/nginx/, docs/decisions/0026); this server then answers the rest.
//
// What it knows of the app's routes it reads from the app (src/lib/front-routes.ts).
// A rebuild of the same code only swaps the files: the server code of the build
// loaded first keeps running, so the process does not grow with rebuilds;
// a build of other code (or other build-time settings) loads that build's code.
import './production-mode.ts';
import compression from 'compression';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import type { Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { msUntilNextPacificMidnight } from '#lib/dates.ts';
import {
  APP_KEEP_ALIVE_SECONDS,
  bodyLimitFor,
  carriesToken,
  largeBodyRoute,
  LIVE_BEFORE_BUILD_PREFIX,
  LONGEST_BODY_SECONDS,
  queryVariantOf,
  SIGNED_IN_VARIANTS,
} from '#lib/front-routes.ts';
import { logEvent, loggablePath, logger } from '#lib/log.ts';
import { CLIENT_ADDRESS_HEADER, clientAddressFrom, parseTrustProxy } from '#lib/proxy.ts';
import { startHousekeeping } from '#lib/server/housekeeping.ts';
import { createMailer, removeUnfinishedOutboxFiles } from '#lib/server/mail/mailer.ts';
import { createMailQueue } from '#lib/server/mail/queue.ts';
import { currentBuildDir, isUnpublished, pinCodeBuild, readBuildInfo, unpinCodeBuild } from '#lib/server/published-site.ts';
import { hasSessionCookie, sessionCookieName } from '#lib/session-cookie.ts';
import { backUp } from './backups.ts';
import { derivedSiteUrl, env, envPath, loadEnv, siteUrlOrigin } from './env.ts';
import { mayReadDetail, processMemory, readiness } from './health.ts';
import { startRebuildQueue, stopBuilds } from './rebuild-queue.ts';
import { closeAfterAnswer, readCappedBody, refuseTooLarge } from './request-body.ts';
import { securityHeadersFor, setAppDefaults } from './security-headers.ts';
import { createStaticSite, type StaticSite } from './static-site.ts';
import { normalTarget, targetUrl } from './targets.ts';

const log = logger('serve');

/** Set by SIGTERM (shutDown below). */
let stopping = false;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The server code of one build: its app handler, and what it was built from. */
interface Code {
  dir: string;
  sourceHash: string | null;
  handler: Handler;
}

/** The build being served: its files, and the code that answers the rest. */
interface Served {
  dir: string;
  id: string;
  builtAt: string | null;
  files: StaticSite;
  code: Code;
}

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
  const siteUrl = env('SITE_URL');
  if (derivedSiteUrl) log.info(`SITE_URL is not set: links in mail and pages use ${derivedSiteUrl}, where the server listens`);
  // The built server reads these through astro:env at run time.
  process.env.DATABASE_PATH = envPath('DATABASE_PATH');
  process.env.SITE_DIR = siteDir;
  process.env.UPLOAD_DIR = envPath('UPLOAD_DIR');
  const db = migrateDatabase(process.env.DATABASE_PATH);
  // With several processes on one database, one runs the jobs (the mail
  // queue's recovery at start, the nightly rebuild and backup); all serve.
  const runsJobs = env('BACKGROUND_JOBS') === 'on';
  if (runsJobs) resumeMailQueue(db);
  // Expired sessions, spent tokens and old rate-limit rows: pruned now and nightly (issue 9, item 11).
  if (runsJobs) startHousekeeping(db);
  // A listing change is live within seconds: debounced rebuilds, and the editors' Rebuild now (docs/decisions/0019).
  if (runsJobs) startRebuildQueue(db.$client, siteDir, { onChange: env('PUBLISH_ON_CHANGE') === 'on' });

  // The one cookie name the app reads (over https it is __Host-session): a
  // stray cookie of the other name must not send "/" to the member home, which
  // would find nobody signed in and send the visitor back, for ever.
  const cookieName = sessionCookieName(siteUrl);
  const signedInVariant = (path: string) => SIGNED_IN_VARIANTS.find((variant) => variant.path === path) ?? null;

  let active: Served | null = null;
  let loading: Promise<void> | null = null;
  let buildsLoaded = 0;

  async function loadCode(dir: string, sourceHash: string | null): Promise<Code> {
    // The adapter must not start a server of its own (it would in standalone mode).
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const entry = pathToFileURL(join(dir, 'server', 'entry.mjs')).href;
    const { handler } = (await import(entry)) as { handler: Handler };
    buildsLoaded++;
    // Its page modules load from its folder as they are first asked for: the folder stays while we run.
    pinCodeBuild(siteDir, dir);
    return { dir, sourceHash, handler };
  }

  async function load(dir: string) {
    const info = readBuildInfo(dir);
    const id = info?.id ?? dir;
    const sourceHash = info?.sourceHash ?? null;
    // The same code: keep what runs. Other code, or a build made by hand without build.json: load it.
    const sameCode = active !== null && sourceHash !== null && active.code.sourceHash === sourceHash;
    const code = sameCode ? active!.code : await loadCode(dir, sourceHash);
    const files = createStaticSite(dir, { varyByCookie: (path) => signedInVariant(path) !== null });
    active = { dir, id, builtAt: info?.builtAt ?? null, files, code };
    log.info(`serving build ${id}${sameCode ? ' (its code is already running)' : ''}`);
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
  const builtFor = readBuildInfo(first)?.siteUrl;
  if (builtFor && builtFor !== siteUrl) {
    log.warn(`the published site was built for ${builtFor}, not ${siteUrl}: its pages link there until \`npm run rebuild\``);
  }

  // Rename events on the site folder mean `current` may have moved; the poll is
  // a safety net for file systems where watching is unreliable.
  watch(siteDir, () => checkForNewBuild()).unref();
  setInterval(checkForNewBuild, 1000).unref();

  // gzip/brotli for what the app renders (pages, JSON): 3-6 times smaller on
  // the wire. The build's files come compressed already. Brotli at 6, as the
  // build's pages (server/precompress.ts), not the library's 4: /search-results
  // is 14,931 bytes instead of 16,346, for about the same time (2 ms), and a
  // page that fits a new connection's first flight saves a round trip
  // (docs/decisions/0032).
  const compress = compression({ threshold: 1024, brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6 } } });
  const trustedProxies = parseTrustProxy(env('TRUST_PROXY'));
  const logRequests = env('REQUEST_LOG') !== 'off';
  // Every answer, static or rendered, an error or a redirect, carries these.
  const securityHeaders = Object.entries(securityHeadersFor(siteUrl));
  const tokenPageHeaders = Object.entries(securityHeadersFor(siteUrl, { tokenPage: true }));
  const origin = siteUrlOrigin(siteUrl);
  // Large bodies (photo uploads) read by their page at once, at most this many (issue 23, item 6).
  const largeBodiesInFlight = new Map<string, number>();

  const server = createServer(async (req, res) => {
    const started = performance.now();
    // Stopping: answer what arrives on an open connection, and close it after,
    // so a keep-alive client goes to the next process instead of keeping this one.
    if (stopping) res.shouldKeepAlive = false;
    const target = req.url ?? '/';
    const url = targetUrl(target, origin);
    for (const [name, value] of carriesToken(url) ? tokenPageHeaders : securityHeaders) res.setHeader(name, value);
    // One id per request, sent back and logged, so a report can be matched to its line.
    const requestId = newRequestId();
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (logRequests) {
      res.once('finish', () =>
        logEvent('http', {
          id: requestId,
          method: req.method,
          path: loggablePath(target),
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
        }),
      );
    }
    const reading = req.method === 'GET' || req.method === 'HEAD';
    // Whatever a client wrote under this name is replaced by what we decided.
    const clientAddress = clientAddressFrom(req.headers['x-forwarded-for'], req.socket.remoteAddress, trustedProxies);
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddress ?? '';
    if (reading && (url.pathname === '/healthz' || url.pathname === '/readyz')) return answerHealth(req, res, url.pathname, clientAddress);

    const { id, files, code } = active!;
    // Which build answered: lets benchmarks and operators see a swap happen.
    res.setHeader('X-Site-Build', id);

    // An address not in its normal form (doubled slashes, dot segments, a
    // trailing slash) is sent to its normal form, always a path on this site:
    // never a Location that a raw client reads as another host (issue 23, item 8).
    const normal = reading ? normalTarget(target) : null;
    if (normal !== null) {
      res.writeHead(301, { Location: normal, 'Cache-Control': 'no-store', 'Content-Length': 0 });
      return res.end();
    }

    const limit = bodyLimitFor(req.method, target);
    // A body where none belongs (a GET's) is not read: the connection closes
    // after the answer, so the body cannot hold it for the photo upload's time.
    if (limit === 0 && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0)) closeAfterAnswer(req, res);
    if (limit > 0) {
      setAppDefaults(res, files.pagePolicy); // the 413 page is HTML too
      if (Number(req.headers['content-length'] ?? 0) > limit) return refuseTooLarge(req, res, limit);
      const large = largeBodyRoute(req.method, target);
      if (large) {
        // Read by the page itself, after it has checked who is asking; the
        // connection closes after the answer, so a body it did not read is not read here either.
        const inFlight = largeBodiesInFlight.get(large.path) ?? 0;
        closeAfterAnswer(req, res);
        if (inFlight >= large.concurrent) {
          res.writeHead(503, { 'Retry-After': '5', 'Content-Type': 'text/plain; charset=utf-8' });
          return res.end('Too many uploads at once. Try again in a few seconds.');
        }
        largeBodiesInFlight.set(large.path, inFlight + 1);
        res.once('close', () => largeBodiesInFlight.set(large.path, (largeBodiesInFlight.get(large.path) ?? 1) - 1));
      } else {
        const body = await readCappedBody(req, res, limit);
        if (!body) return;
        // Astro's node adapter builds the Request from req.body when it is set.
        (req as IncomingMessage & { body?: Buffer }).body = body;
      }
    }

    const app = () => {
      setAppDefaults(res, files.pagePolicy);
      compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => code.handler(req, res));
    };
    if (!reading) return app();
    // A page the app renders when its query names something (/booking?spa=).
    const byQuery = queryVariantOf(url.pathname, url.searchParams);
    if (byQuery) {
      req.url = `${byQuery}${url.search}`;
      return app();
    }
    // A page with a signed-in variant: the app renders that one for a visitor
    // with the session cookie, the file goes to everyone else; caches keep them apart by cookie.
    const variant = signedInVariant(url.pathname);
    if (variant) {
      res.setHeader('Vary', 'Cookie');
      if (hasSessionCookie(req.headers.cookie, cookieName)) {
        req.url = `${variant.signedIn}${url.search}`;
        return app();
      }
    }
    // While a change waits for its build, these pages come from the data (docs/decisions/0025).
    if (url.pathname.startsWith(LIVE_BEFORE_BUILD_PREFIX) && isUnpublished(siteDir)) return app();
    files.serve(req, res, app);
  });
  if (runsJobs) scheduleNightly();

  function answerHealth(req: IncomingMessage, res: ServerResponse, path: string, clientAddress: string | null) {
    let status = 200;
    let shown: object = { status: 'ok' };
    if (path === '/readyz') {
      const body = readiness(db.$client, siteDir, active ? { id: active.id, builtAt: active.builtAt } : null, processMemory(buildsLoaded));
      status = body.ready ? 200 : 503;
      // The detail (build, mail queue, memory) is for the machine's operator: a
      // request from the machine itself, or one that shows READYZ_TOKEN (issue 23, item 9).
      shown = mayReadDetail(clientAddress, req.headers.authorization, env('READYZ_TOKEN')) ? body : { ready: body.ready };
    }
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Site-Build': active?.id ?? '' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(shown));
  }

  // Slow or idle clients may not hold the server: headers must arrive within
  // 10 s, a body within its route's time (30 s but for a photo upload's 180 s:
  // src/lib/front-routes.ts; readCappedBody holds the shorter ones), and there
  // is a cap on open connections.
  server.requestTimeout = LONGEST_BODY_SECONDS * 1000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = APP_KEEP_ALIVE_SECONDS * 1000;
  server.maxConnections = Number(env('MAX_CONNECTIONS'));

  const port = Number(env('PORT'));
  const host = env('HOST');
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  log.info(`listening on http://${host}:${port}`);

  const stop = () => {
    unpinCodeBuild(siteDir);
    stopBuilds();
    shutDown(server);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}

/**
 * A request id: sent back as X-Request-Id and logged, so a report can be
 * matched to its line. Random bytes are drawn 4 KB at a time, not per request.
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

/** How long a stop may take; systemd's default is 90 s, a load balancer's drain often 10-30 s. */
const SHUTDOWN_MS = 8_000;

/**
 * SIGTERM: stop accepting, let requests in flight finish, close idle
 * keep-alive connections at once and busy ones after their answer
 * (`Connection: close`), and cut whatever is still open (a client trickling a
 * byte every few seconds) when the time is up. Mail is durable in
 * the queue: a send cut off here is sent again by the next start.
 */
function shutDown(server: ReturnType<typeof createServer>) {
  stopping = true;
  log.info('stopping: no new connections; waiting for requests in flight');
  const forced = setTimeout(() => {
    log.warn('stopping: time is up; closing the connections still open');
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 200).unref();
  }, SHUTDOWN_MS);
  forced.unref();
  server.close(() => {
    clearTimeout(forced);
    process.exit(0);
  });
  server.closeIdleConnections();
}

// Pre-rendered pages show what was true when they were built: "Expired" on an
// offer, for one. A rebuild just after midnight in Orange County keeps them
// true; then the night's backup of the database (docs/decisions/0011).
function scheduleNightly() {
  const wait = msUntilNextPacificMidnight() + 60_000;
  setTimeout(() => {
    log.info('nightly rebuild');
    spawn('nice', ['-n', '10', process.execPath, 'server/rebuild.ts'], { stdio: 'inherit', env: process.env }).on('exit', (code) => {
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
