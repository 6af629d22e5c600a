// The published site's files in SITE_DIR that more than one process reads:
// which build is served (`current`) and its build.json, the rebuild lock and
// the last rebuild's outcome, and the rebuild queue's state and "Rebuild now"
// requests. The production server (server/site-builds.ts, server/rebuild.ts,
// server/rebuild-queue.ts) writes them; the app reads them for the editors'
// and owners' publishing states (admin/publishing.ts). One module, so the
// file formats have one definition and src/ need not import server/.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How a published page may be kept: anywhere, but checked each time. Static
 * pages say it (server/static-site.ts, and nginx), and so does a spa page
 * rendered on request while its change waits for the build (pages/spas/[...path].astro).
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** A JSON file as written, or null when it is missing or unreadable. */
function readJsonFile<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Removes a mark file; true when it was there. Of two processes taking the same mark, one gets true. */
export function takeMark(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch {
    return false;
  }
}

export interface BuildInfo {
  id: string;
  contentVersion: number;
  sourceHash: string;
  builtAt: string;
  durationMs: number;
  /** The public origin it was built for (links, canonical URLs, the sitemap). */
  siteUrl?: string;
  /** How its compressed copies were made (server/precompress.ts's COMPRESSION); a later build reuses them only when it matches. */
  compression?: string;
}

export const paths = (siteDir: string) => ({
  builds: join(siteDir, 'builds'),
  current: join(siteDir, 'current'),
  lock: join(siteDir, 'rebuild.lock'),
  pending: join(siteDir, 'rebuild.pending'),
  lastRebuild: join(siteDir, 'last-rebuild.json'),
  unpublished: join(siteDir, 'unpublished'),
  servers: join(siteDir, 'servers'),
});

/** How the newest rebuild ended, for /readyz and the editors. */
export interface RebuildResult {
  ok: boolean;
  at: string;
  buildId: string | null;
  durationMs: number;
  /** The first lines of the error, when it failed. */
  error?: string;
}

export function writeRebuildResult(siteDir: string, result: RebuildResult): void {
  writeFileSync(paths(siteDir).lastRebuild, `${JSON.stringify(result, null, 2)}\n`);
}

export function readRebuildResult(siteDir: string): RebuildResult | null {
  return readJsonFile<RebuildResult>(paths(siteDir).lastRebuild);
}

/** The build `current` points at, or null when nothing is published yet. */
export function currentBuildDir(siteDir: string): string | null {
  try {
    return realpathSync(paths(siteDir).current);
  } catch {
    return null;
  }
}

