// What the app knows about publishing: the build being served, the rebuild
// queue run by the jobs process (server/rebuild-queue.ts), the last
// rebuild's outcome, and whether a listing's latest change is live yet. Read
// from SITE_DIR on each request; the queue writes its state there
// (docs/decisions/0019-rebuild-queue.md).
import { SITE_DIR } from 'astro:env/server';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  currentBuildDir,
  isRebuildLocked,
  readBuildInfo,
  readQueueState,
  readRebuildResult,
  requestRebuild,
  STALE_STATE_MS,
  type BuildInfo,
  type RebuildQueueState,
  type RebuildResult,
} from '../published-site.ts';
import { db } from '../db.ts';

const siteDir = () => resolve(SITE_DIR);

export interface PublishingStatus {
  /** The data's version now. */
  contentVersion: number;
  build: (BuildInfo & { pages: number }) | null;
  /** The queue's state, or null when no process runs it (its state is old or missing). */
  queue: RebuildQueueState | null;
  /** Some process holds the rebuild lock right now. */
  rebuilding: boolean;
  lastRebuild: RebuildResult | null;
}

const pageCounts = new Map<string, number>();

/** HTML pages in a build (counted once per build: a build never changes). */
function countPages(buildDir: string, id: string): number {
  const known = pageCounts.get(id);
  if (known !== undefined) return known;
  let pages = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(join(dir, entry.name));
      else if (entry.name.endsWith('.html')) pages++;
    }
  };
  try {
    visit(join(buildDir, 'client'));
  } catch {
    return 0;
  }
  pageCounts.set(id, pages);
  return pages;
}

export function readContentVersion(): number {
  return db.$client.prepare<[], { v: number }>('select content_version as v from site_meta where id = 1').get()?.v ?? 0;
}

export function publishingStatus(now = Date.now()): PublishingStatus {
  const dir = siteDir();
  const buildDir = currentBuildDir(dir);
  const info = buildDir ? readBuildInfo(buildDir) : null;
  const queue = readQueueState(dir);
  const fresh = queue && now - Date.parse(queue.updatedAt) <= STALE_STATE_MS ? queue : null;
  return {
    contentVersion: readContentVersion(),
    build: info && buildDir ? { ...info, pages: countPages(buildDir, info.id) } : null,
    queue: fresh,
    rebuilding: isRebuildLocked(dir),
    lastRebuild: readRebuildResult(dir),
  };
}

/** An editor's "Rebuild now": the queue takes it at its next look (within a second). */
export function askForRebuild(): void {
  requestRebuild(siteDir());
}

export type ListingPublishState =
  | { state: 'awaiting-review' }
  | { state: 'rejected'; reason: string | null }
  | { state: 'hidden' }
  | { state: 'live' }
  | {
      state: 'publishing';
      /** The build that will carry the change: the one running (if it started after the change) or the next. */
      carriedBy: 'running-build' | 'next-build';
      /** Content version the carrying build will be made from (at least). */
      contentVersion: number;
      /** When the change should be live, by the queue's estimate; null when no queue runs or a failed build waits for its retry. */
      expectedLiveAt: Date | null;
      /** The last build failed; the queue retries it. */
      delayed: boolean;
      /**
       * The spa's own page shows the change already: with publishing on change
       * the server renders spa pages from the data until the build lands
       * (docs/decisions/0025); the lists that name the spa wait for the build.
       */
      pageCurrent: boolean;
    };

export interface ListingFacts {
  active: boolean;
  reviewStatus: 'pending' | 'approved' | 'rejected';
  reviewNote: string | null;
  /** The latest change to the listing or what its page shows (services, photos, offers). */
  lastChangedAt: Date;
}

/**
 * Whether the served site shows a listing's latest change. A build reads the
 * data when it starts, so a change made after the served build started is
 * not in it; while the data is ahead of that build, such a listing is
 * "Publishing…". Pure.
 */
export function listingPublishState(spa: ListingFacts, status: Pick<PublishingStatus, 'contentVersion' | 'build' | 'queue'>): ListingPublishState {
  if (spa.reviewStatus === 'pending') return { state: 'awaiting-review' };
  if (spa.reviewStatus === 'rejected') return { state: 'rejected', reason: spa.reviewNote };
  const { build, queue } = status;
  const snapshotAt = build ? Date.parse(build.builtAt) - build.durationMs : 0;
  const behind = !build || status.contentVersion > build.contentVersion;
  const changedSinceBuild = spa.lastChangedAt.getTime() > snapshotAt;
  if (!behind || !changedSinceBuild) return { state: spa.active ? 'live' : 'hidden' };
  // A listing that was just hidden is "Publishing…" too: its page is still up until the build.
  const expected = queue?.expectedBuildMs ?? build?.durationMs ?? 30_000;
  const pageCurrent = queue?.onChange === true && spa.active;
  if (queue?.building && Date.parse(queue.building.startedAt) > spa.lastChangedAt.getTime()) {
    return {
      state: 'publishing',
      carriedBy: 'running-build',
      contentVersion: queue.building.contentVersion,
      expectedLiveAt: new Date(Date.parse(queue.building.startedAt) + expected),
      delayed: false,
      pageCurrent,
    };
  }
  let expectedLiveAt: Date | null = null;
  if (queue?.status === 'waiting' && queue.expectedLiveAt) expectedLiveAt = new Date(queue.expectedLiveAt);
  // Built after the running one: it ends, then the queue waits for quiet and builds again.
  else if (queue?.building) expectedLiveAt = new Date(Date.parse(queue.building.startedAt) + 2 * expected + queue.quietMs);
  else if (queue?.status === 'retrying' && queue.expectedLiveAt) expectedLiveAt = new Date(queue.expectedLiveAt);
  // Changed since the queue last looked (it looks twice a second): it will wait for quiet, then build.
  else if (queue?.onChange && queue.status === 'idle') expectedLiveAt = new Date(spa.lastChangedAt.getTime() + queue.quietMs + expected);
  return {
    state: 'publishing',
    carriedBy: 'next-build',
    contentVersion: status.contentVersion,
    expectedLiveAt,
    delayed: queue?.status === 'retrying',
    pageCurrent,
  };
}
