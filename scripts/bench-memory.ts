// `npm run bench` (memory): the serving process's memory while the site is
// published again and again under load (issue 27), and a rebuild storm
// (issue 23, item 1). One server process, as production runs it (publishing
// on change, behind one proxy, MALLOC_ARENA_MAX=2), and steady load from
// `workers` clients (pages, searches, API reads, booking requests) for the
// whole run; resident memory (RSS, from /proc) is read after each publish.
//
//   1. The storm: 100 listing changes by 5 owners in 2 minutes, each saved
//      through the listing editor as an owner saves it. The queue must have
//      at most one build in flight at any moment (builds are counted as the
//      server's child processes, every 100 ms), and the server's memory must
//      come back within 10% of where it started (after --warm-seconds of the load) once
//      the last build is served.
//   2. 100 publishes: `--real` of them full rebuilds (server/rebuild.ts, in a
//      child process as the queue runs it), the rest a copy of the last build
//      published as a new one (its own folder, build.json and id, swapped in
//      and pruned as rebuild.ts does). What the serving process does is the
//      same for both: it sees a new build of the same code and swaps to its
//      files without loading its code; a full build costs half a minute of
//      CPU in another process and changes nothing here, so 100 of them would
//      only make the run an hour long.
// Bars: RSS after the 100th publish within 10% of RSS after the first, and
// under 200 MB; no failed request. Figures: data/bench/memory.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { currentBuildDir, paths, readBuildInfo } from '#lib/server/published-site.ts';
import { acquireRebuildLock, pruneBuilds, releaseRebuildLock, swapCurrent } from '#server/site-builds.ts';
import { and, eq } from 'drizzle-orm';
import { siteMeta, spas } from '#db/schema.ts';
import { withTablesAt } from '#tests/support/database.ts';
import { insertSignedInUser } from '#tests/support/session-rows.ts';
import { buildSite, buildSiteAlongside, prepareSite } from '#tests/support/site.ts';
import { activeServiceIds } from './lib/bench-data.ts';
import { benchArgs, benchSiteEnv, percentile, reportBars, round, runBenchmark, SERVER_ARGS, waitForReady, waitUntil, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-memory');
const args = benchArgs(log, { port: 4388, publishes: 100, real: 5, workers: 8, changes: 100, owners: 5, 'storm-seconds': 120, 'warm-seconds': 90 });
const BAR_MB = 200;
const GROWTH = 0.1;
const { port } = args;
const origin = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-memory-'));
const env = benchSiteEnv(work, port, { TRUST_PROXY: '1', BACKGROUND_JOBS: 'on', PUBLISH_ON_CHANGE: 'on' });
let server: ChildProcess | null = null;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024, 1);
}

/** The builds running now: child processes of the server whose command line runs server/rebuild.ts. */
function buildsInFlight(serverPid: number): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (ppid === serverPid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/rebuild.ts')) count++;
    } catch {
      // The process ended while we looked.
    }
  }
  return count;
}