export function readBuildInfo(buildDir: string): BuildInfo | null {
  return readJsonFile<BuildInfo>(join(buildDir, 'build.json'));
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while a live process holds the rebuild lock (a lock left by a dead one does not count). */
export function isRebuildLocked(siteDir: string): boolean {
  try {
    const holder = Number(readFileSync(paths(siteDir).lock, 'utf8').trim());
    return holder > 0 && isRunning(holder);
  } catch {
    return false;
  }
}

export interface RebuildFailure {
  at: string;
  contentVersion: number;
  /** The last lines the build printed. */
  log: string;
}

export interface RebuildQueueState {
  /** When the queue last wrote this: a state older than STALE_STATE_MS means no queue is running. */
  updatedAt: string;
  status: 'idle' | 'waiting' | 'building' | 'retrying';
  /**
   * Publishing on change (PUBLISH_ON_CHANGE=on): the data's changes are built
   * by themselves, and meanwhile the server renders spa pages from the data.
   */
  onChange: boolean;
  /** The data's version now, and the served build's. */
  contentVersion: number;
  publishedVersion: number | null;
  /** While waiting: when the build is due to start. */
  buildStartsAt: string | null;
  /** While building: since when, for which version, and (by another process) or not. */
  building: { startedAt: string; contentVersion: number; elsewhere: boolean } | null;
  /** How long a build takes, from the last good one (ms). */
  expectedBuildMs: number;
  /** How long the data must be quiet before a build starts (ms). */
  quietMs: number;
  /** When the change waiting now should be live, by that estimate. */
  expectedLiveAt: string | null;
  lastFailure: RebuildFailure | null;
  /** While retrying a failed build: when. */
  nextRetryAt: string | null;
}

/** The state file is rewritten at least this often while the queue runs. */
export const HEARTBEAT_MS = 10_000;
/** Older than this, the state describes a queue that no longer runs. */
export const STALE_STATE_MS = 3 * HEARTBEAT_MS;

export const queuePaths = (siteDir: string) => ({
  state: join(siteDir, 'rebuild-queue.json'),
  requested: join(siteDir, 'rebuild.requested'),
});

export function readQueueState(siteDir: string): RebuildQueueState | null {
  return readJsonFile<RebuildQueueState>(queuePaths(siteDir).state);
}

/** Written whole and renamed into place: a reader never sees half a file. */
export function writeQueueState(siteDir: string, state: RebuildQueueState): void {
  const { state: file } = queuePaths(siteDir);
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(next, file);
}

/** "Rebuild now": any process may ask; the queue builds at its next look, without waiting for quiet. */
export function requestRebuild(siteDir: string, now = Date.now()): void {
  writeFileSync(queuePaths(siteDir).requested, String(now));
}

export function takeRebuildRequest(siteDir: string): boolean {
  return takeMark(queuePaths(siteDir).requested);
}

// --- A change waiting for its build (docs/decisions/0025) ---------------------
// While publishing on change is on and the data is ahead of the served build,
// the `unpublished` mark exists, and both fronts (server/serve.ts, nginx) send
// the pages under LIVE_BEFORE_BUILD_PREFIX (src/lib/front-routes.ts) to the
// app, which renders them from the data. A file, because nginx can test for
// one on each request and cannot ask a database.
//   - set by the app before it answers the request that made the change
//     (src/middleware.ts), so the next page view already sees it;
//   - set and cleared by the rebuild queue as it watches the data;
//   - cleared only once the build that carries the data has been served for
//     FRONT_FILE_CACHE_SECONDS: nginx keeps open files that long, and may
//     serve the replaced build's page until then.

/** How long a front may keep serving a file it opened before the build was swapped (nginx's open_file_cache_valid). */
export const FRONT_FILE_CACHE_SECONDS = 2;

export const isUnpublished = (siteDir: string): boolean => existsSync(paths(siteDir).unpublished);

export function markUnpublished(siteDir: string): void {
  if (!isUnpublished(siteDir)) writeFileSync(paths(siteDir).unpublished, '');
}

/** When `current` was last switched (the link's own time), in ms; null when nothing is published. */
export function publishedAtMs(siteDir: string): number | null {
  try {
    return lstatSync(paths(siteDir).current).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Whether the mark should be there: true while the data is ahead of the
 * served build, and for FRONT_FILE_CACHE_SECONDS after the build that caught
 * up was switched in (kept if it was there). Never without publishing on change.
 */
export function unpublishedWanted(state: {
  onChange: boolean;
  contentVersion: number;
  publishedVersion: number | null;
  publishedAtMs: number | null;
  marked: boolean;
  now: number;
}): boolean {
  if (!state.onChange) return false;
  if (state.publishedVersion === null || state.contentVersion > state.publishedVersion) return true;
  return state.marked && state.publishedAtMs !== null && state.now - state.publishedAtMs < FRONT_FILE_CACHE_SECONDS * 1000;
}

/** Sets or clears the mark as unpublishedWanted says; returns whether it is there now. */
export function syncUnpublishedMark(
  siteDir: string,
  { onChange, contentVersion, now = Date.now() }: { onChange: boolean; contentVersion: number; now?: number },
): boolean {
  const marked = isUnpublished(siteDir);
  const published = readBuildInfo(currentBuildDir(siteDir) ?? '');
  const wanted = unpublishedWanted({
    onChange,
    contentVersion,
    publishedVersion: published?.contentVersion ?? null,
    publishedAtMs: publishedAtMs(siteDir),
    marked,
    now,
  });
  if (wanted && !marked) markUnpublished(siteDir);
  if (!wanted && marked) rmSync(paths(siteDir).unpublished, { force: true });
  return wanted;
}

/**
 * After a request that may have changed the data: sets the mark when a
 * rebuild queue publishes on change (its state is fresh and says so) and the
 * data is now ahead of the served build. Only sets it: the queue clears it.
 */
export function noteChange(siteDir: string, contentVersion: number, now = Date.now()): void {
  const queue = readQueueState(siteDir);
  if (!queue?.onChange || now - Date.parse(queue.updatedAt) > STALE_STATE_MS) return;
  const published = readBuildInfo(currentBuildDir(siteDir) ?? '');
  if (!published || contentVersion > published.contentVersion) markUnpublished(siteDir);
}

// --- Whose server code is loaded ------------------------------------------------
// A serving process runs one build's server code and keeps running it across
// rebuilds of the same code (server/serve.ts); that code loads its page
// modules from its build's folder as they are first asked for. So the folder
// must outlive the builds that replace it: each process pins it here, and
// pruning keeps every folder a live process has pinned.

/** Records that process `pid` runs the server code of `buildDir`. */
export function pinCodeBuild(siteDir: string, buildDir: string, pid = process.pid): void {
  mkdirSync(paths(siteDir).servers, { recursive: true });
  writeFileSync(join(paths(siteDir).servers, `${pid}.json`), JSON.stringify({ pid, buildDir }));
}

export function unpinCodeBuild(siteDir: string, pid = process.pid): void {
  rmSync(join(paths(siteDir).servers, `${pid}.json`), { force: true });
}

/** The build folders live processes run code from (pins of dead processes are removed). */
export function pinnedBuilds(siteDir: string): Set<string> {
  const dir = paths(siteDir).servers;
  const pinned = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return pinned;
  }
  for (const name of names) {
    const pin = readJsonFile<{ pid: number; buildDir: string }>(join(dir, name));
    if (pin && isRunning(pin.pid)) pinned.add(pin.buildDir);
    else rmSync(join(dir, name), { force: true });
  }
  return pinned;
}
