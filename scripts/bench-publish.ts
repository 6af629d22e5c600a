// Listing change -> live on the spa page (issue 13's bar): a generated
// directory (--spas, default 500) served by the real server with the rebuild
// queue on; one listing's description is changed in the database (as the
// listing editor does), then the spa page is fetched until it shows the new
// words ("live": rendered from the data while the build is due, docs/decisions/0025),
// and on until the build's own file shows them ("built": the page has the
// build's ETag, and the lists that name the spa are rebuilt too). --edits
// (default 20) such changes one after another; median and p95 of both in
// data/bench/publish.json. Bar: live p95 under 10 s.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { logger } from '#lib/log.ts';
import { eq } from 'drizzle-orm';
import { spas } from '#db/schema.ts';
import { withTablesAt } from '#tests/support/database.ts';
import { benchArgs, benchSiteEnv, percentile, reportBars, round, runBenchmark, SERVER_ARGS, waitUntil, writeFigures } from './lib/bench-kit.ts';
import { currentBuildDir, readBuildInfo } from '#lib/server/published-site.ts';

const log = logger('bench-publish');
const args = benchArgs(log, { spas: 500, edits: 20, port: 4396 });
const BAR_P95_MS = 10_000;
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-publish-'));
const { port } = args;
const base = `http://127.0.0.1:${port}`;
const env = benchSiteEnv(work, port, { BACKGROUND_JOBS: 'on', PUBLISH_ON_CHANGE: 'on' });
let server: ChildProcess | null = null;

function run(label: string, argv: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${label} failed`);
  const ms = performance.now() - started;
  log.info(`${label}: ${(ms / 1000).toFixed(1)} s`);
  return ms;
}

async function main() {
  mkdirSync(work, { recursive: true });
  run(`generate ${args.spas} spas`, ['scripts/generate.ts', '--spas', String(args.spas), '--db', env.DATABASE_PATH!]);
  const firstBuildMs = run('first build', ['server/rebuild.ts']);
  log.info(`published ${readBuildInfo(currentBuildDir(env.SITE_DIR!)!)?.id}`);

  let output = '';
  server = spawn(process.execPath, SERVER_ARGS, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(() => output.includes('listening on'), 'the server start');

  const targets = withTablesAt(env.DATABASE_PATH, (db) =>
    db.select({ id: spas.id, slug: spas.slug, description: spas.description }).from(spas).where(eq(spas.active, true)).orderBy(spas.id).limit(args.edits).all(),
  );
  const latencies: number[] = [];
  const builtLatencies: number[] = [];
  const loadAtStart = loadavg()[0]!;
  for (const [i, spa] of targets.entries()) {
    const marker = `Bench edit ${i + 1} at ${Date.now()}.`;
    const started = performance.now();
    withTablesAt(
      env.DATABASE_PATH,
      (db) =>
        db
          .update(spas)
          .set({ description: `${spa.description ?? ''} ${marker}`, updatedAt: new Date() })
          .where(eq(spas.id, spa.id))
          .run(),
      { write: true },
    );
    const shows = async (fromBuild: boolean) => {
      const response = await fetch(`${base}/spas/${spa.slug}`);
      const body = await response.text();
      return response.ok && body.includes(marker) && (!fromBuild || response.headers.has('etag'));
    };
    await waitUntil(() => shows(false), `edit ${i + 1} going live`, 120_000);
    const ms = performance.now() - started;
    latencies.push(ms);
    await waitUntil(() => shows(true), `edit ${i + 1} in a build`, 180_000);
    const builtMs = performance.now() - started;
    builtLatencies.push(builtMs);
    log.info(`edit ${i + 1}/${targets.length}: live after ${(ms / 1000).toFixed(2)} s, in the build after ${(builtMs / 1000).toFixed(1)} s`);
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const figures = {
    at: new Date().toISOString(),
    spas: args.spas,
    edits: latencies.length,
    firstBuildSeconds: round(firstBuildMs / 1000, 1),
    liveAfterSeconds: {
      median: round(percentile(sorted, 50) / 1000, 2),
      p95: round(percentile(sorted, 95) / 1000, 2),
      min: round(sorted[0]! / 1000, 2),
      max: round(sorted.at(-1)! / 1000, 2),
    },
    inBuildAfterSeconds: summary(builtLatencies),
    debounce: { quietSeconds: 3, maxWaitSeconds: 15 },
    loadAverage: { atStart: round(loadAtStart), atEnd: round(loadavg()[0]!) },
  };
  writeFigures(log, 'publish', figures);
  log.info(
    `listing change -> live at ${figures.spas} spas: median ${figures.liveAfterSeconds.median} s, p95 ${figures.liveAfterSeconds.p95} s; in the build: median ${figures.inBuildAfterSeconds.median} s, p95 ${figures.inBuildAfterSeconds.p95} s`,
  );
  reportBars(log, percentile(sorted, 95) < BAR_P95_MS ? [] : [`p95 ${figures.liveAfterSeconds.p95} s is over the ${BAR_P95_MS / 1000} s bar`]);
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const seconds = (ms: number) => round(ms / 1000, 1);
  return { median: seconds(percentile(sorted, 50)), p95: seconds(percentile(sorted, 95)), min: seconds(sorted[0]!), max: seconds(sorted.at(-1)!) };
}

runBenchmark(main, { processes: () => [server], graceMs: 0, work }, log);
