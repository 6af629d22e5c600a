// `npm run bench` (memory): one server process, ten rebuilds, load after each,
// and its resident memory (RSS, from /proc) after each round. Every rebuild
// makes the server load the new build's handler; before issue 15's fix the old
// builds' modules stayed loaded for good (docs/decisions/0002).
// Bar (issue 15): under 250 MB after ten rebuilds and the load.
// Figures: data/bench/memory.json. Talks to 127.0.0.1 only; bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { queryAt } from '#tests/support/database.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { benchArgs, benchSiteEnv, percentile, reportBars, round, runBenchmark, SERVER_ARGS, waitForReady, waitUntil, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-memory');
const args = benchArgs(log, { port: 4388, rebuilds: 10, seconds: 4, workers: 16 });
const BAR_MB = 250;
const { port } = args;
const origin = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-memory-'));
const env = benchSiteEnv(work, port, { TRUST_PROXY: '1' });
let server: ChildProcess | null = null;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024, 1);
}

/** Page views, searches, API reads and booking requests from `workers` clients for `seconds`. */
async function load(seconds: number, services: number[], roundNo: number) {
  const latencies: number[] = [];
  const errors: string[] = [];
  let n = 0;
  const until = performance.now() + seconds * 1000;
  const preferredDate = addDays(pacificDate(), 7);
  const paths = [
    '/',
    '/spas/harborlight-aesthetics',
    '/cities/irvine',
    '/search-results?service=botox',
    '/api/spas/search?city=irvine',
    '/owner/login',
    '/offers',
    '/no-such-page',
  ];
  const worker = async (w: number) => {
    while (performance.now() < until) {
      const k = n++;
      const started = performance.now();
      try {
        if (k % 10 === 0) {
          const response = await fetch(`${origin}/api/bookings`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: origin, 'X-Forwarded-For': `10.${roundNo}.${w}.${k & 255}` },
            body: JSON.stringify({ name: `Memory ${k}`, email: `memory-${roundNo}-${k}@example.com`, serviceId: services[k % services.length], preferredDate }),
          });
          await response.arrayBuffer();
          if (response.status !== 201 && response.status !== 429) errors.push(`booking ${response.status}`);
        } else {
          // A varying query: search answers are cached per URL, as real traffic would vary them.
          const path = paths[k % paths.length]!.replace('botox', k % 3 === 0 ? 'botox' : `botox&page=${k % 7}`);
          const response = await fetch(`${origin}${path}`, { headers: { 'Accept-Encoding': k % 2 ? 'br, gzip' : 'identity' } });
          await response.arrayBuffer();
          if (response.status >= 500) errors.push(`${path} ${response.status}`);
        }
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: args.workers }, (_, w) => worker(w)));
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    errors: errors.length,
    firstErrors: errors.slice(0, 3),
  };
}

const buildOf = () =>
  fetch(`${origin}/healthz`)
    .then((r) => r.headers.get('x-site-build'))
    .catch(() => null);

async function main() {
  prepareSite(env);
  buildSite(env);
  // As the systemd unit in docs/deploy.md runs it.
  server = spawn(process.execPath, SERVER_ARGS, { env: { ...env, MALLOC_ARENA_MAX: '2' }, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForReady(origin);
  const services = queryAt<{ id: number }>(env.DATABASE_PATH, 'select id from services where active = 1').map((row) => row.id);

  // What the server says of its own memory (/readyz): the JavaScript heap, the
  // buffers outside it, and how many builds' server code it has loaded.
  const processMemory = () =>
    fetch(`${origin}/readyz`)
      .then((r) => r.json() as Promise<{ memory: { heapUsedMb: number; externalMb: number; buildsLoaded: number } }>)
      .then((body) => body.memory);
  const rounds: {
    round: number;
    build: string | null;
    rssMb: number;
    memory: Awaited<ReturnType<typeof processMemory>>;
    load: Awaited<ReturnType<typeof load>>;
  }[] = [];
  const first = await load(args.seconds, services, 0);
  rounds.push({ round: 0, build: await buildOf(), rssMb: rssMb(server.pid!), memory: await processMemory(), load: first });
  log.info(`start: ${rounds[0]!.rssMb} MB after ${first.requests} requests`);
  for (let i = 1; i <= args.rebuilds; i++) {
    const before = await buildOf();
    buildSite(env);
    await waitUntil(async () => (await buildOf()) !== before, `the server serving rebuild ${i}`, 30_000);
    const figures = await load(args.seconds, services, i);
    rounds.push({ round: i, build: await buildOf(), rssMb: rssMb(server.pid!), memory: await processMemory(), load: figures });
    const { memory } = rounds.at(-1)!;
    log.info(
      `rebuild ${i}: ${rounds.at(-1)!.rssMb} MB (heap ${memory.heapUsedMb}, outside the heap ${memory.externalMb}, builds loaded ${memory.buildsLoaded}) after ${figures.requests} requests (p99 ${figures.p99Ms} ms, ${figures.errors} errors)`,
    );
  }
  // Settle: what stays once the load is over.
  await delay(2000);
  const settled = rssMb(server.pid!);
  const last = rounds.at(-1)!;
  const figures = {
    date: new Date().toISOString(),
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    serverArgs: SERVER_ARGS,
    rebuilds: args.rebuilds,
    rssMbByRound: rounds.map((r) => r.rssMb),
    heapUsedMbByRound: rounds.map((r) => r.memory.heapUsedMb),
    externalMbByRound: rounds.map((r) => r.memory.externalMb),
    settledRssMb: settled,
    growthPerRebuildMb: round((last.rssMb - rounds[1]!.rssMb) / Math.max(1, rounds.length - 2), 1),
    rounds,
  };
  writeFigures(log, 'memory', figures);
  log.info(`RSS by round (MB): ${figures.rssMbByRound.join(', ')}; settled ${settled} MB`);
  const errors = rounds.reduce((sum, r) => sum + r.load.errors, 0);
  reportBars(log, [
    ...(Math.max(last.rssMb, settled) < BAR_MB
      ? []
      : [`resident memory ${Math.max(last.rssMb, settled)} MB after ${args.rebuilds} rebuilds, bar ${BAR_MB} MB`]),
    ...(errors
      ? [
          `${errors} failed requests (${rounds
            .flatMap((r) => r.load.firstErrors)
            .slice(0, 3)
            .join('; ')})`,
        ]
      : []),
  ]);
}

runBenchmark(main, { processes: () => [server], graceMs: 500, work }, log);
