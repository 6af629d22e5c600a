// Publishing on change (docs/decisions/0019-rebuild-queue.md). The process
// that runs the background jobs watches the data's content version (bumped by
// triggers on everything a pre-rendered page shows) against the version the
// served build was made from, and when they differ it runs `npm run rebuild`
// (server/rebuild.ts: lock, pending mark, atomic swap) in a child process:
//
//   - debounced: a build starts once the data has been quiet for `quietMs`,
//     or `maxWaitMs` after the first unpublished change, whichever is first;
//   - never overlapping: one child at a time, and none while another process
//     holds the rebuild lock (a change made meanwhile is built after it);
//   - a failed build leaves the served site as it was (rebuild.ts swaps only a
//     complete build); it is logged, kept with the tail of its output for the
//     editors, and retried after a pause unless the data changes again first.
//
// The queue's state is written to SITE_DIR/rebuild-queue.json for the app
// (the owner dashboard's "Publishing…", the editors' page), and an editor's
// "Rebuild now" arrives as SITE_DIR/rebuild.requested. Files, because the
// readers are other processes and the build's facts (build.json,
// last-rebuild.json) are files in the same folder already.
import { spawn, type ChildProcess } from 'node:child_process';
import { logEvent, logger } from '#lib/log.ts';
import {
  currentBuildDir,
  HEARTBEAT_MS,
  isRebuildLocked,
  readBuildInfo,
  syncUnpublishedMark,
  takeRebuildRequest,
  writeQueueState,
  type RebuildFailure,
  type RebuildQueueState,
} from '#lib/server/published-site.ts';

export interface RebuildQueueOptions {
  readContentVersion: () => number;
  /** The served build's content version (null: nothing built) and how long it took. */
  readPublished: () => { contentVersion: number; durationMs: number } | null;
  /** True while some process holds the rebuild lock. */
  lockHeld: () => boolean;
  takeRequest: () => boolean;
  runBuild: () => Promise<{ ok: boolean; log: string }>;
  /** false: build only when asked ("Rebuild now"), not when the data changes. */
  onChange?: boolean;
  writeState: (state: RebuildQueueState) => void;
  /** After each look at the data: keeps the published site's `unpublished` mark in step (docs/decisions/0025). */
  afterLook?: (contentVersion: number) => void;
  log?: { info: (message: string) => void; error: (message: string) => void };
  now?: () => number;
  quietMs?: number;
  maxWaitMs?: number;
  pollMs?: number;
  /** Pauses before retrying a failed build of unchanged data: 1st, 2nd... then the last again. */
  retryMs?: readonly number[];
}