/** Steady load until stopped: page views, searches, API reads, booking requests. */
function startLoad(services: number[]) {
  const latencies: number[] = [];
  const errors: string[] = [];
  let running = true;
  let n = 0;
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
    while (running) {
      const k = n++;
      const started = performance.now();
      try {
        if (k % 10 === 0) {
          const response = await fetch(`${origin}/api/bookings`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: origin, 'X-Forwarded-For': `10.${w}.${(k >> 8) & 255}.${k & 255}` },
            body: JSON.stringify({ name: `Memory ${k}`, email: `memory-${k}@example.com`, serviceId: services[k % services.length], preferredDate }),
          });
          await response.arrayBuffer();
          if (response.status !== 201 && response.status !== 429) errors.push(`booking ${response.status}`);
        } else {
          // A varying query, as real traffic varies it.
          const path = paths[k % paths.length]!.replace('botox', k % 3 === 0 ? 'botox' : `botox&page=${k % 7}`);
          const response = await fetch(`${origin}${path}`, { headers: { 'Accept-Encoding': k % 2 ? 'br, gzip' : 'identity' } });
          await response.arrayBuffer();
          if (response.status >= 500) errors.push(`${path} ${response.status}`);
        }
      } catch (error) {
        // fetch says only "fetch failed"; what failed is its cause (a reset, a refused connection).
        const cause = error instanceof Error && error.cause instanceof Error ? `: ${(error.cause as NodeJS.ErrnoException).code ?? error.cause.message}` : '';
        errors.push(`${error instanceof Error ? error.message : String(error)}${cause}`);
      }
      latencies.push(performance.now() - started);
    }
  };
  const done = Promise.all(Array.from({ length: args.workers }, (_, w) => worker(w)));
  return {
    /** What happened since the last call. */
    take() {
      const sorted = latencies.splice(0).sort((a, b) => a - b);
      const failed = errors.splice(0);
      return {
        requests: sorted.length,
        p50Ms: round(percentile(sorted, 50)),
        p99Ms: round(percentile(sorted, 99)),
        errors: failed.length,
        firstErrors: failed.slice(0, 3),
      };
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

const servedBuild = () =>
  fetch(`${origin}/healthz`)
    .then((r) => r.headers.get('x-site-build'))
    .catch(() => null);

const decode = (text: string) =>
  text.replace(
    /&(?:amp|lt|gt|quot|#39|#x27|#x2F);/g,
    (entity) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&#x2F;': '/' })[entity]!,
  );

/** The listing editor's form as the page shows it: every field's name and value, as a browser would post them. */
function formFields(html: string): URLSearchParams {
  const form = /<form[^>]*method="post"[^>]*>([^]*?)<\/form>/i.exec(html.slice(html.indexOf('<main')))?.[1] ?? '';
  const fields = new URLSearchParams();
  for (const [, tag] of form.matchAll(/<input\b([^>]*)>/gi)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(tag!)?.[1];
    const name = attr('name');
    const type = attr('type') ?? 'text';
    if (!name || type === 'submit' || ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/i.test(tag!))) continue;
    fields.append(name, decode(attr('value') ?? ''));
  }
  for (const [, name, text] of form.matchAll(/<textarea\b[^>]*\bname="([^"]*)"[^>]*>([^]*?)<\/textarea>/gi)) fields.append(name!, decode(text!));
  for (const [, name, options] of form.matchAll(/<select\b[^>]*\bname="([^"]*)"[^>]*>([^]*?)<\/select>/gi)) {
    const chosen = /<option\b[^>]*\bvalue="([^"]*)"[^>]*\bselected\b/i.exec(options!) ?? /<option\b[^>]*\bselected\b[^>]*\bvalue="([^"]*)"/i.exec(options!);
    fields.append(name!, decode(chosen?.[1] ?? /<option\b[^>]*\bvalue="([^"]*)"/i.exec(options!)?.[1] ?? ''));
  }
  return fields;
}

/** Phase 1: the storm. Owners save their listings through the editor; the queue builds. */
async function storm(load: ReturnType<typeof startLoad>) {
  const premium = withTablesAt(env.DATABASE_PATH, (db) =>
    db
      .select({ id: spas.id })
      .from(spas)
      .where(and(eq(spas.active, true), eq(spas.tier, 'PREMIUM')))
      .orderBy(spas.id)
      .limit(args.owners)
      .all(),
  );
  const owners = premium.map((spa) => {
    const owner = insertSignedInUser(env.DATABASE_PATH, { role: 'owner' });
    withTablesAt(env.DATABASE_PATH, (db) => db.update(spas).set({ ownerId: owner.id }).where(eq(spas.id, spa.id)).run(), { write: true });
    return { owner, spaId: spa.id };
  });
  // Each owner has their editor open before the storm, as before any save: "before" is a server that has shown it.
  for (const { owner, spaId } of owners) await fetch(`${origin}/owner/spas/${spaId}`, { headers: { Cookie: `session=${owner.token}` } }).then((r) => r.text());
  const startRss = rssMb(server!.pid!);
  const buildsBefore = new Set([await servedBuild()]);
  let maxInFlight = 0;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      maxInFlight = Math.max(maxInFlight, buildsInFlight(server!.pid!));
      const build = await servedBuild();
      if (build) buildsBefore.add(build);
      await delay(100);
    }
  })();
  const saves: number[] = [];
  const started = performance.now();
  for (let i = 0; i < args.changes; i++) {
    const { owner, spaId } = owners[i % owners.length]!;
    const cookie = `session=${owner.token}`;
    const page = await fetch(`${origin}/owner/spas/${spaId}`, { headers: { Cookie: cookie } }).then((r) => r.text());
    const form = formFields(page);
    form.set('description', `${(form.get('description') ?? '').replace(/ Storm \d+\.$/, '')} Storm ${i}.`);
    const saved = await fetch(`${origin}/owner/spas/${spaId}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    saves.push(saved.status);
    if (saved.status !== 303) log.warn(`save ${i}: ${saved.status} ${(await saved.text()).slice(0, 200)}`);
    // Spread over the storm's length.
    const due = ((i + 1) * args['storm-seconds'] * 1000) / args.changes;
    const wait = due - (performance.now() - started);
    if (wait > 0) await delay(wait);
  }
  const version = () => withTablesAt(env.DATABASE_PATH, (db) => db.select({ v: siteMeta.contentVersion }).from(siteMeta).where(eq(siteMeta.id, 1)).get())!.v;
  // The last change published.
  await waitUntil(() => (readBuildInfo(currentBuildDir(env.SITE_DIR) ?? '')?.contentVersion ?? 0) >= version(), 'the storm’s last change published', 300_000);
  watching = false;
  await watcher;
  await delay(3000);
  const endRss = rssMb(server!.pid!);
  return {
    changes: args.changes,
    owners: owners.length,
    seconds: round((performance.now() - started) / 1000, 0),
    savesAnswered303: saves.filter((status) => status === 303).length,
    buildsServed: buildsBefore.size - 1,
    maxBuildsInFlight: maxInFlight,
    rssStartMb: startRss,
    rssEndMb: endRss,
    load: load.take(),
  };
}

/** A copy of the served build published as a new one, as rebuild.ts publishes (under the rebuild lock). */
async function republish(n: number): Promise<void> {
  await waitUntil(() => acquireRebuildLock(env.SITE_DIR), 'the rebuild lock', 300_000);
  try {
    const from = currentBuildDir(env.SITE_DIR)!;
    const info = readBuildInfo(from)!;
    const id = `${info.id.replace(/-copy\d+$/, '')}-copy${n}`;
    const to = join(paths(env.SITE_DIR).builds, id);
    // Not cpSync: the load clients in this process keep running meanwhile (buildSiteAlongside says why).
    await cp(from, to, { recursive: true });
    writeFileSync(join(to, 'build.json'), JSON.stringify({ ...info, id, builtAt: new Date().toISOString() }, null, 2));
    swapCurrent(env.SITE_DIR, to);
    pruneBuilds(env.SITE_DIR);
  } finally {
    releaseRebuildLock(env.SITE_DIR);
  }
}

async function main() {
  prepareSite(env);
  buildSite(env);
  // As the systemd unit in docs/deploy.md runs it.
  server = spawn(process.execPath, SERVER_ARGS, { env: { ...env, MALLOC_ARENA_MAX: '2' }, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForReady(origin);
  const services = activeServiceIds(env.DATABASE_PATH);
  const load = startLoad(services);
  // The storm's "before" is a server warmed by its load (its code compiled, its heap grown to what the load needs), not one just started.
  const warmUpRssMb: number[] = [];
  for (let s = 0; s < args['warm-seconds']; s += 10) {
    await delay(Math.min(10, args['warm-seconds'] - s) * 1000);
    warmUpRssMb.push(rssMb(server.pid!));
  }
  log.info(`warm-up under load, RSS every 10 s: ${warmUpRssMb.join(', ')} MB`);
  load.take();

  log.info(`storm: ${args.changes} listing changes by ${args.owners} owners in ${args['storm-seconds']} s`);
  const stormFigures = await storm(load);
  log.info(
    `storm: ${stormFigures.buildsServed} builds served, at most ${stormFigures.maxBuildsInFlight} in flight; RSS ${stormFigures.rssStartMb} -> ${stormFigures.rssEndMb} MB`,
  );

  const realAt = new Set(Array.from({ length: args.real }, (_, i) => Math.max(1, Math.round(((i + 1) * args.publishes) / args.real))));
  realAt.add(1);
  const rounds: { publish: number; real: boolean; build: string | null; rssMb: number; ms: number }[] = [];
  for (let i = 1; i <= args.publishes; i++) {
    const before = await servedBuild();
    const started = performance.now();
    const real = realAt.has(i);
    if (real) await buildSiteAlongside(env);
    else await republish(i);
    await waitUntil(async () => (await servedBuild()) !== before, `the server serving publish ${i}`, 60_000);
    // A moment of load on the new build before reading the figure.
    await delay(300);
    rounds.push({ publish: i, real, build: await servedBuild(), rssMb: rssMb(server.pid!), ms: Math.round(performance.now() - started) });
    if (real || i % 10 === 0) log.info(`publish ${i}${real ? ' (full rebuild)' : ''}: ${rounds.at(-1)!.rssMb} MB`);
  }
  const publishLoad = load.take();
  await load.stop();
  await delay(2000);
  const settled = rssMb(server.pid!);
  const readiness = (await (await fetch(`${origin}/readyz`)).json()) as {
    memory: { buildsLoaded: number; heapTotalMb: number; heapUsedMb: number; externalMb: number };
  };
  const first = rounds[0]!.rssMb;
  const last = rounds.at(-1)!.rssMb;
  const figures = {
    date: new Date().toISOString(),
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    serverArgs: SERVER_ARGS,
    workers: args.workers,
    warmUpRssMb,
    storm: stormFigures,
    publishes: args.publishes,
    fullRebuilds: [...realAt].sort((a, b) => a - b),
    rssAfterFirstMb: first,
    rssAfterLastMb: last,
    rssMaxMb: Math.max(...rounds.map((r) => r.rssMb)),
    settledRssMb: settled,
    growth: round((last - first) / first, 3),
    buildsLoaded: readiness.memory.buildsLoaded,
    heapTotalMb: readiness.memory.heapTotalMb,
    heapUsedMb: readiness.memory.heapUsedMb,
    externalMb: readiness.memory.externalMb,
    load: publishLoad,
    rssMbByPublish: rounds.map((r) => r.rssMb),
    rounds,
  };
  writeFigures(log, 'memory', figures);
  log.info(
    `RSS after publish 1: ${first} MB, after ${args.publishes}: ${last} MB (max ${figures.rssMaxMb}, settled ${settled}); builds loaded ${figures.buildsLoaded}`,
  );
  const errors = stormFigures.load.errors + publishLoad.errors;
  reportBars(log, [
    ...(last <= first * (1 + GROWTH) ? [] : [`RSS after ${args.publishes} publishes ${last} MB, more than 10% over ${first} MB after the first`]),
    ...(Math.max(last, settled) < BAR_MB ? [] : [`RSS ${Math.max(last, settled)} MB after ${args.publishes} publishes, bar ${BAR_MB} MB`]),
    ...(stormFigures.maxBuildsInFlight <= 1 ? [] : [`${stormFigures.maxBuildsInFlight} builds in flight at once during the storm, bar 1`]),
    ...(stormFigures.rssEndMb <= stormFigures.rssStartMb * (1 + GROWTH)
      ? []
      : [`RSS after the storm ${stormFigures.rssEndMb} MB, more than 10% over ${stormFigures.rssStartMb} MB before it`]),
    ...(stormFigures.savesAnswered303 === stormFigures.changes ? [] : [`${stormFigures.changes - stormFigures.savesAnswered303} listing saves refused`]),
    ...(errors ? [`${errors} failed requests (${[...stormFigures.load.firstErrors, ...publishLoad.firstErrors].slice(0, 3).join('; ')})`] : []),
  ]);
}

runBenchmark(main, { processes: () => [server], graceMs: 1000, work }, log);
