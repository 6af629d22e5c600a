// `npm run bench`: measures what the foundation promises and writes the figures
// to data/bench/foundation.json.
//   1. Build time of the demo directory and of a generated one (--spas, default 5000).
//   2. A rebuild under continuous load: every response must be complete and OK
//      while the new build is swapped in; throughput and latency are reported.
// Talks to 127.0.0.1 only; every loop is bounded in time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemo } from '#db/seed.ts';
import { closeDatabase } from '#db/client.ts';
import { logger } from '#lib/log.ts';
import { currentBuildDir, readBuildInfo } from '#lib/server/published-site.ts';
import { spas } from '#db/schema.ts';
import { withTablesAt } from '#tests/support/database.ts';
import { benchArgs, percentile, SERVER_ARGS, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench');
const args = benchArgs(log, { spas: 5000, port: 4398 });
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-'));
const { port } = args;
const base = `http://127.0.0.1:${port}`;

const envFor = (name: string) => ({
  ...process.env,
  DATABASE_PATH: join(work, name, 'site.db'),
  SITE_DIR: join(work, name, 'site'),
  SITE_URL: base,
  PORT: String(port),
  HOST: '127.0.0.1',
  REBUILD_LOG_LEVEL: 'warn',
});

function timed(label: string, argv: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${label} failed`);
  const seconds = (performance.now() - started) / 1000;
  log.info(`${label}: ${seconds.toFixed(1)} s`);
  return seconds;
}

const countPages = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith('.html')).length;

async function main() {
  // 1. Build times.
  const demo = envFor('demo');
  mkdirSync(join(work, 'demo'));
  seedDemo(migrateDatabase(demo.DATABASE_PATH));
  closeDatabase(demo.DATABASE_PATH);
  const demoBuild = timed('build, demo directory', ['server/rebuild.ts'], demo);
  const demoPages = countPages(join(currentBuildDir(demo.SITE_DIR)!, 'client'));

  const big = envFor('generated');
  mkdirSync(join(work, 'generated'));
  timed(`generate ${args.spas} spas`, ['scripts/generate.ts', '--spas', String(args.spas), '--db', big.DATABASE_PATH], big);
  const bigBuild = timed(`build, ${args.spas} spas`, ['server/rebuild.ts'], big);
  const bigPages = countPages(join(currentBuildDir(big.SITE_DIR)!, 'client'));

  // 2. A rebuild of the demo site under load.
  const server = spawn(process.execPath, SERVER_ARGS, { env: demo, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    server.on('exit', () => reject(new Error('server exited')));
  });
  const slugs = withTablesAt(demo.DATABASE_PATH, (db) => db.select({ slug: spas.slug }).from(spas).orderBy(spas.id).limit(5).all()).map((r) => r.slug);
  const paths = ['/', '/sitemap', '/cities/irvine', '/privacy-policy', ...slugs.map((s) => `/spas/${s}`)];

  const latencies: number[] = [];
  const failures: string[] = [];
  const builds = new Map<string, number>(); // build id -> responses it served
  let running = true;
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const path = paths[i % paths.length]!;
      const started = performance.now();
      try {
        const response = await fetch(base + path);
        const body = await response.text();
        latencies.push(performance.now() - started);
        const build = response.headers.get('x-site-build') ?? 'unknown';
        builds.set(build, (builds.get(build) ?? 0) + 1);
        if (response.status !== 200) failures.push(`${path} ${response.status}`);
        else if (!body.trimEnd().endsWith('</html>')) failures.push(`${path} truncated`);
      } catch (error) {
        failures.push(`${path} ${(error as Error).message}`);
      }
    }
  };
  const concurrency = 16;
  const loadStarted = performance.now();
  const load = Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
  const before = currentBuildDir(demo.SITE_DIR);
  const rebuildSeconds = await new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['server/rebuild.ts'], { env: demo, stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error('rebuild failed'))));
  });
  // Keep the load on until the new build has answered 2,000 requests, so the
  // switch itself is inside the measurement.
  const newBuild = readBuildInfo(currentBuildDir(demo.SITE_DIR)!)!.id;
  const deadline = performance.now() + 30_000;
  while ((builds.get(newBuild) ?? 0) < 2000 && performance.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  running = false;
  await load;
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  server.kill('SIGTERM');
  const swapped = currentBuildDir(demo.SITE_DIR) !== before && (builds.get(newBuild) ?? 0) >= 2000;

  latencies.sort((a, b) => a - b);
  const figures = {
    date: new Date().toISOString(),
    machine: `${process.platform} ${process.arch}, node ${process.version}`,
    build: {
      demo: { pages: demoPages, seconds: +demoBuild.toFixed(2) },
      generated: { spas: args.spas, pages: bigPages, seconds: +bigBuild.toFixed(2) },
    },
    rebuildUnderLoad: {
      concurrency,
      rebuildSeconds: +rebuildSeconds.toFixed(2),
      swapped,
      requests: latencies.length,
      requestsPerBuild: Object.fromEntries(builds),
      failures: failures.length,
      failureSamples: failures.slice(0, 5),
      requestsPerSecond: Math.round(latencies.length / loadSeconds),
      latencyMs: {
        p50: +percentile(latencies, 50).toFixed(2),
        p95: +percentile(latencies, 95).toFixed(2),
        p99: +percentile(latencies, 99).toFixed(2),
        max: +(latencies.at(-1) ?? 0).toFixed(2),
      },
    },
  };
  writeFigures(log, 'foundation', figures);
  log.info(JSON.stringify(figures, null, 2));
  rmSync(work, { recursive: true, force: true });
  if (failures.length || !swapped) process.exit(1);
}

main().catch((error: unknown) => {
  log.error('failed', error);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