export interface RebuildQueue {
  /** One look at the data; the timer calls it every pollMs. */
  tick(): void;
  state(): RebuildQueueState;
  /** Resolves when no build runs (for tests and shutdown). */
  idle(): Promise<void>;
  stop(): void;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function createRebuildQueue(options: RebuildQueueOptions): RebuildQueue {
  const now = options.now ?? Date.now;
  const quietMs = options.quietMs ?? 3_000;
  const maxWaitMs = options.maxWaitMs ?? 15_000;
  const pollMs = options.pollMs ?? 500;
  const retryMs = options.retryMs ?? [60_000, 5 * 60_000, 30 * 60_000];
  const log = options.log ?? { info: () => {}, error: () => {} };
  const onChange = options.onChange ?? true;

  let lastSeenVersion: number | null = null;
  /** When the data last changed, and when the oldest change not yet published was first seen. */
  let lastChangeAt = 0;
  let firstUnpublishedAt: number | null = null;
  let forced = false;
  let running: { startedAt: number; contentVersion: number; done: Promise<void> } | null = null;
  let elsewhereSince: number | null = null;
  let failure: (RebuildFailure & { count: number; retryAt: number }) | null = null;
  let expectedBuildMs = options.readPublished()?.durationMs ?? 30_000;
  let current: RebuildQueueState | null = null;
  let lastWritten = 0;
  let stopped = false;

  function publish(next: Omit<RebuildQueueState, 'updatedAt'>) {
    const at = now();
    const { updatedAt: _ignored, ...previous } = current ?? { updatedAt: '' };
    const changed = JSON.stringify(previous) !== JSON.stringify(next);
    current = { ...next, updatedAt: changed || at - lastWritten >= HEARTBEAT_MS ? new Date(at).toISOString() : current!.updatedAt };
    if (changed || at - lastWritten >= HEARTBEAT_MS) {
      lastWritten = at;
      try {
        options.writeState(current);
      } catch (error) {
        log.error(`could not write the queue state: ${(error as Error).message}`);
      }
    }
  }

  function describe(version: number, published: number | null, extra: Partial<RebuildQueueState>): Omit<RebuildQueueState, 'updatedAt'> {
    return {
      status: 'idle',
      onChange,
      contentVersion: version,
      publishedVersion: published,
      buildStartsAt: null,
      building: null,
      expectedBuildMs,
      quietMs,
      expectedLiveAt: null,
      lastFailure: failure ? { at: failure.at, contentVersion: failure.contentVersion, log: failure.log } : null,
      nextRetryAt: null,
      ...extra,
    };
  }

  function startBuild(version: number, published: number | null) {
    const startedAt = now();
    firstUnpublishedAt = null;
    forced = false;
    log.info(`building content version ${version} (published: ${published ?? 'none'})`);
    const done = options
      .runBuild()
      .catch((error: unknown) => ({ ok: false, log: error instanceof Error ? error.message : String(error) }))
      .then((result) => {
        const tookMs = now() - startedAt;
        if (result.ok) {
          failure = null;
          expectedBuildMs = options.readPublished()?.durationMs ?? tookMs;
          log.info(`published content version ${version} in ${(tookMs / 1000).toFixed(1)} s`);
        } else {
          const count = failure && failure.contentVersion === version ? failure.count + 1 : 1;
          const pause = retryMs[Math.min(count - 1, retryMs.length - 1)]!;
          failure = { at: new Date().toISOString(), contentVersion: version, log: result.log.slice(-8_000), count, retryAt: now() + pause };
          log.error(
            `the build of content version ${version} failed; the previous site stays live; retrying in ${Math.round(pause / 1000)} s unless the data changes first`,
          );
        }
        running = null;
        if (!stopped) tick();
      });
    running = { startedAt, contentVersion: version, done };
    publish(
      describe(version, published, {
        status: 'building',
        building: { startedAt: iso(startedAt)!, contentVersion: version, elsewhere: false },
        expectedLiveAt: iso(startedAt + expectedBuildMs),
      }),
    );
  }

  function tick() {
    if (stopped) return;
    const at = now();
    const version = options.readContentVersion();
    const published = options.readPublished()?.contentVersion ?? null;
    try {
      options.afterLook?.(version);
    } catch (error) {
      log.error(`could not mark the site unpublished: ${(error as Error).message}`);
    }
    if (options.takeRequest()) forced = true;
    if (version !== lastSeenVersion) {
      lastSeenVersion = version;
      lastChangeAt = at;
    }
    const behind = onChange && (published === null || version > published);
    if (behind && firstUnpublishedAt === null) firstUnpublishedAt = running ? Math.max(lastChangeAt, running.startedAt) : lastChangeAt;

    if (running) {
      // Changes during a build wait for the next one; the state shows this one.
      return publish(
        describe(version, published, {
          status: 'building',
          building: { startedAt: iso(running.startedAt)!, contentVersion: running.contentVersion, elsewhere: false },
          expectedLiveAt: iso(running.startedAt + expectedBuildMs),
        }),
      );
    }
    if (options.lockHeld()) {
      // `npm run rebuild` by hand, or another queue: wait for it, then look again.
      elsewhereSince ??= at;
      return publish(
        describe(version, published, {
          status: 'building',
          building: { startedAt: iso(elsewhereSince)!, contentVersion: version, elsewhere: true },
          expectedLiveAt: iso(elsewhereSince + expectedBuildMs),
        }),
      );
    }
    elsewhereSince = null;
    if (!behind && !forced) {
      firstUnpublishedAt = null;
      return publish(describe(version, published, {}));
    }
    if (!forced && failure && failure.contentVersion === version && at < failure.retryAt) {
      return publish(
        describe(version, published, { status: 'retrying', nextRetryAt: iso(failure.retryAt), expectedLiveAt: iso(failure.retryAt + expectedBuildMs) }),
      );
    }
    const due = forced ? at : Math.min(lastChangeAt + quietMs, (firstUnpublishedAt ?? at) + maxWaitMs);
    if (at >= due) return startBuild(version, published);
    publish(describe(version, published, { status: 'waiting', buildStartsAt: iso(due), expectedLiveAt: iso(due + expectedBuildMs) }));
  }

  const timer = setInterval(tick, pollMs);
  timer.unref?.();

  return {
    tick,
    state: () =>
      current ?? { ...describe(options.readContentVersion(), options.readPublished()?.contentVersion ?? null, {}), updatedAt: new Date(now()).toISOString() },
    idle: async () => {
      while (running) await running.done;
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * `node server/rebuild.ts` in a child process at a lower priority (nice 10,
 * which its threads inherit): the server's memory and event loop stay its
 * own, and visitors come before the build for the machine's cores.
 */
export function spawnPublish(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Promise<{ ok: boolean; log: string }> {
  return new Promise((resolve) => {
    // nice runs node in its own place: the child is the build itself.
    const child = spawn('nice', ['-n', '10', process.execPath, 'server/rebuild.ts'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    builds.add(child);
    child.once('exit', () => builds.delete(child));
    let output = '';
    const keep = (chunk: Buffer) => {
      // The build's own progress goes to the server log as it always did; the tail is kept for the editors.
      process.stdout.write(chunk);
      output = (output + chunk.toString()).slice(-16_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ ok: false, log: `${output}\n${error.message}` }));
    child.on('exit', (code, signal) => resolve({ ok: code === 0, log: code === 0 ? output : `${output}\nexited with ${signal ?? `code ${code}`}` }));
  });
}

const builds = new Set<ChildProcess>();

/**
 * Stops the builds this process started (the server is stopping): each
 * removes its unfinished folder and lock (server/rebuild.ts), and the next
 * start builds again what it would have.
 */
export function stopBuilds(): void {
  for (const child of builds) child.kill('SIGTERM');
}

/** The queue as the server runs it (server/serve.ts, with BACKGROUND_JOBS=on; PUBLISH_ON_CHANGE decides `onChange`). */
export function startRebuildQueue(sqlite: { prepare: (sql: string) => { get: () => unknown } }, siteDir: string, { onChange = true } = {}): RebuildQueue {
  const version = sqlite.prepare('select content_version as v from site_meta where id = 1');
  const log = logger('publish');
  const queue = createRebuildQueue({
    readContentVersion: () => (version.get() as { v: number } | undefined)?.v ?? 0,
    readPublished: () => {
      const info = readBuildInfo(currentBuildDir(siteDir) ?? '');
      return info ? { contentVersion: info.contentVersion, durationMs: info.durationMs } : null;
    },
    lockHeld: () => isRebuildLocked(siteDir),
    takeRequest: () => takeRebuildRequest(siteDir),
    runBuild: async () => {
      const result = await spawnPublish();
      logEvent('job', { job: 'publish-on-change', ok: result.ok });
      return result;
    },
    writeState: (state) => writeQueueState(siteDir, state),
    afterLook: (contentVersion) => syncUnpublishedMark(siteDir, { onChange, contentVersion }),
    onChange,
    log,
  });
  log.info(onChange ? 'publishing on change: watching the content version' : 'publishing when asked (PUBLISH_ON_CHANGE=off)');
  return queue;
}
