// `npm run bench` (third part): POST /api/bookings under load, under a crash and
// under bad input. Writes the figures to data/bench/bookings.json.
//   1. Load: bursts of 500 valid requests started at once (--burst, --rounds).
//      Every one must answer 201 and leave exactly one booking and one lead.
//      Reported: how long after the last 201 the mail queue was empty.
//   2. Kill: a steady stream of valid requests (--workers); once it has run
//      --kill-ms and --kill-after bookings were answered 201, the server's
//      process group gets SIGKILL.
//      The server is started again on the same database, and every booking that
//      was answered 201 must be there, with its lead. Once the new process has
//      emptied the mail queue (within 60 s), both messages of every booking
//      answered 201 must be in the queue, sent, and in the outbox, and no
//      half-written .partial file may be left. A message sent twice (its attempt
//      was cut off after the file was in place) is counted, not failed.
//   3. Malformed: a few hundred systematically broken requests (bad JSON, wrong
//      types, invalid text, oversized bodies, wrong content types, cross-origin).
//      None may answer 5xx and none may create a row.
// The process exits 1 when a bar is missed, so the command is a real check.
// Talks to 127.0.0.1 only; every wait polls a condition and has a deadline.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { closeDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemo } from '#db/seed.ts';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { percentile, round, runBenchmark, SERVER_ARGS } from './lib/bench-kit.ts';

const log = logger('bench-bookings');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4397' },
    burst: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '32' },
    // The kill comes once the stream has run this long and this many bookings were answered 201.
    'kill-ms': { type: 'string', default: '1500' },
    'kill-after': { type: 'string', default: '300' },
    // For working on one part without waiting for the others; `npm run bench` runs all.
    only: { type: 'string' },
  },
});
const parts = new Set((values.only ?? 'load,kill,malformed').split(','));
for (const name of ['port', 'burst', 'rounds', 'workers', 'kill-ms', 'kill-after'] as const) {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) {
    log.error(`--${name} must be a positive whole number`);
    process.exit(2);
  }
}

const port = Number(values.port);
const origin = `http://127.0.0.1:${port}`;
const BODY_LIMIT = 16_384; // src/pages/api/bookings/index.ts
const REQUEST_TIMEOUT_MS = 30_000;

const work = mkdtempSync(join(tmpdir(), 'medspa-bench-bookings-'));
const dbPath = join(work, 'site.db');
const outbox = join(work, 'outbox');
// Mail goes to files in the work folder, whatever the caller's environment says.
const { SMTP_URL: _smtp, ...inherited } = process.env;
const env: NodeJS.ProcessEnv = {
  ...inherited,
  DATABASE_PATH: dbPath,
  SITE_DIR: join(work, 'site'),
  MAIL_OUTBOX: outbox,
  SITE_URL: origin,
  PORT: String(port),
  HOST: '127.0.0.1',
  REBUILD_LOG_LEVEL: 'warn',
};

const failures: string[] = [];

// ---------------------------------------------------------------------------
// HTTP: node:http, so a request can carry any bytes and any headers, and so the
// number of sockets is ours to set (a burst opens one socket per request).

/** status 0: no answer at all; error with a status: the answer was cut off. `at`: performance.now() when it ended. */
type Answer = { status: number; body: string; ms: number; at: number; error?: string };

interface Send {
  agent: Agent;
  method?: string;
  path?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Send the body in pieces with chunked transfer encoding (no Content-Length). */
  chunked?: boolean;
  /** The local (loopback) address to send from: the client the server sees. */
  from?: string;
}

// The server limits bookings per client address (10 an hour) and per spa (30
// an hour; docs/decisions/0009). The load is meant as many clients at once, so
// each valid request comes from a loopback address of its own, and the bench
// forgets the booking counters of its own database before each phase, as an
// hour passing would.
let clients = 0;
function nextClient(): string {
  const c = clients++;
  return `127.${10 + Math.floor(c / 62_500)}.${1 + (Math.floor(c / 250) % 250)}.${1 + (c % 250)}`;
}

function forgetBookingLimits(): void {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare("delete from rate_limits where key like 'booking:%'").run();
  } finally {
    db.close();
  }
}

function send({ agent, method = 'POST', path = '/api/bookings', headers = {}, body, chunked = false, from }: Send): Promise<Answer> {
  const started = performance.now();
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const allHeaders: OutgoingHttpHeaders = { ...headers };
  if (bytes && !chunked) allHeaders['Content-Length'] = bytes.length;
  if (chunked) allHeaders['Transfer-Encoding'] = 'chunked';
  return new Promise((resolve) => {
    let status = 0;
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      // A server may answer (413, say) before it has read the whole body and then
      // close the socket under the rest of it: the answer is what counts.
      const at = performance.now();
      resolve({ status, body: Buffer.concat(chunks).toString('utf8'), ms: at - started, at, ...(error ? { error } : {}) });
    };
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: allHeaders, agent, ...(from ? { localAddress: from } : {}) }, (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => finish());
      res.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
      res.on('close', () => finish(res.complete ? undefined : 'answer cut off'));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    // Once the answer is complete, an error writing the rest of the body is no news.
    req.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    if (!bytes) req.end();
    else if (!chunked) req.end(bytes);
    else {
      for (let at = 0; at < bytes.length; at += 8192) req.write(bytes.subarray(at, at + 8192));
      req.end();
    }
  });
}

const jsonHeaders = (): OutgoingHttpHeaders => ({ 'Content-Type': 'application/json', Origin: origin });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const bookingId = (answer: Answer): number | null => {
  const value = parseJson(answer.body) as { id?: unknown } | undefined;
  return typeof value?.id === 'number' ? value.id : null;
};

const latencySummary = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
};

function tally(list: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of list) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

// ---------------------------------------------------------------------------
// The server: server/serve.ts in its own process group, so a kill reaches any
// child it has (it spawns one only for the nightly rebuild).

type Server = { child: ChildProcessByStdio<null, Readable, Readable>; exited: Promise<void> };
let server: Server | null = null;
let starts = 0;
/** What the servers wrote to stderr (warnings and errors), for the figures. */
const serverStderr: string[] = [];

async function isListening(): Promise<boolean> {
  const agent = new Agent({ keepAlive: false });
  try {
    const answer = await send({ agent, method: 'GET', path: '/' });
    return answer.status !== 0;
  } finally {
    agent.destroy();
  }
}

