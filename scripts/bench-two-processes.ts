// `npm run bench` (last part): the middle step of growing past one process
// (docs/decisions/0012). Two server processes share one database and one
// SITE_DIR (one runs the background jobs, BACKGROUND_JOBS=on; the other off),
// take booking requests and page views at full speed, and a rebuild is
// published while they do.
// Bars: 0 errors (no 5xx, no failed connection; a 429 from a rate limit is an
// answer, counted apart); every booking answered 201 is in the database once;
// the rebuild is published once and both processes serve it.
// Figures: data/bench/two-processes.json. Talks to 127.0.0.1 only; bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { count, like } from 'drizzle-orm';
import { bookings } from '#db/schema.ts';
import { withTablesAt } from '#tests/support/database.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { activeServiceIds } from './lib/bench-data.ts';
import { benchArgs, benchSiteEnv, percentile, reportBars, round, runBenchmark, SERVER_ARGS, waitForReady, waitUntil, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-two-processes');
const args = benchArgs(log, { port: 4390, workers: 16, seconds: 8 });
const ports = [args.port, args.port + 1];
const origins = ports.map((port) => `http://127.0.0.1:${port}`);
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-two-'));
const shared = benchSiteEnv(work, ports[0]!, { TRUST_PROXY: '1' });
const servers: ChildProcess[] = [];

const buildOf = (origin: string) => fetch(`${origin}/healthz`).then((r) => r.headers.get('x-site-build'));

async function main() {
  prepareSite(shared);
  buildSite(shared);
  ports.forEach((port, i) => {
    servers.push(
      spawn(process.execPath, SERVER_ARGS, {
        env: { ...shared, PORT: String(port), BACKGROUND_JOBS: i === 0 ? 'on' : 'off' },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
  });
  for (const origin of origins) await waitForReady(origin, 60_000);
  const firstBuild = await buildOf(origins[0]!);
  const buildsBefore = readdirSync(join(shared.SITE_DIR!, 'builds')).length;
  const services = activeServiceIds(shared.DATABASE_PATH);

  const created: number[] = [];
  const latencies: number[] = [];
  const errors: string[] = [];
  let limited = 0;
  let n = 0;
  let stop = false;
  const preferredDate = addDays(pacificDate(), 7);
  const worker = async (w: number) => {
    for (let i = 0; !stop && i < 100_000; i++) {
      const k = n++;
      const origin = origins[k % 2]!;
      const started = performance.now();
      try {
        if (k % 3 === 0) {
          const response = await fetch(`${origin}/api/bookings`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: origins[0]!, 'X-Forwarded-For': `10.${w}.${(k >> 8) & 255}.${k & 255}` },
            body: JSON.stringify({ name: `Two Process ${k}`, email: `two-${k}@example.com`, serviceId: services[k % services.length], preferredDate }),
          });
          if (response.status === 201) created.push(((await response.json()) as { id: number }).id);
          else if (response.status === 429) limited++;
          else errors.push(`booking ${response.status}`);
        } else {
          const response = await fetch(`${origin}${k % 3 === 1 ? '/spas/harborlight-aesthetics' : '/api/spas/search?city=irvine'}`);
          await response.arrayBuffer();
          if (response.status !== 200) errors.push(`page ${response.status}`);
        }
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
      latencies.push(performance.now() - started);
    }
  };
  const workers = Array.from({ length: args.workers }, (_, w) => worker(w));

  // A rebuild while both serve (once the load runs): one build, picked up by both.
  await waitUntil(() => created.length > 0, 'the first created booking');
  // Not spawnSync: the load must go on while the rebuild runs.
  const rebuild = await new Promise<{ status: number | null }>((resolve) => {
    spawn(process.execPath, ['server/rebuild.ts'], { env: shared, stdio: ['ignore', 'ignore', 'inherit'] }).once('exit', (status) => resolve({ status }));
  });
  await delay(args.seconds * 1000);
  stop = true;
  await Promise.all(workers);
  // Both processes watch the `current` link; give them the moment they need.
  let builds: (string | null)[] = [];
  for (let i = 0; i < 100; i++) {
    builds = await Promise.all(origins.map(buildOf));
    if (builds.every((build) => build && build !== firstBuild)) break;
    await delay(50);
  }
  const buildsAfter = readdirSync(join(shared.SITE_DIR!, 'builds')).length;

  const stored = new Map(
    withTablesAt(shared.DATABASE_PATH, (db) =>
      db.select({ id: bookings.id, n: count() }).from(bookings).where(like(bookings.email, 'two-%')).groupBy(bookings.id).all(),
    ).map((row) => [row.id, row.n]),
  );
  const lost = created.filter((id) => stored.get(id) !== 1);

  const sorted = latencies.sort((a, b) => a - b);
  const figures = {
    date: new Date().toISOString(),
    requests: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    bookingsCreated: created.length,
    rateLimited: limited,
    errors: errors.length,
    firstErrors: errors.slice(0, 5),
    lostBookings: lost.length,
    rebuild: { ok: rebuild.status === 0, buildsBefore, buildsAfter, servedAfter: builds },
  };
  writeFigures(log, 'two-processes', figures);
  log.info(JSON.stringify(figures, null, 2));
  const missed = [
    ...(errors.length ? [`${errors.length} errors (${errors.slice(0, 3).join('; ')})`] : []),
    ...(lost.length ? [`${lost.length} bookings answered 201 are missing or doubled`] : []),
    ...(rebuild.status === 0 ? [] : ['the rebuild failed']),
    // pruneBuilds keeps 3, so "one more" shows as one more until the cap.
    ...(buildsAfter === Math.min(buildsBefore + 1, 3) ? [] : [`builds went from ${buildsBefore} to ${buildsAfter}, not one more`]),
    ...(builds.every((build) => build && build !== firstBuild) && builds[0] === builds[1] ? [] : [`the processes serve ${builds.join(' and ')}`]),
    ...(created.length ? [] : ['no booking was created: the load did not run']),
  ];
  reportBars(log, missed);
}

runBenchmark(main, { processes: () => servers, graceMs: 500, work }, log);
