// `npm run bench` (fourth part), also `npm run test:security`: a 200 MB chunked
// POST, without Content-Length, to every route that reads a body, one after the
// other, while a steady stream of ordinary requests runs beside them.
// Bars (issue 9): every post answered 413; the stream's p99 under 100 ms and no
// failed request; the server's resident memory under 300 MB throughout.
// Figures go to data/bench/bodies.json; the process exits 1 when a bar is missed.
// Talks to 127.0.0.1 only; every loop is bounded in count and time.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { logger } from '#lib/log.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { answers, benchArgs, benchSiteEnv, percentile, reportBars, round, runBenchmark, SERVER_ARGS, waitUntil, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-bodies');
// --attack and --type are internal: they make this the attacking process (so its writes do not delay the measuring one).
const args = benchArgs(log, { port: 4396, megabytes: 200, streams: 4 }, ['attack', 'type']);
const { port } = args;
const origin = `http://127.0.0.1:${port}`;
const attackBytes = args.megabytes * 1024 * 1024;
const BARS = { p99Ms: 100, rssMb: 300 };

// Every route that reads a request body: the form pages and the JSON endpoints.
const ROUTES: { path: string; type: string }[] = [
  { path: '/newsletter', type: 'application/x-www-form-urlencoded' },
  { path: '/newsletter/confirm', type: 'application/x-www-form-urlencoded' },
  { path: '/newsletter/unsubscribe?token=x', type: 'application/x-www-form-urlencoded' },
  { path: '/booking/request', type: 'application/x-www-form-urlencoded' },
  { path: '/auth/confirm', type: 'application/x-www-form-urlencoded' },
  { path: '/owner/dashboard', type: 'application/x-www-form-urlencoded' },
  { path: '/bookings/manage/x', type: 'application/x-www-form-urlencoded' },
  { path: '/api/logout', type: 'application/x-www-form-urlencoded' },
  { path: '/api/bookings', type: 'application/json' },
  { path: '/api/auth/request', type: 'application/json' },
  { path: '/api/analytics/event', type: 'application/json' },
];

// The attacking process does its one attack and is done: it has no site or folder of its own.
if (args.attack) {
  const result = await attack(args.attack, args.type ?? 'application/x-www-form-urlencoded', attackBytes);
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'medspa-bench-bodies-'));
const env = benchSiteEnv(work, port);
let server: ChildProcess | null = null;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Runs one attack in a process of its own and returns what it saw. */
function attackInChild(path: string, type: string): Promise<{ status: number; sentMb: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [import.meta.filename, '--port', String(port), '--megabytes', String(args.megabytes), '--attack', path, '--type', type],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (data: Buffer) => (out += data.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`attacker exited ${code}`))));
  });
}

/** Sends up to `total` bytes chunked; resolves with the status and how much went out before the server answered. */
function attack(path: string, type: string, total: number): Promise<{ status: number; sentMb: number; ms: number }> {
  const started = performance.now();
  const piece = Buffer.alloc(64 * 1024, 'a=&');
  return new Promise((resolve) => {
    let sent = 0;
    let status = 0;
    const finish = () => resolve({ status, sentMb: round(sent / 1024 / 1024, 1), ms: round(performance.now() - started, 1) });
    const req = httpRequest(`${origin}${path}`, { method: 'POST', agent: false, headers: { 'Content-Type': type, Origin: origin } });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
    });
    req.on('error', () => {});
    req.on('close', finish);
    const deadline = performance.now() + 30_000;
    // One chunk per turn of the event loop: a real client reads while it sends.
    const pump = () => {
      if (sent >= total || status || req.destroyed || performance.now() > deadline) {
        if (!req.destroyed) req.end();
        return;
      }
      sent += piece.length;
      if (req.write(piece)) setImmediate(pump);
      else req.once('drain', pump);
    };
    pump();
  });
}

/** Ordinary visitors: GET requests one after another on each of `streams` keep-alive connections until `stop` is set. */
async function steadyStream(streams: number, state: { stop: boolean }, latencies: number[], failures: string[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: streams });
  const paths = ['/', '/api/cities', '/services', '/api/spas/search?city=irvine'];
  const one = (path: string) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = httpRequest(`${origin}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if (res.statusCode !== 200) failures.push(`${path}: ${res.statusCode}`);
          resolve();
        });
      });
      req.on('error', (error) => {
        failures.push(`${path}: ${error.message}`);
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: streams }, async (_, stream) => {
      for (let i = 0; !state.stop && i < 200_000; i++) await one(paths[(i + stream) % paths.length]!);
    }),
  );
  agent.destroy();
}

/** The stream alone for `ms`: its latencies and failures go to the lists given. */
async function streamFor(ms: number, latencies: number[], failures: string[]) {
  const state = { stop: false };
  const run = steadyStream(args.streams, state, latencies, failures);
  await delay(ms);
  state.stop = true;
  await run;
}

async function main() {
  prepareSite(env);
  buildSite(env);
  server = spawn(process.execPath, SERVER_ARGS, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitUntil(() => answers(`${origin}/api/cities`), 'the server answering', 30_000);
  const pid = server.pid!;

  // Warm up (first renders, JIT), then the same stream alone, to compare against.
  await streamFor(2_000, [], []);
  const baseline: number[] = [];
  await streamFor(3_000, baseline, []);

  const latencies: number[] = [];
  const failures: string[] = [];
  const state = { stop: false };
  const rssBefore = rssMb(pid);
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 20);
  const stream = steadyStream(args.streams, state, latencies, failures);
  const attacks = [];
  for (const route of ROUTES) attacks.push({ route: route.path, ...(await attackInChild(route.path, route.type)) });
  state.stop = true;
  await stream;
  clearInterval(sampler);

  const sorted = latencies.sort((a, b) => a - b);
  const sortedBaseline = baseline.sort((a, b) => a - b);
  const figures = {
    date: new Date().toISOString(),
    attackMegabytes: args.megabytes,
    attacks,
    stream: {
      requests: sorted.length,
      failures: failures.length,
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? 0),
    },
    baseline: { requests: sortedBaseline.length, p50Ms: round(percentile(sortedBaseline, 50)), p99Ms: round(percentile(sortedBaseline, 99)) },
    rssBeforeMb: round(rssBefore, 1),
    peakRssMb: round(peakRss, 1),
    bars: BARS,
  };
  writeFigures(log, 'bodies', figures);
  log.info(JSON.stringify(figures, null, 2));

  const missed = [
    ...attacks.filter((a) => a.status !== 413).map((a) => `${a.route} answered ${a.status}, not 413`),
    ...(figures.stream.p99Ms >= BARS.p99Ms ? [`stream p99 ${figures.stream.p99Ms} ms >= ${BARS.p99Ms} ms`] : []),
    ...(figures.stream.failures > 0 ? [`${figures.stream.failures} stream requests failed: ${failures.slice(0, 3).join('; ')}`] : []),
    ...(figures.peakRssMb >= BARS.rssMb ? [`server RSS peaked at ${figures.peakRssMb} MB >= ${BARS.rssMb} MB`] : []),
  ];
  reportBars(log, missed);
}

runBenchmark(main, { processes: () => [server], graceMs: 200, work }, log);