/** Starts the server and resolves once GET / answers 200; returns the milliseconds that took. */
async function startServer(): Promise<number> {
  if (await isListening()) throw new Error(`something already listens on ${origin}; pass --port`);
  const started = performance.now();
  const child = spawn(process.execPath, SERVER_ARGS, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = ++starts;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdout.resume(); // keep draining its log so it never blocks on a full pipe
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    for (const line of text.split('\n')) if (line.trim() && serverStderr.length < 200) serverStderr.push(`server ${run}: ${line}`);
  });
  server = { child, exited };
  const agent = new Agent({ keepAlive: false });
  try {
    const deadline = performance.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${serverStderr.slice(-5).join(' | ')}`);
      const answer = await send({ agent, method: 'GET', path: '/' });
      if (answer.status === 200) return performance.now() - started;
      if (performance.now() > deadline) throw new Error(`GET / did not answer 200 within 60 s (last: ${answer.status || answer.error})`);
      await delay(20);
    }
  } finally {
    agent.destroy();
  }
}

function signalGroup(target: Server, signal: NodeJS.Signals) {
  try {
    process.kill(-target.child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

async function stopServer(): Promise<void> {
  if (!server) return;
  const target = server;
  if (target.child.exitCode === null && target.child.signalCode === null) {
    signalGroup(target, 'SIGTERM');
    // serve.ts waits for open connections; do not let a stuck one hang the bench.
    const timer = setTimeout(() => signalGroup(target, 'SIGKILL'), 5000);
    await target.exited;
    clearTimeout(timer);
  }
  server = null;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * CPU time the server process has used, in ms (Linux /proc; null elsewhere).
 * On a shared machine latency says as much about the neighbours as about the
 * server; CPU per booking does not.
 */
function serverCpuMs(): number | null {
  const pid = server?.child.pid;
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
  } catch {
    return null;
  }
}

/** Waits until nothing answers on the port any more, so a restart gets it. */
async function portReleased(): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (await isListening()) {
    if (performance.now() > deadline) throw new Error(`${origin} still answers after the server was killed`);
    await delay(20);
  }
}

// ---------------------------------------------------------------------------
// The database, read-only, for the counts the bars are judged on.

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const rowCounts = () =>
  withDb((db) => ({
    bookings: (db.prepare('select count(*) as n from bookings').get() as { n: number }).n,
    leads: (db.prepare('select count(*) as n from leads').get() as { n: number }).n,
  }));

/** Of these booking ids, how many have their booking row (with this email) and their lead. */
function present(expected: Map<number, string>) {
  const ids = JSON.stringify([...expected.keys()]);
  return withDb((db) => {
    const rows = db.prepare('select id, email from bookings where id in (select value from json_each(?))').all(ids) as { id: number; email: string }[];
    const withLead = new Set(
      (db.prepare('select distinct booking_id as id from leads where booking_id in (select value from json_each(?))').all(ids) as { id: number }[]).map((r) => r.id),
    );
    const found = new Map(rows.map((r) => [r.id, r.email]));
    const missingBookings = [...expected].filter(([id, email]) => found.get(id) !== email).map(([id]) => id);
    const missingLeads = [...expected.keys()].filter((id) => !withLead.has(id));
    return { missingBookings, missingLeads };
  });
}

// ---------------------------------------------------------------------------
// Mail: every booking queues two messages in the mail_queue table in the step
// that answers 201 ("We received your request..." to the client, "New booking
// request from <name>" to the spa, with the client as Reply-To); workers send
// them to the outbox folder as .eml files and mark the row sent. A round waits
// for them, so the next one is not measured against the last one's mail.

const mailFiles = () => readdirSync(outbox).filter((name) => name.endsWith('.eml'));
const partialFiles = () => readdirSync(outbox).filter((name) => name.endsWith('.partial'));

/** Waits until the outbox holds `expected` mails; returns the milliseconds that took, null if they never came. */
async function mailsWritten(expected: number): Promise<number | null> {
  const started = performance.now();
  const deadline = started + 60_000;
  while (mailFiles().length < expected) {
    if (performance.now() > deadline) {
      log.warn(`the outbox holds ${mailFiles().length} mails after 60 s, expected ${expected}`);
      return null;
    }
    await delay(20);
  }
  return performance.now() - started;
}

const queueState = () =>
  withDb(
    (db) =>
      db
        .prepare(
          `select coalesce(sum(sent_at is null and failed_at is null), 0) as unsent,
                  coalesce(sum(sent_at is null and failed_at is null and attempts > 0), 0) as inFlight,
                  coalesce(sum(failed_at is not null), 0) as givenUp,
                  count(*) as total
             from mail_queue`,
        )
        .get() as { unsent: number; inFlight: number; givenUp: number; total: number },
  );

/** Polls until the queue has no unsent message; returns performance.now() at that moment, null at the deadline. */
async function mailQueueEmptyBy(deadline: number): Promise<number | null> {
  for (;;) {
    const { unsent } = queueState();
    if (unsent === 0) return performance.now();
    if (performance.now() > deadline) {
      log.warn(`the mail queue still holds ${unsent} unsent messages at the deadline`);
      return null;
    }
    await delay(20);
  }
}

/** RFC 2047 encoded words (=?utf-8?B?...?= and =?utf-8?Q?...?=), in case a header needed them. */
const decodeWords = (text: string) =>
  text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );

type OutboxMail = { to: string[]; replyTo: string[]; subject: string };

/** The To, Reply-To and Subject of every mail in the outbox. */
function readOutbox(): OutboxMail[] {
  return mailFiles().map((name) => {
    const head = (readFileSync(join(outbox, name), 'utf8').split(/\r?\n\r?\n/, 1)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
    const header = (field: string) => new RegExp(`^${field}: ?(.*)$`, 'im').exec(head)?.[1] ?? '';
    const addresses = (text: string) => [...text.matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((m) => m[0].toLowerCase());
    return { to: addresses(header('To')), replyTo: addresses(header('Reply-To')), subject: decodeWords(header('Subject')).trim() };
  });
}

type Booked = { email: string; name: string };
const CLIENT_SUBJECT = 'We received your request';
const spaSubject = (name: string) => `New booking request from ${name}`;

/**
 * For these bookings: are both their messages in the queue, sent, and in the
 * outbox? Matched by the client's address (To of the client's message,
 * Reply-To of the spa's) and the exact subject of the spa's, which names the
 * client. A message in the outbox more than once was sent again after a crash:
 * allowed (delivery is at least once), counted.
 */
function bookingMail(bookings: Booked[]) {
  type Row = { id: number; to: string | null; replyTo: string | null; subject: string | null; sentAt: number | null; failedAt: number | null; attempts: number };
  const rows = withDb(
    (db) =>
      db
        .prepare(
          `select id, json_extract(message, '$.to') as "to", json_extract(message, '$.replyTo') as replyTo,
                  json_extract(message, '$.subject') as subject, sent_at as sentAt, failed_at as failedAt, attempts
             from mail_queue`,
        )
        .all() as Row[],
  );
  const group = <T>(list: T[], key: (item: T) => string | null) => {
    const groups = new Map<string, T[]>();
    for (const item of list) {
      const k = key(item);
      if (k !== null) groups.set(k, [...(groups.get(k) ?? []), item]);
    }
    return groups;
  };
  const lower = (text: string | null) => text?.toLowerCase() ?? null;
  const queuedForClient = group(rows, (r) => (r.subject?.startsWith(CLIENT_SUBJECT) ? lower(r.to) : null));
  const queuedForSpa = group(rows, (r) => (r.subject?.startsWith(spaSubject('')) ? `${lower(r.replyTo)} ${r.subject}` : null));
  const files = readOutbox();
  const filesForClient = group(files, (f) => (f.subject.startsWith(CLIENT_SUBJECT) ? (f.to[0] ?? null) : null));
  const filesForSpa = group(files, (f) => (f.subject.startsWith(spaSubject('')) ? `${f.replyTo[0] ?? ''} ${f.subject}` : null));

  const result = { expected: 0, queued: 0, missingFromQueue: 0, queuedMoreThanOnce: 0, notSent: 0, givenUp: 0, attemptedMoreThanOnce: 0, inOutbox: 0, missingFromOutbox: 0, sentTwice: 0 };
  const examples: string[] = [];
  for (const { email, name } of bookings) {
    const address = email.toLowerCase();
    for (const [what, queued, written] of [
      ['client', queuedForClient.get(address) ?? [], filesForClient.get(address) ?? []],
      ['spa', queuedForSpa.get(`${address} ${spaSubject(name)}`) ?? [], filesForSpa.get(`${address} ${spaSubject(name)}`) ?? []],
    ] as const) {
      result.expected++;
      if (queued.length) result.queued++;
      else result.missingFromQueue++;
      result.queuedMoreThanOnce += Math.max(0, queued.length - 1);
      result.notSent += queued.filter((r) => r.sentAt === null).length;
      result.givenUp += queued.filter((r) => r.failedAt !== null).length;
      result.attemptedMoreThanOnce += queued.filter((r) => r.attempts > 1).length;
      if (written.length) result.inOutbox++;
      else result.missingFromOutbox++;
      result.sentTwice += Math.max(0, written.length - 1);
      if ((!queued.length || !written.length || queued.some((r) => r.sentAt === null)) && examples.length < 10)
        examples.push(`${what} mail of ${email}: ${queued.length} queued (${queued.filter((r) => r.sentAt !== null).length} sent), ${written.length} in the outbox`);
    }
  }
  return { ...result, examples };
}

// ---------------------------------------------------------------------------
// Valid requests.

let services: number[] = [];
const preferredDate = () => addDays(pacificDate(), 7);

function validBody(tag: string, i: number): Record<string, unknown> {
  return {
    name: `Bench Client ${i}`,
    email: `bench-${tag}-${i}@example.com`,
    phone: '(714) 555-0100',
    serviceId: services[i % services.length],
    preferredDate: preferredDate(),
    message: 'hello',
    source: 'bench',
    medium: 'load',
    campaign: tag,
  };
}

// ---------------------------------------------------------------------------
// 1. Load

async function loadRound(n: number, burst: number) {
  const tag = `load${n}`;
  const before = rowCounts();
  const mailsBefore = mailFiles().length;
  const cpuBefore = serverCpuMs();
  const clientCpuBefore = process.cpuUsage();
  const agent = new Agent({ keepAlive: true, maxSockets: burst });
  const bodies = Array.from({ length: burst }, (_, i) => JSON.stringify(validBody(tag, i)));
  forgetBookingLimits();
  const started = performance.now();
  const answers = await Promise.all(bodies.map((body) => send({ agent, headers: jsonHeaders(), body, from: nextClient() })));
  const seconds = (performance.now() - started) / 1000;
  const cpuAnswered = serverCpuMs();
  agent.destroy();
  const after = rowCounts();
  // Mail throughput: from the last 201 until the queue has nothing left to send.
  const last201 = Math.max(...answers.filter((a) => a.status === 201).map((a) => a.at));
  const queueEmptyAt = await mailQueueEmptyBy(performance.now() + 60_000);
  const mailMs = await mailsWritten(mailsBefore + 2 * (after.bookings - before.bookings));
  const cpuAfter = serverCpuMs();
  const clientCpu = process.cpuUsage(clientCpuBefore);

  const created = new Map<number, string>();
  answers.forEach((answer, i) => {
    const id = answer.status === 201 ? bookingId(answer) : null;
    if (id !== null) created.set(id, `bench-${tag}-${i}@example.com`);
  });
  const notCreated = answers.filter((a) => a.status !== 201).map((a) => (a.status ? `HTTP ${a.status}` : (a.error ?? 'no answer')));
  const check = present(created);
  const result = {
    round: n,
    requests: burst,
    answered201: answers.length - notCreated.length,
    distinctIds: created.size,
    errors: notCreated.length,
    errorsByKind: tally(notCreated),
    newBookings: after.bookings - before.bookings,
    newLeads: after.leads - before.leads,
    answeredButMissing: check.missingBookings.length,
    answeredWithoutLead: check.missingLeads.length,
    seconds: round(seconds, 3),
    requestsPerSecond: Math.round(burst / seconds),
    latencyMs: latencySummary(answers.map((a) => a.ms)),
    // From the last 201 until the mail queue had no unsent message (null: not within 60 s).
    mailQueueEmptyAfterLast201Ms: queueEmptyAt === null || !Number.isFinite(last201) ? null : Math.round(queueEmptyAt - last201),
    mailsSentPerSecond: queueEmptyAt === null || !Number.isFinite(last201) ? null : Math.round((2 * created.size) / ((queueEmptyAt - started) / 1000)),
    // From then until both mails of every booking were in the outbox (they are, once the queue is empty).
    mailsWrittenAfterMs: mailMs === null ? null : Math.round(mailMs),
    // Server CPU per booking: until the last answer (mail has started by then),
    // and in all, its two mails included; and what the client here spent.
    serverCpuMsPerBookingUntilAnswered: cpuAnswered === null || cpuBefore === null ? null : round((cpuAnswered - cpuBefore) / burst),
    serverCpuMsPerBooking: cpuAfter === null || cpuBefore === null ? null : round((cpuAfter - cpuBefore) / burst),
    clientCpuMsPerRequest: round((clientCpu.user + clientCpu.system) / 1000 / burst),
  };
  log.info(
    `load round ${n}: ${result.answered201}/${burst} answered 201, +${result.newBookings} bookings, +${result.newLeads} leads, ${result.requestsPerSecond} req/s; ` +
      `p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms; ` +
      `server CPU ${result.serverCpuMsPerBooking ?? '?'} ms per booking (${result.serverCpuMsPerBookingUntilAnswered ?? '?'} until answered); ` +
      `mail queue empty ${result.mailQueueEmptyAfterLast201Ms ?? 'not within 60 s'} ms after the last 201`,
  );
  const problem = (text: string) => failures.push(`load round ${n}: ${text}`);
  if (result.errors) problem(`${result.errors} requests did not answer 201 (${JSON.stringify(result.errorsByKind)})`);
  if (result.distinctIds !== burst) problem(`${result.distinctIds} distinct booking ids for ${burst} requests`);
  if (result.newBookings !== burst) problem(`${result.newBookings} new bookings, expected ${burst}`);
  if (result.newLeads !== burst) problem(`${result.newLeads} new leads, expected ${burst}`);
  if (result.answeredButMissing || result.answeredWithoutLead) problem(`${result.answeredButMissing} answered bookings missing, ${result.answeredWithoutLead} without a lead`);
  return result;
}

async function measureLoad() {
  const burst = Number(values.burst);
  // Warm-up, not reported: the first requests pay for module loading, the JIT and
  // SQLite's page cache.
  const warm = new Agent({ keepAlive: true, maxSockets: 32 });
  const mailsBefore = mailFiles().length;
  forgetBookingLimits();
  const warmed = await Promise.all(
    Array.from({ length: burst }, (_, i) => send({ agent: warm, headers: jsonHeaders(), body: JSON.stringify(validBody('warmup', i)), from: nextClient() })),
  );
  warm.destroy();
  await mailQueueEmptyBy(performance.now() + 60_000);
  await mailsWritten(mailsBefore + 2 * warmed.filter((a) => a.status === 201).length);
  const rounds = [];
  for (let n = 1; n <= Number(values.rounds); n++) rounds.push(await loadRound(n, burst));
  return { burst, rounds };
}

// ---------------------------------------------------------------------------
// 2. Kill

async function measureKill() {
  const workers = Number(values.workers);
  const killAfter = Number(values['kill-after']);
  const before = rowCounts();
  const queueBefore = queueState();
  const answered = new Map<number, Booked>(); // booking id -> its client, for every 201
  const statuses: string[] = []; // HTTP answers other than 201
  const errorsBeforeKill: string[] = [];
  const errorsAfterKill: string[] = [];
  let killed = false;
  let sent = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  forgetBookingLimits();
  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      // Each booking its own address and name, so its two mails can be told from all others.
      const email = `bench-kill-${w}-${i}@example.com`;
      const name = `Bench Kill ${w}-${i}`;
      const body = { ...validBody('kill', i), email, name };
      sent++;
      const answer = await send({ agent, headers: jsonHeaders(), body: JSON.stringify(body), from: nextClient() });
      const id = answer.status === 201 ? bookingId(answer) : null;
      if (id !== null) answered.set(id, { email, name });
      else if (answer.status && !answer.error) statuses.push(`HTTP ${answer.status}`);
      else (killed ? errorsAfterKill : errorsBeforeKill).push(answer.error ?? 'no answer');
    }
  };
  const started = performance.now();
  const stream = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  const killAt = started + Number(values['kill-ms']);
  const deadline = started + 60_000;
  while (answered.size < killAfter || performance.now() < killAt) {
    if (performance.now() > deadline) throw new Error(`only ${answered.size} bookings answered in 60 s (${JSON.stringify(tally(statuses))}, errors ${JSON.stringify(tally(errorsBeforeKill))})`);
    await delay(5);
  }
  const target = server!;
  signalGroup(target, 'SIGKILL');
  killed = true;
  const killedAtMs = performance.now() - started;
  const answeredBeforeKill = answered.size;
  await target.exited;
  server = null;
  await stream; // the requests in flight end with connection errors
  agent.destroy();
  const answered201 = answered.size; // a response can still arrive between kill() and the process's end
  await portReleased();
  // What the kill left: messages not sent yet (some in the middle of an attempt) and half-written files.
  const queueAtKill = queueState();
  const partialFilesAtKill = partialFiles().length;

  const restarted = performance.now();
  const restartMs = await startServer();
  // The new process sends what the old one left; wait for it before judging the mail.
  const queueEmptyAt = await mailQueueEmptyBy(restarted + 60_000);
  const queueAfterRestart = queueState();
  const check = present(new Map([...answered].map(([id, booking]) => [id, booking.email])));
  const after = rowCounts();
  const stored = withDb(
    (db) =>
      db
        .prepare(
          "select count(*) as n, sum(not exists (select 1 from leads l where l.booking_id = b.id)) as orphans from bookings b where b.email like 'bench-kill-%'",
        )
        .get() as { n: number; orphans: number | null },
  );
  const mail = bookingMail([...answered.values()]);
  const partialMails = partialFiles().length;
  const agentAfter = new Agent({ keepAlive: false });
  forgetBookingLimits();
  const afterRestart = await send({ agent: agentAfter, headers: jsonHeaders(), body: JSON.stringify(validBody('after-restart', 0)), from: nextClient() });
  agentAfter.destroy();

  const result = {
    workers,
    killWhen: { runMs: Number(values['kill-ms']), answered201: killAfter },
    killedAfterMs: Math.round(killedAtMs),
    requestsSent: sent,
    answered201BeforeKill: answeredBeforeKill,
    answered201: answered201,
    requestsPerSecondBeforeKill: Math.round(answeredBeforeKill / (killedAtMs / 1000)),
    otherStatuses: tally(statuses),
    errorsBeforeKill: tally(errorsBeforeKill),
    errorsAtKill: tally(errorsAfterKill),
    missingAfterRestart: check.missingBookings.length,
    missingIds: check.missingBookings.slice(0, 20),
    answeredWithoutLead: check.missingLeads.length,
    // Rows committed whose answer the kill cut off: allowed, the client saw an error.
    storedButNotAnswered: stored.n - answered201,
    bookingsWithoutLead: stored.orphans ?? 0,
    newBookings: after.bookings - before.bookings,
    newLeads: after.leads - before.leads,
    restartMs: Math.round(restartMs),
    bookingAfterRestart: afterRestart.status,
    mail: {
      // The queue when the server was dead: messages this part queued and sent, unsent messages, those of them in the middle of an attempt, and half-written files.
      queuedBeforeKill: queueAtKill.total - queueBefore.total,
      sentBeforeKill: queueAtKill.total - queueBefore.total - (queueAtKill.unsent - queueBefore.unsent),
      unsentAtKill: queueAtKill.unsent,
      inAttemptAtKill: queueAtKill.inFlight,
      partialFilesAtKill,
      // From starting the new process until the queue had no unsent message (null: not within 60 s).
      queueEmptyAfterRestartMs: queueEmptyAt === null ? null : Math.round(queueEmptyAt - restarted),
      unsentAfterWait: queueAfterRestart.unsent,
      givenUpInQueue: queueAfterRestart.givenUp,
      // The two messages of every booking answered 201 (bars: none missing, all sent, all in the outbox).
      forAnswered: mail.expected,
      queuedForAnswered: mail.queued,
      missingFromQueue: mail.missingFromQueue,
      notSent: mail.notSent,
      givenUp: mail.givenUp,
      missingFromOutbox: mail.missingFromOutbox,
      missing: mail.missingFromQueue + mail.missingFromOutbox,
      // Allowed (at least once): a message whose attempt the kill cut off after its file was in place is sent again.
      sentTwice: mail.sentTwice,
      attemptedMoreThanOnce: mail.attemptedMoreThanOnce,
      queuedMoreThanOnce: mail.queuedMoreThanOnce,
      // Half-written files left in the outbox once the queue was empty (bar: none).
      partialFilesLeft: partialMails,
      examples: mail.examples,
    },
  };
  log.info(
    `kill: SIGKILL after ${result.killedAfterMs} ms with ${answeredBeforeKill} bookings answered 201 (${answered201} in all); ` +
      `${errorsAfterKill.length} requests cut off; ${result.missingAfterRestart} missing after restart; restart took ${result.restartMs} ms; ` +
      `mail: ${queueAtKill.unsent} unsent at the kill (${queueAtKill.inFlight} in an attempt, ${partialFilesAtKill} half-written), ` +
      `queue empty ${result.mail.queueEmptyAfterRestartMs ?? 'not within 60 s'} ms after the restart began; ` +
      `${mail.queued}/${mail.expected} messages of answered bookings queued, ${result.mail.missing} missing, ${mail.notSent} not sent, ${mail.sentTwice} sent twice, ${partialMails} .partial left`,
  );
  for (const example of mail.examples) log.warn(`kill: ${example}`);
  const problem = (text: string) => failures.push(`kill: ${text}`);
  if (result.missingAfterRestart) problem(`${result.missingAfterRestart} bookings answered 201 are missing after the restart (${result.missingIds.join(', ')})`);
  if (result.answeredWithoutLead) problem(`${result.answeredWithoutLead} bookings answered 201 have no lead`);
  if (result.bookingsWithoutLead) problem(`${result.bookingsWithoutLead} stored bookings have no lead`);
  if (result.newLeads !== result.newBookings) problem(`${result.newBookings} new bookings but ${result.newLeads} new leads`);
  if (statuses.length) problem(`answers other than 201: ${JSON.stringify(result.otherStatuses)}`);
  if (errorsBeforeKill.length) problem(`connection errors before the kill: ${JSON.stringify(result.errorsBeforeKill)}`);
  if (result.storedButNotAnswered < 0) problem(`fewer stored bookings (${stored.n}) than answered (${answered201})`);
  if (afterRestart.status !== 201) problem(`a booking after the restart answered ${afterRestart.status || afterRestart.error}`);
  if (queueEmptyAt === null) problem(`the mail queue still held ${queueAfterRestart.unsent} unsent messages 60 s after the restart`);
  if (mail.missingFromQueue) problem(`${mail.missingFromQueue} of the ${mail.expected} messages of bookings answered 201 are not in the mail queue`);
  if (mail.notSent) problem(`${mail.notSent} queued messages of bookings answered 201 are not sent (${mail.givenUp} given up)`);
  if (mail.missingFromOutbox) problem(`${mail.missingFromOutbox} messages of bookings answered 201 are not in the outbox`);
  if (partialMails) problem(`${partialMails} half-written .partial files left in the outbox`);
  return result;
}

// ---------------------------------------------------------------------------
// 3. Malformed

interface BadCase {
  group: string;
  label: string;
  body?: string | Buffer;
  headers?: OutgoingHttpHeaders;
  chunked?: boolean;
  /** The status a careful server gives; a different one is reported, not failed. */
  expect: number;
}

function malformedCases(): BadCase[] {
  const cases: BadCase[] = [];
  let n = 0;
  // A valid request with one thing changed; each gets its own address, so a
  // wrongly accepted one can be found in the database.
  const base = () => validBody('bad', n++);
  const withField = (field: string, value: unknown) => ({ ...base(), [field]: value });
  const without = (...fields: string[]) => {
    const body: Record<string, unknown> = base();
    for (const field of fields) delete body[field];
    return body;
  };
  const add = (group: string, label: string, body: unknown, expect = 422, headers?: OutgoingHttpHeaders) =>
    cases.push({ group, label, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), expect, headers });

  // Bad JSON: not parseable at all.
  const valid = JSON.stringify(base());
  for (const text of ['', ' ', '{', '}', '[', '{"name":', '{"name":"Bench', 'nul', 'tru', '{"name":"a",}', '[1,2,]', "{'name':'Bench'}", '{name:"Bench"}', '{"name":"a" "email":"b"}', '{"a":1}{"b":2}', '{"a":1} x', 'NaN', 'Infinity', '-', '{"serviceId":01}', '{"serviceId":1.}', '{"serviceId":+1}', '{"serviceId":0x10}', '{"name":"a"/*c*/}', 'undefined', '{"name":"\\x41"}', '{"name":"\\u12"}', '"unterminated'])
    add('bad json', JSON.stringify(text), text, 400);
  for (const cut of [1, 10, 25, 50, 100, Math.floor(valid.length / 2), valid.length - 2, valid.length - 1]) add('bad json', `truncated at ${cut} of ${valid.length}`, valid.slice(0, cut), 400);
  add('bad json', 'raw NUL byte inside a string', Buffer.from(`{"name":"Bench\u0000Client","email":"bench-bad-nul@example.com"}`), 400);
  add('bad json', 'raw newline inside a string', `{"name":"Bench\nClient","email":"bench-bad-nl@example.com"}`, 400);
  add('bad json', 'UTF-16 body labelled utf-16', Buffer.from(`\ufeff${valid}`, 'utf16le'), 400, { 'Content-Type': 'application/json; charset=utf-16', Origin: origin });
  // Valid JSON, but not an object.
  for (const text of ['null', 'true', 'false', '0', '42', '-1', '1e400', '"a string"', '""', '[]', '[{}]', `[${valid}]`, '{}']) add('not an object', text.length > 40 ? `${text.slice(0, 40)}...` : text, text);

  // Wrong types, field by field.
  const textFields = ['name', 'email', 'phone', 'preferredDate', 'message', 'source', 'medium', 'campaign'];
  const notText: [string, unknown][] = [
    ['number', 42],
    ['float', 1.5],
    ['boolean', true],
    ['object', { value: 'Bench' }],
    ['array', ['Bench']],
    ['empty array', []],
  ];
  for (const field of textFields) for (const [kind, value] of notText) add('wrong type', `${field}: ${kind}`, withField(field, value));
  const notId: [string, unknown][] = [
    ['numeric string', '1'],
    ['string', 'abc'],
    ['empty string', ''],
    ['boolean', true],
    ['object', { id: 1 }],
    ['array', [1]],
  ];
  for (const field of ['serviceId', 'spaId']) for (const [kind, value] of notId) add('wrong type', `${field}: ${kind}`, withField(field, value));
  for (const field of ['name', 'email']) add('wrong type', `${field}: null`, withField(field, null));

  // Missing or blank required fields.
  add('missing', 'no name', without('name'));
  add('missing', 'no email', without('email'));
  add('missing', 'neither name nor email', without('name', 'email'));
  const { name: _name, email: _email, ...rest } = base();
  add('missing', 'name and email with capitals (Name, Email)', { ...rest, Name: 'Bench Client', Email: 'bench-bad-caps@example.com' });
  for (const [label, name] of [
    ['empty', ''],
    ['spaces', '   '],
    ['tab', '\t'],
    ['newlines', '\n\r\n'],
    ['no-break space', '\u00a0'],
    ['ideographic space', '\u3000'],
    ['byte order mark', '\ufeff'],
    ['line separator', '\u2028'],
  ] as const)
    add('missing', `name is ${label}`, withField('name', name));
  add('missing', 'email is empty', withField('email', ''));
  add('missing', 'email is spaces', withField('email', '   '));

  // Invalid email addresses.
  for (const email of [
    'plainaddress',
    '@example.com',
    'bench@',
    'bench@example',
    'bench@@example.com',
    'bench@exa mple.com',
    'be nch@example.com',
    'bench@example..com',
    '.bench@example.com',
    'bench.@example.com',
    'bench..x@example.com',
    'bench@-example.com',
    'bench@example.c',
    'bench@example.com.',
    'bench@[127.0.0.1]',
    '"bench"@example.com',
    'Bench <bench@example.com>',
    'bench@example.com, other@example.com',
    'bench@example.com\r\nBcc: victim@example.com',
    'bench@example.com\nBcc: victim@example.com',
    '<script>alert(1)</script>@example.com',
    `${'a'.repeat(250)}@example.com`,
    `bench@${'a'.repeat(250)}.com`,
  ] as const)
    add('invalid email', JSON.stringify(email), withField('email', email));

  // Text at and past the limits, and bodies past the size limit.
  add('too long', 'name of 101 characters', withField('name', 'N'.repeat(101)));
  add('too long', 'name of 101 four-byte characters', withField('name', '\u{1d4b3}'.repeat(101)));
  add('too long', 'phone of 31 characters', withField('phone', '1'.repeat(31)));
  add('too long', 'message of 2,001 characters', withField('message', 'm'.repeat(2001)));
  for (const field of ['source', 'medium', 'campaign']) add('too long', `${field} of 101 characters`, withField(field, 's'.repeat(101)));
  add('too long', 'preferredDate of 41 characters', withField('preferredDate', `${preferredDate()}${' '.repeat(31)}`));
  add('too large', 'name of 100 KB', withField('name', 'N'.repeat(100_000)), 413);
  add('too large', 'message of 100 KB', withField('message', 'm'.repeat(100_000)), 413);
  const shell = JSON.stringify({ ...base(), pad: '' });
  add('too large', `body of ${BODY_LIMIT + 1} bytes`, shell.replace('"pad":""', `"pad":"${'p'.repeat(BODY_LIMIT + 1 - shell.length)}"`), 413);
  const megabyte = JSON.stringify({ ...base(), pad: 'p'.repeat(1_000_000) });
  add('too large', 'body of 1 MB', megabyte, 413);
  cases.push({ group: 'too large', label: 'body of 1 MB, chunked (no Content-Length)', body: megabyte, chunked: true, expect: 413 });
  add('too large', 'body of 1 MB of whitespace around a valid request', `${' '.repeat(1_000_000)}${JSON.stringify(base())}`, 413);

  // Wrong or missing content type.
  const good = () => JSON.stringify(base());
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----bench',
    'text/json',
    'application/xml',
    'application/jsonx',
    'json',
    '*/*',
    '',
  ] as const)
    add('content type', type ? `Content-Type: ${type}` : 'empty Content-Type', good(), 415, { 'Content-Type': type, Origin: origin });
  add('content type', 'no Content-Type', good(), 415, { Origin: origin });
  add('content type', 'form-urlencoded body', new URLSearchParams({ name: 'Bench', email: 'bench-form@example.com' }).toString(), 415, {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: origin,
  });
  add(
    'content type',
    'multipart body',
    '------bench\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n------bench\r\nContent-Disposition: form-data; name="email"\r\n\r\nbench-multipart@example.com\r\n------bench--\r\n',
    415,
    { 'Content-Type': 'multipart/form-data; boundary=----bench', Origin: origin },
  );
  add('content type', 'multipart body labelled application/json', '------bench\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n------bench--\r\n', 400);

  // Text that is not text, or not allowed where it is.
  const raw = (label: string, bytes: number[], field = 'name') => {
    const before = JSON.stringify({ ...base(), [field]: 'BEFORE' }).split('BEFORE');
    add('unicode', `${field} with raw bytes ${bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ')} (${label})`, Buffer.concat([Buffer.from(`${before[0]}Bench `), Buffer.from(bytes), Buffer.from(before[1]!)]), 400);
  };
  raw('UTF-8 encoded lone surrogate U+D800', [0xed, 0xa0, 0x80]);
  raw('UTF-8 encoded lone surrogate U+DFFF', [0xed, 0xbf, 0xbf]);
  raw('overlong "/"', [0xc0, 0xaf]);
  raw('truncated sequence', [0xe2, 0x82]);
  raw('byte 0xff', [0xff]);
  raw('Latin-1 "é"', [0xe9]);
  raw('UTF-8 encoded lone surrogate U+D800', [0xed, 0xa0, 0x80], 'email');
  raw('UTF-8 encoded lone surrogate U+D800', [0xed, 0xa0, 0x80], 'message');
  const escaped = (field: string, label: string, escape: string) =>
    add('unicode', `${field} with ${label} (${escape})`, JSON.stringify({ ...base(), [field]: 'BEFORE' }).replace('BEFORE', `Bench${escape}Client`));
  for (const field of ['name', 'phone', 'message', 'source', 'medium', 'campaign']) {
    escaped(field, 'a lone high surrogate', '\\ud800');
    escaped(field, 'a lone low surrogate', '\\udc00');
    escaped(field, 'surrogates in the wrong order', '\\ude00\\ud83d');
  }
  for (const field of ['name', 'phone', 'source', 'medium', 'campaign']) {
    escaped(field, 'NUL', '\\u0000');
    escaped(field, 'ESC', '\\u001b');
    escaped(field, 'DEL', '\\u007f');
  }
  for (const [label, escape] of [
    ['a line feed', '\\n'],
    ['a carriage return', '\\r'],
    ['a line separator', '\\u2028'],
    ['a paragraph separator', '\\u2029'],
  ] as const)
    escaped('name', label, escape);
  // A name must be seen: one made only of invisible characters is no name.
  for (const [label, name] of [
    ['a zero-width space', '\u200b'],
    ['zero-width characters', '\u200b\u200c\u200d\u2060'],
    ['a right-to-left override', '\u202e'],
    ['a Hangul filler', '\u3164'],
  ] as const)
    add('unicode', `name is only ${label} (${visible(name)})`, visible(JSON.stringify(withField('name', name))));
  for (const [label, email] of [
    ['emoji in the local part', 'bench\u{1f600}@example.com'],
    ['emoji as the local part', '\u{1f600}@example.com'],
    ['a four-byte letter', 'bench\u{1d4b3}@example.com'],
    ['a zero-width space', 'bench\u200b@example.com'],
    ['a zero-width joiner', 'be\u200dnch@example.com'],
    ['a right-to-left override', 'bench\u202e@example.com'],
    ['a right-to-left override in the domain', 'bench@\u202emoc.elpmaxe'],
    ['NUL', 'bench\u0000@example.com'],
    ['a lone surrogate', 'bench\ud800@example.com'],
    ['fullwidth @', 'bench\uff20example.com'],
    ['Cyrillic homoglyph TLD', 'bench@example.\u0441om'],
  ] as const)
    add('unicode', `email with ${label}`, withField('email', email));
  for (const [label, phone] of [
    ['fullwidth digits', '\uff17\uff11\uff14\uff15\uff15\uff15\uff10\uff11\uff10\uff10'],
    ['Arabic-Indic digits', '\u0667\u0661\u0664\u0665\u0665\u0665\u0660\u0661\u0660\u0660'],
    ['an emoji', '714 555 0100 \u{1f4de}'],
    ['a zero-width space', '714\u200b555\u200b0100'],
    ['letters', '714-555-CALL'],
    ['too few digits', '555-01'],
    ['too many digits', '1234567890123456'],
  ] as const)
    add('unicode', `phone with ${label}`, withField('phone', phone));

  // Dates.
  const today = pacificDate();
  for (const date of [
    '2000-01-01',
    addDays(today, -2),
    '2027-02-30',
    '2027-02-29',
    '2027-04-31',
    '2027-13-01',
    '2027-00-10',
    '2027-01-00',
    '2027-01-32',
    '2027-1-5',
    '20270105',
    '01/05/2027',
    '05.01.2027',
    'tomorrow',
    'today',
    '2027-01-05T25:00',
    '2027-01-05T12:60',
    '2027-01-05 extra',
    '+275760-09-13',
    '9999-99-99',
    '2027\u201301\u201305',
    '\uff12\uff10\uff12\uff17-01-05',
    '-001-01-01',
  ] as const)
    add('date', `preferredDate ${JSON.stringify(date)}`, withField('preferredDate', date));
  add('date', 'preferredDate as a number', withField('preferredDate', 20270105));
  add('date', 'preferredDate as an epoch', withField('preferredDate', Date.now() + 86_400_000));

  // Ids.
  for (const field of ['serviceId', 'spaId'])
    for (const [label, value] of [
      ['negative', '-1'],
      ['zero', '0'],
      ['negative zero', '-0'],
      ['a fraction', '1.5'],
      ['2^53', '9007199254740992'],
      ['1e308', '1e308'],
      ['1e400', '1e400'],
      ['unknown 999999999', '999999999'],
    ] as const)
      add('ids', `${field} ${label}`, JSON.stringify({ ...base(), [field]: 'ID' }).replace('"ID"', value));
  add('ids', 'serviceId of one spa with spaId of another', { ...base(), serviceId: services[0], spaId: otherSpa });
  if (inactiveService !== null) add('ids', 'serviceId of an inactive service', withField('serviceId', inactiveService));

  // Keys that reach for the prototype: they must not supply the missing fields.
  const missingName = without('name');
  for (const [label, text] of [
    ['__proto__ with a name', JSON.stringify(missingName).replace(/^\{/, '{"__proto__":{"name":"Polluted"},')],
    ['constructor.prototype with a name', JSON.stringify(missingName).replace(/^\{/, '{"constructor":{"prototype":{"name":"Polluted"}},')],
    ['__proto__ with every field', `{"__proto__":${JSON.stringify(base())}}`],
    ['__proto__ as an array', JSON.stringify(missingName).replace(/^\{/, '{"__proto__":[{"name":"Polluted"}],')],
    ['name as an object with __proto__', JSON.stringify(base()).replace(/"name":"[^"]*"/, '"name":{"__proto__":{"toString":"x"}}')],
    ['toString overridden', JSON.stringify(missingName).replace(/^\{/, '{"toString":"Polluted","valueOf":"Polluted",')],
  ] as const)
    add('prototype', label, text);

  // Deep nesting, inside and past the size limit.
  for (const depth of [100, 1000, 5000, 8000]) {
    add('nesting', `message as arrays nested ${depth} deep`, JSON.stringify({ ...base(), message: 'NEST' }).replace('"NEST"', `${'['.repeat(depth)}${']'.repeat(depth)}`));
  }
  for (const depth of [1000, 2500]) {
    add('nesting', `name as objects nested ${depth} deep`, JSON.stringify({ ...base(), name: 'NEST' }).replace('"NEST"', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
  }
  add('nesting', 'arrays nested 8000 deep, unclosed', '['.repeat(8000), 400);
  add('nesting', 'arrays nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 413);

  // Cross-origin: a valid body from somewhere else.
  const from = (label: string, headers: OutgoingHttpHeaders) => add('origin', label, good(), 403, { 'Content-Type': 'application/json', ...headers });
  from('Origin: http://evil.example', { Origin: 'http://evil.example' });
  from('Origin: null', { Origin: 'null' });
  from('Origin: http://localhost (same machine, other host name)', { Origin: `http://localhost:${port}` });
  from('Origin with another port', { Origin: `http://127.0.0.1:${port + 1}` });
  from('Origin with https', { Origin: `https://127.0.0.1:${port}` });
  from('Origin with a trailing slash', { Origin: `${origin}/` });
  from('Sec-Fetch-Site: cross-site, no Origin', { 'Sec-Fetch-Site': 'cross-site' });
  from('Sec-Fetch-Site: same-site, no Origin', { 'Sec-Fetch-Site': 'same-site' });
  return cases;
}

let otherSpa = 0;
let inactiveService: number | null = null;

/** Text with everything but printable ASCII written as \\uXXXX, so invisible characters can be read. */
const visible = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The bytes of a body as a printf(1) format: printable ASCII as it is, every
 * other byte as \\xNN, so `printf '<this>' | curl --data-binary @- ...` sends
 * exactly the same request.
 */
function describeBody(body: string | Buffer | undefined, limit = 400): string {
  if (body === undefined) return '(none)';
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  let text = '';
  for (const byte of bytes.subarray(0, limit)) {
    const char = String.fromCharCode(byte);
    if (char === '\\') text += '\\\\';
    else if (char === '%') text += '%%';
    else text += byte >= 0x20 && byte < 0x7f && char !== "'" ? char : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > limit ? `${text}... (${bytes.length} bytes)` : text;
}

async function measureMalformed() {
  const cases = malformedCases();
  const before = rowCounts();
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const results: { c: BadCase; answer: Answer }[] = [];
  forgetBookingLimits();
  // One at a time: each answer belongs to one input, and a crash points at it.
  // Each from a client of its own: the answer is about the input, not about a limit.
  for (const c of cases) {
    const answer = await send({ agent, headers: c.headers ?? jsonHeaders(), body: c.body, chunked: c.chunked, from: nextClient() });
    results.push({ c, answer });
  }
  agent.destroy();
  const after = rowCounts();
  const created = withDb((db) =>
    (db.prepare("select id, email, name, preferred_date as preferredDate from bookings where email like 'bench-bad-%' or name = 'Polluted'").all() as Record<string, unknown>[]).map(
      (row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'string' ? visible(value) : value])),
    ),
  );

  const byStatus = tally(results.map(({ answer }) => (answer.status ? String(answer.status) : `error ${answer.error}`)));
  const serverErrors = results.filter(({ answer }) => answer.status >= 500);
  const noAnswer = results.filter(({ answer }) => answer.status === 0);
  const accepted = results.filter(({ answer }) => answer.status >= 200 && answer.status < 300);
  const unexpected = results.filter(({ c, answer }) => answer.status !== c.expect);
  const badShape = results.filter(({ answer }) => {
    if (answer.status < 400 || answer.status >= 500) return false;
    const value = parseJson(answer.body) as { error?: { code?: unknown; message?: unknown } } | undefined;
    return typeof value?.error?.code !== 'string' || typeof value.error.message !== 'string';
  });
  const detail = ({ c, answer }: { c: BadCase; answer: Answer }) => ({
    group: c.group,
    label: c.label,
    status: answer.status || answer.error,
    expected: c.expect,
    contentType: c.headers ? (c.headers['Content-Type'] ?? '(none)') : 'application/json',
    ...(c.chunked ? { chunked: true } : {}),
    bodyAsPrintfFormat: describeBody(c.body),
    answer: answer.body.slice(0, 300),
  });

  // The server must still take a valid booking after all that.
  forgetBookingLimits();
  const control = await send({ agent: new Agent({ keepAlive: false }), headers: jsonHeaders(), body: JSON.stringify(validBody('control', 0)), from: nextClient() });

  const result = {
    requests: results.length,
    byGroup: tally(results.map(({ c }) => c.group)),
    byStatus,
    serverErrors: serverErrors.length,
    noAnswer: noAnswer.length,
    accepted: accepted.length,
    rowsCreated: { bookings: after.bookings - before.bookings, leads: after.leads - before.leads },
    unexpectedStatus: unexpected.length,
    errorBodyNotInTheErrorShape: badShape.length,
    validBookingAfterwards: control.status,
    findings: {
      accepted: accepted.map(detail),
      serverErrors: serverErrors.map(detail),
      noAnswer: noAnswer.map(detail),
      rowsFromMalformedRequests: created,
      unexpectedStatus: unexpected.map(detail),
      errorBodyNotInTheErrorShape: badShape.map(detail),
    },
  };
  log.info(`malformed: ${results.length} requests, by status ${JSON.stringify(byStatus)}; ${serverErrors.length} 5xx; rows created ${JSON.stringify(result.rowsCreated)}`);
  for (const r of accepted) log.warn(`malformed: accepted (${r.answer.status}): ${r.c.group} / ${r.c.label}: ${describeBody(r.c.body, 200)}`);
  for (const r of unexpected.filter((u) => !accepted.includes(u))) log.warn(`malformed: ${r.c.group} / ${r.c.label}: answered ${r.answer.status || r.answer.error}, expected ${r.c.expect}`);
  const problem = (text: string) => failures.push(`malformed: ${text}`);
  if (results.length < 200) problem(`only ${results.length} cases, expected at least 200`);
  if (serverErrors.length) problem(`${serverErrors.length} answers were 5xx (${serverErrors.map((r) => r.c.label).join('; ')})`);
  if (noAnswer.length) problem(`${noAnswer.length} requests got no answer (${noAnswer.map((r) => `${r.c.label}: ${r.answer.error}`).join('; ')})`);
  if (result.rowsCreated.bookings || result.rowsCreated.leads) problem(`malformed requests created ${result.rowsCreated.bookings} bookings and ${result.rowsCreated.leads} leads`);
  if (accepted.length) problem(`${accepted.length} malformed requests were accepted (${accepted.map((r) => `${r.c.group} / ${r.c.label}`).join('; ')})`);
  if (control.status !== 201) problem(`a valid booking afterwards answered ${control.status || control.error}`);
  return result;
}

// ---------------------------------------------------------------------------

function prepareSite() {
  mkdirSync(outbox, { recursive: true });
  seedDemo(migrateDatabase(dbPath));
  closeDatabase(dbPath);
  const started = performance.now();
  const result = spawnSync(process.execPath, ['server/rebuild.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  if (result.status !== 0) throw new Error(`publishing failed (${result.error?.message ?? `exit ${result.status}`})`);
  log.info(`published the demo directory in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  withDb((db) => {
    const active = db
      .prepare('select s.id, s.spa_id as spaId from services s join spas p on p.id = s.spa_id where s.active = 1 and p.active = 1 order by s.id')
      .all() as { id: number; spaId: number }[];
    if (active.length === 0) throw new Error('the demo data has no active service');
    // One service per spa, over as many spas as there are (up to 60): a burst
    // of 500 stays under each spa's limit of 30 an hour.
    const perSpa = new Map<number, number>();
    for (const service of active) if (!perSpa.has(service.spaId)) perSpa.set(service.spaId, service.id);
    services = [...perSpa.values()].slice(0, 60);
    const first = active[0]!;
    otherSpa = active.find((s) => s.spaId !== first.spaId)?.spaId ?? 999_999_999;
    const inactive = db.prepare('select id from services where active = 0 order by id limit 1').get() as { id: number } | undefined;
    inactiveService = inactive?.id ?? null;
  });
}

async function main() {
  const started = performance.now();
  const loadAtStart = loadavg().map((n) => round(n));
  prepareSite();
  await startServer();
  const load = parts.has('load') ? await measureLoad() : undefined;
  const kill = parts.has('kill') ? await measureKill() : undefined;
  const malformed = parts.has('malformed') ? await measureMalformed() : undefined;
  await stopServer();
  const mails = mailFiles().length;

  const figures = {
    date: new Date().toISOString(),
    machine: `${process.platform} ${process.arch}, ${cpus().length} CPUs, node ${process.version}`,
    // Timings from a busy machine (other builds, test runs) read worse; this says how busy it was.
    loadAverage: { atStart: loadAtStart, atEnd: loadavg().map((n) => round(n)) },
    seconds: round((performance.now() - started) / 1000, 1),
    load,
    kill,
    malformed,
    // Mail is sent by the queue's workers; the last booking's may still have been queued at the stop.
    mailsInOutboxAtEnd: mails,
    mailQueueAtEnd: queueState(),
    serverStderr: serverStderr.slice(0, 50),
    barsMissed: failures,
  };
  mkdirSync('data/bench', { recursive: true });
  writeFileSync('data/bench/bookings.json', `${JSON.stringify(figures, null, 2)}\n`);
  summarize(figures);
  log.info('figures written to data/bench/bookings.json');
  if (failures.length) {
    for (const failure of failures) log.error(`bar missed: ${failure}`);
    process.exitCode = 1;
  } else {
    log.info('every bar met');
  }
}

function summarize({ load, kill, malformed }: { load?: Awaited<ReturnType<typeof measureLoad>>; kill?: Awaited<ReturnType<typeof measureKill>>; malformed?: Awaited<ReturnType<typeof measureMalformed>> }) {
  log.info('summary');
  for (const r of load?.rounds ?? []) {
    log.info(
      `  load ${r.round}: ${r.answered201}/${r.requests} created, ${r.requestsPerSecond} req/s, p50/p95/p99/max ${r.latencyMs.p50}/${r.latencyMs.p95}/${r.latencyMs.p99}/${r.latencyMs.max} ms, ` +
        `mail queue empty ${r.mailQueueEmptyAfterLast201Ms ?? '-'} ms after the last 201`,
    );
  }
  if (kill) {
    log.info(`  kill: ${kill.answered201} answered 201 before SIGKILL, ${Object.values(kill.errorsAtKill).reduce((a, b) => a + b, 0)} cut off, ${kill.missingAfterRestart} missing after restart, restart ${kill.restartMs} ms`);
    const { mail } = kill;
    log.info(
      `  kill mail: ${mail.unsentAtKill} unsent at the kill; queue empty ${mail.queueEmptyAfterRestartMs ?? '-'} ms after the restart began; ` +
        `${mail.queuedForAnswered}/${mail.forAnswered} queued, ${mail.missing} missing, ${mail.notSent} not sent, ${mail.sentTwice} sent twice, ${mail.partialFilesLeft} .partial left`,
    );
  }
  if (malformed) {
    log.info(`  malformed: ${malformed.requests} requests, ${JSON.stringify(malformed.byStatus)}, ${malformed.serverErrors} 5xx, ${malformed.rowsCreated.bookings} rows created`);
  }
}

async function cleanUp() {
  await stopServer();
  rmSync(work, { recursive: true, force: true });
}

runBenchmark(main, cleanUp, log);
