// `npm run bench` (fifth part): backups under write load, and a restore.
//   1. A served demo site takes booking requests at full speed (--workers
//      concurrent streams, each request from its own client address through
//      TRUST_PROXY, so the per-client limits do not stop the load).
//   2. Meanwhile `npm run db:backup` runs --backups times, one after another.
//      For each, the bookings answered 201 before it started are noted.
//   3. The site is stopped, the newest backup restored with
//      `npm run db:restore`, and the site started again on it.
// Bars: every backup passes; every booking acknowledged before the newest
// backup began is in the restored database; the restored site answers
// /readyz 200 and serves a spa page. Figures: data/bench/backup.json.
// Talks to 127.0.0.1 only; every loop is bounded.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { bookings } from '#db/schema.ts';
import { withTablesAt } from '#tests/support/database.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { activeServiceIds } from './lib/bench-data.ts';
import { benchArgs, benchSiteEnv, reportBars, round, runBenchmark, SERVER_ARGS, waitForReady, waitUntil, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-backup');
const args = benchArgs(log, { port: 4393, workers: 16, backups: 3 });
const { port } = args;
const origin = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-backup-'));
const env = benchSiteEnv(work, port, { BACKUP_DIR: join(work, 'backups'), TRUST_PROXY: '1' });
let server: ChildProcess | null = null;

async function startSite() {
  server = spawn(process.execPath, SERVER_ARGS, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForReady(origin, 60_000);
}

async function stopSite() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

function runScript(script: string, args: string[] = []): { ok: boolean; ms: number; output: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [script, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  return { ok: result.status === 0, ms: round(performance.now() - started, 0), output: `${result.stdout}${result.stderr}`.trim() };
}

async function main() {
  prepareSite(env);
  buildSite(env);
  const services = activeServiceIds(env.DATABASE_PATH);
  await startSite();

  // Bookings at full speed; each acknowledged id is noted with the moment it was acknowledged.
  const acknowledged: { id: number; at: number }[] = [];
  let failures = 0;
  let stop = false;
  let n = 0;
  const preferredDate = addDays(pacificDate(), 7);
  const writer = async (worker: number) => {
    for (let i = 0; !stop && i < 100_000; i++) {
      const k = n++;
      const response = await fetch(`${origin}/api/bookings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin, 'X-Forwarded-For': `10.${worker}.${(k >> 8) & 255}.${k & 255}` },
        body: JSON.stringify({ name: `Backup Client ${k}`, email: `backup-${k}@example.com`, serviceId: services[k % services.length], preferredDate }),
      }).catch(() => null);
      if (response?.status === 201) acknowledged.push({ id: ((await response.json()) as { id: number }).id, at: performance.now() });
      else failures++;
    }
  };
  const writers = Array.from({ length: args.workers }, (_, worker) => writer(worker));

  // The backups start once the load has.
  await waitUntil(() => acknowledged.length > 0, 'the first acknowledged booking');
  const backups: { startedAt: number; ackedBefore: number; ok: boolean; ms: number }[] = [];
  for (let i = 0; i < args.backups; i++) {
    const startedAt = performance.now();
    const ackedBefore = acknowledged.length;
    // spawnSync would stop this process's writers; the backup runs beside them.
    const result = await new Promise<{ ok: boolean; ms: number }>((resolve) => {
      const child = spawn(process.execPath, ['server/backup.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      child.once('exit', (code) => resolve({ ok: code === 0, ms: round(performance.now() - startedAt, 0) }));
    });
    backups.push({ startedAt, ackedBefore, ...result });
    await delay(1_100); // backup names have one-second resolution
  }
  stop = true;
  await Promise.all(writers);
  await stopSite();

  const files = readdirSync(env.BACKUP_DIR!)
    .filter((name) => name.endsWith('.db'))
    .sort();
  const newest = join(env.BACKUP_DIR!, files.at(-1)!);
  const last = backups.at(-1)!;
  const mustHave = acknowledged.filter((entry) => entry.at < last.startedAt).map((entry) => entry.id);
  const restoreRun = runScript('server/restore.ts', [newest]);
  const present = new Set(withTablesAt(env.DATABASE_PATH, (db) => db.select({ id: bookings.id }).from(bookings).all()).map((row) => row.id));
  const missing = mustHave.filter((id) => !present.has(id));

  await startSite();
  const ready = (await fetch(`${origin}/readyz`)).status;
  const spaPage = (await fetch(`${origin}/spas/harborlight-aesthetics`)).status;
  await stopSite();

  const elapsed = (acknowledged.at(-1)?.at ?? 0) - (acknowledged[0]?.at ?? 0);
  const figures = {
    date: new Date().toISOString(),
    bookingsAcknowledged: acknowledged.length,
    bookingsPerSecond: round(acknowledged.length / Math.max(elapsed / 1000, 0.001), 0),
    failedRequests: failures,
    backups: backups.map(({ ok, ms, ackedBefore }) => ({ ok, ms, ackedBefore })),
    restore: { ok: restoreRun.ok, ms: restoreRun.ms, file: files.at(-1) },
    acknowledgedBeforeNewestBackup: mustHave.length,
    missingAfterRestore: missing.length,
    restoredSite: { readyz: ready, spaPage },
  };
  writeFigures(log, 'backup', figures);
  log.info(JSON.stringify(figures, null, 2));
  const missed = [
    ...backups.filter((b) => !b.ok).map(() => 'a backup failed'),
    ...(restoreRun.ok ? [] : [`restore failed: ${restoreRun.output}`]),
    ...(missing.length ? [`${missing.length} acknowledged bookings missing after the restore`] : []),
    ...(ready === 200 && spaPage === 200 ? [] : [`the restored site answered /readyz ${ready}, spa page ${spaPage}`]),
    ...(acknowledged.length === 0 ? ['no booking was acknowledged: the load did not run'] : []),
  ];
  reportBars(log, missed);
}

runBenchmark(
  main,
  async () => {
    await stopSite().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  },
  log,
);
