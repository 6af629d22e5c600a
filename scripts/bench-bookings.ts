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
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { buildSite, prepareSite as prepareDemoSite } from '#tests/support/site.ts';
import { measureKill } from './bench-bookings/kill.ts';
import { and, eq } from 'drizzle-orm';
import { services, spas } from '#db/schema.ts';
import { demo, env, failures, log, mailFiles, parts, queueState, serverStderr, startServer, stopServer, withDb, work } from './bench-bookings/kit.ts';
import { measureLoad } from './bench-bookings/load.ts';
import { measureMalformed } from './bench-bookings/malformed.ts';
import { reportBars, round, runBenchmark, writeFigures } from './lib/bench-kit.ts';

function prepareSite() {
  prepareDemoSite(env);
  const publishMs = buildSite(env);
  log.info(`published the demo directory in ${(publishMs / 1000).toFixed(1)} s`);
  withDb((db) => {
    const active = db
      .select({ id: services.id, spaId: services.spaId })
      .from(services)
      .innerJoin(spas, eq(spas.id, services.spaId))
      .where(and(eq(services.active, true), eq(spas.active, true)))
      .orderBy(services.id)
      .all();
    if (active.length === 0) throw new Error('the demo data has no active service');
    // One service per spa, over as many spas as there are (up to 60): a burst
    // of 500 stays under each spa's limit of 30 an hour.
    const perSpa = new Map<number, number>();
    for (const service of active) if (!perSpa.has(service.spaId)) perSpa.set(service.spaId, service.id);
    demo.services = [...perSpa.values()].slice(0, 60);
    const first = active[0]!;
    demo.otherSpa = active.find((s) => s.spaId !== first.spaId)?.spaId ?? 999_999_999;
    const inactive = db.select({ id: services.id }).from(services).where(eq(services.active, false)).orderBy(services.id).limit(1).get();
    demo.inactiveService = inactive?.id ?? null;
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
  writeFigures(log, 'bookings', figures);
  summarize(figures);
  reportBars(
    log,
    failures.map((failure) => `bar missed: ${failure}`),
  );
}

function summarize({
  load,
  kill,
  malformed,
}: {
  load?: Awaited<ReturnType<typeof measureLoad>>;
  kill?: Awaited<ReturnType<typeof measureKill>>;
  malformed?: Awaited<ReturnType<typeof measureMalformed>>;
}) {
  log.info('summary');
  for (const r of load?.rounds ?? []) {
    log.info(
      `  load ${r.round}: ${r.answered201}/${r.requests} created, ${r.requestsPerSecond} req/s, p50/p95/p99/max ${r.latencyMs.p50}/${r.latencyMs.p95}/${r.latencyMs.p99}/${r.latencyMs.max} ms, ` +
        `mail queue empty ${r.mailQueueEmptyAfterLast201Ms ?? '-'} ms after the last 201`,
    );
  }
  if (kill) {
    log.info(
      `  kill: ${kill.answered201} answered 201 before SIGKILL, ${Object.values(kill.errorsAtKill).reduce((a, b) => a + b, 0)} cut off, ${kill.missingAfterRestart} missing after restart, restart ${kill.restartMs} ms`,
    );
    const { mail } = kill;
    log.info(
      `  kill mail: ${mail.unsentAtKill} unsent at the kill; queue empty ${mail.queueEmptyAfterRestartMs ?? '-'} ms after the restart began; ` +
        `${mail.queuedForAnswered}/${mail.forAnswered} queued, ${mail.missing} missing, ${mail.notSent} not sent, ${mail.sentTwice} sent twice, ${mail.partialFilesLeft} .partial left`,
    );
  }
  if (malformed) {
    log.info(
      `  malformed: ${malformed.requests} requests, ${JSON.stringify(malformed.byStatus)}, ${malformed.serverErrors} 5xx, ${malformed.rowsCreated.bookings} rows created`,
    );
  }
}

async function cleanUp() {
  await stopServer();
  rmSync(work, { recursive: true, force: true });
}

runBenchmark(main, cleanUp, log);
