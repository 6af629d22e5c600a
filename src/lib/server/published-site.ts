// The published site's files in SITE_DIR that more than one process reads:
// which build is served (`current`) and its build.json, the rebuild lock and
// the last rebuild's outcome, and the rebuild queue's state and "Rebuild now"
// requests. The production server (server/site-builds.ts, server/rebuild.ts,
// server/rebuild-queue.ts) writes them; the app reads them for the editors'
// and owners' publishing states (admin/publishing.ts). One module, so the
// file formats have one definition and src/ need not import server/.
import { readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How a published page may be kept: anywhere, but checked each time. Static
 * pages say it (server/static-files.ts), and so does a spa page rendered on
 * request while its change waits for the build (pages/spas/[...path].astro).
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/**
 * A spa page rendered from the data while a change waits for the build: the
 * server asks for it under this path, with this header set (it removes the
 * header from what clients send), because the adapter would otherwise answer
 * /spas/{slug} with the build's file (docs/decisions/0025).
 */
export const FRESH_SPA_PAGE = { pathPrefix: '/spas/_fresh/', header: 'x-medspa-fresh-page' } as const;

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
}

export const paths = (siteDir: string) => ({
  builds: join(siteDir, 'builds'),
  current: join(siteDir, 'current'),
  lock: join(siteDir, 'rebuild.lock'),
  pending: join(siteDir, 'rebuild.pending'),
  lastRebuild: join(siteDir, 'last-rebuild.json'),
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
