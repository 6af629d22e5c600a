// What the three parts of the booking benchmark (scripts/bench-bookings.ts)
// share: the arguments, the throw-away site and its server, raw HTTP, the
// database counts and the mail the bars are judged on, and valid requests.
// Talks to 127.0.0.1 only; every wait polls a condition and has a deadline.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { and, count, gt, inArray, isNotNull, isNull, like, type SQL } from 'drizzle-orm';
import { bookings, leads, mailQueue, rateLimits } from '#db/schema.ts';
import type { MailMessage } from '#lib/server/mail/mailer.ts';
import { withTablesAt, type Tables } from '#tests/support/database.ts';
import { outboxFiles, readOutbox } from '#tests/support/mail.ts';
import { benchSiteEnv, percentile, round, SERVER_ARGS } from '../lib/bench-kit.ts';

export const log = logger('bench-bookings');
export const { values } = parseArgs({
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
export const parts = new Set((values.only ?? 'load,kill,malformed').split(','));
for (const name of ['port', 'burst', 'rounds', 'workers', 'kill-ms', 'kill-after'] as const) {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) {
    log.error(`--${name} must be a positive whole number`);
    process.exit(2);
  }
}

export const port = Number(values.port);
export const origin = `http://127.0.0.1:${port}`;
export const BODY_LIMIT = 16_384; // src/pages/api/bookings/index.ts
const REQUEST_TIMEOUT_MS = 30_000;

export const work = mkdtempSync(join(tmpdir(), 'medspa-bench-bookings-'));
// Mail goes to files in the work folder, whatever the caller's environment says.
// The request log stays on, as in production: the figures include its cost.
export const env = benchSiteEnv(work, port, { REQUEST_LOG: 'on' });
const dbPath = env.DATABASE_PATH;
const outbox = env.MAIL_OUTBOX;

/** The bars missed, each part adding its own. */
export const failures: string[] = [];

// ---------------------------------------------------------------------------
// HTTP: node:http, so a request can carry any bytes and any headers, and so the
// number of sockets is ours to set (a burst opens one socket per request).

/** status 0: no answer at all; error with a status: the answer was cut off. `at`: performance.now() when it ended. */
export type Answer = { status: number; body: string; ms: number; at: number; error?: string };

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
export function nextClient(): string {
  const c = clients++;
  return `127.${10 + Math.floor(c / 62_500)}.${1 + (Math.floor(c / 250) % 250)}.${1 + (c % 250)}`;
}

export function forgetBookingLimits(): void {
  withTablesAt(dbPath, (db) => db.delete(rateLimits).where(like(rateLimits.key, 'booking:%')).run(), { write: true });
}

export function send({ agent, method = 'POST', path = '/api/bookings', headers = {}, body, chunked = false, from }: Send): Promise<Answer> {
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

export const jsonHeaders = (): OutgoingHttpHeaders => ({ 'Content-Type': 'application/json', Origin: origin });

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const bookingId = (answer: Answer): number | null => {
  const value = parseJson(answer.body) as { id?: unknown } | undefined;
  return typeof value?.id === 'number' ? value.id : null;
};

export const latencySummary = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
};

export function tally(list: string[]): Record<string, number> {
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
export const serverStderr: string[] = [];

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
export async function startServer(): Promise<number> {
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
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${serverStderr.slice(-5).join(' | ')}`);
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

/** SIGKILL to the server's process group, at once (before the first await); resolves once it is gone. */
export async function killServer(): Promise<void> {
  const target = server!;
  signalGroup(target, 'SIGKILL');
  await target.exited;
  server = null;
}

export async function stopServer(): Promise<void> {
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
export function serverCpuMs(): number | null {
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
export async function portReleased(): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (await isListening()) {
    if (performance.now() > deadline) throw new Error(`${origin} still answers after the server was killed`);
    await delay(20);
  }
}

// ---------------------------------------------------------------------------
// The database, read-only, for the counts the bars are judged on.

export const withDb = <T>(fn: (db: Tables) => T): T => withTablesAt(dbPath, fn);

export const rowCounts = () =>
  withDb((db) => ({
    bookings: db.select({ n: count() }).from(bookings).get()!.n,
    leads: db.select({ n: count() }).from(leads).get()!.n,
  }));

/** Of these booking ids, how many have their booking row (with this email) and their lead. */
export function present(expected: Map<number, string>) {
  const ids = [...expected.keys()];
  return withDb((db) => {
    const rows = db.select({ id: bookings.id, email: bookings.email }).from(bookings).where(inArray(bookings.id, ids)).all();
    const withLead = new Set(
      db
        .selectDistinct({ id: leads.bookingId })
        .from(leads)
        .where(inArray(leads.bookingId, ids))
        .all()
        .map((r) => r.id),
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

export const mailFiles = () => outboxFiles(outbox);
export const partialFiles = () => readdirSync(outbox).filter((name) => name.endsWith('.partial'));

/** Waits until the outbox holds `expected` mails; returns the milliseconds that took, null if they never came. */
export async function mailsWritten(expected: number): Promise<number | null> {
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

export const queueState = () =>
  withDb((db) => {
    const unsent = and(isNull(mailQueue.sentAt), isNull(mailQueue.failedAt));
    const counted = (where?: SQL) => db.select({ n: count() }).from(mailQueue).where(where).get()!.n;
    return {
      unsent: counted(unsent),
      inFlight: counted(and(unsent, gt(mailQueue.attempts, 0))),
      givenUp: counted(isNotNull(mailQueue.failedAt)),
      total: counted(),
    };
  });

/** Polls until the queue has no unsent message; returns performance.now() at that moment, null at the deadline. */
export async function mailQueueEmptyBy(deadline: number): Promise<number | null> {
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

export type Booked = { email: string; name: string };
const CLIENT_SUBJECT = 'We received your request';
const spaSubject = (name: string) => `New booking request from ${name}`;

/**
 * For these bookings: are both their messages in the queue, sent, and in the
 * outbox? Matched by the client's address (To of the client's message,
 * Reply-To of the spa's) and the exact subject of the spa's, which names the
 * client. A message in the outbox more than once was sent again after a crash:
 * allowed (delivery is at least once), counted.
 */
export function bookingMail(bookings: Booked[]) {
  const rows = withDb((db) =>
    db
      .select({ id: mailQueue.id, message: mailQueue.message, sentAt: mailQueue.sentAt, failedAt: mailQueue.failedAt, attempts: mailQueue.attempts })
      .from(mailQueue)
      .all(),
  ).map(({ message, ...row }) => {
    const { to, replyTo, subject } = message as MailMessage;
    return { ...row, to: to ?? null, replyTo: replyTo ?? null, subject: subject ?? null };
  });
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
  const files = readOutbox(outbox);
  const filesForClient = group(files, (f) => (f.subject.startsWith(CLIENT_SUBJECT) ? (f.to[0] ?? null) : null));
  const filesForSpa = group(files, (f) => (f.subject.startsWith(spaSubject('')) ? `${f.replyTo[0] ?? ''} ${f.subject}` : null));

  const result = {
    expected: 0,
    queued: 0,
    missingFromQueue: 0,
    queuedMoreThanOnce: 0,
    notSent: 0,
    givenUp: 0,
    attemptedMoreThanOnce: 0,
    inOutbox: 0,
    missingFromOutbox: 0,
    sentTwice: 0,
  };
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
        examples.push(
          `${what} mail of ${email}: ${queued.length} queued (${queued.filter((r) => r.sentAt !== null).length} sent), ${written.length} in the outbox`,
        );
    }
  }
  return { ...result, examples };
}

// ---------------------------------------------------------------------------
// Valid requests.

/** Filled in by prepareSite (the entry): the services bookings name, a spa other than the first service's, an inactive service. */
export const demo = { services: [] as number[], otherSpa: 0, inactiveService: null as number | null };
export const preferredDate = () => addDays(pacificDate(), 7);

export function validBody(tag: string, i: number): Record<string, unknown> {
  return {
    name: `Bench Client ${i}`,
    email: `bench-${tag}-${i}@example.com`,
    phone: '(714) 555-0100',
    serviceId: demo.services[i % demo.services.length],
    preferredDate: preferredDate(),
    message: 'hello',
    source: 'bench',
    medium: 'load',
    campaign: tag,
  };
}
