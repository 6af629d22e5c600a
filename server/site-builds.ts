// The published site on disk, and the rules for replacing it:
//
//   SITE_DIR/builds/<id>/      one complete `astro build` each (client/ + server/ + build.json)
//   SITE_DIR/current           symlink to the build being served
//   SITE_DIR/rebuild.lock      held (pid inside) by the one rebuild that runs
//   SITE_DIR/rebuild.pending   "someone asked for another rebuild while one ran"
//
// A build is written into its own new folder and switched in by renaming a new
// symlink over `current`, which is atomic: a request sees the old site or the
// new one, never a half-written one. See docs/decisions/0002-atomic-publishing.md.
import { createHash } from 'node:crypto';
import { existsSync, linkSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { currentBuildDir, isRunning, paths, pinnedBuilds, takeMark, type BuildInfo } from '#lib/server/published-site.ts';

/** Why the published site must be built again, or null when it is up to date. */
export function staleReason(info: BuildInfo | null, now: { contentVersion: number; sourceHash: string }): string | null {
  if (!info) return 'no site has been built yet';
  if (info.contentVersion < now.contentVersion) return 'the data changed since the last build';
  if (info.sourceHash !== now.sourceHash) return 'the code or a setting the build reads (SITE_URL, the public keys) changed since the last build';
  return null;
}

/** Switches `current` to buildDir atomically (rename over the old link). */
export function swapCurrent(siteDir: string, buildDir: string): void {
  const { current } = paths(siteDir);
  const next = `${current}.next-${process.pid}`;
  rmSync(next, { force: true });
  symlinkSync(relative(siteDir, buildDir), next);
  renameSync(next, current);
}

/** Deletes all but the newest `keep` builds, never the one being served nor one whose server code a live process runs. */
export function pruneBuilds(siteDir: string, keep = 3): string[] {
  const { builds } = paths(siteDir);
  if (!existsSync(builds)) return [];
  const served = currentBuildDir(siteDir);
  const pinned = pinnedBuilds(siteDir);
  const all = readdirSync(builds)
    .map((name) => join(builds, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  const removed = all.slice(keep).filter((dir) => dir !== served && !pinned.has(realpathSync(dir)));
  for (const dir of removed) rmSync(dir, { recursive: true, force: true });
  return removed;
}

/**
 * Takes the rebuild lock, or returns false when another live process holds it.
 * A lock left by a dead process is taken over (two processes that find the
 * same dead one at the same moment could both take it: that needs a crash and
 * two rebuilds starting within the same instant).
 */
export function acquireRebuildLock(siteDir: string): boolean {
  const { lock } = paths(siteDir);
  // Written whole under a name of its own and then linked into place: the link
  // fails when a lock exists, and no process ever reads a lock not yet written
  // (an empty one was taken for a dead holder's, and two rebuilds ran at once).
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, lock);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = lockHolder(lock);
      if (holder === 'gone') continue; // let go of since the link failed: try again
      if (holder !== 0 && holder !== process.pid && isRunning(holder)) return false;
      rmSync(lock, { force: true });
    }
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** The pid in the lock (0 when it names none), or 'gone' when the lock was let go of meanwhile. */
function lockHolder(lock: string): number | 'gone' {
  try {
    return Number(readFileSync(lock, 'utf8').trim()) || 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
}

export function releaseRebuildLock(siteDir: string): void {
  rmSync(paths(siteDir).lock, { force: true });
}

// Asking for a rebuild is: mark one as pending, then try to take the lock. Whoever
// holds the lock builds while a mark is pending and looks again after letting go,
// so every request is served by a build that starts after it, and any number of
// requests during one build collapse into one more build.
export function markPending(siteDir: string): void {
  writeFileSync(paths(siteDir).pending, String(Date.now()));
}

export function isPending(siteDir: string): boolean {
  return existsSync(paths(siteDir).pending);
}

/** Consumes the pending mark: true when a rebuild was asked for. */
export function takePending(siteDir: string): boolean {
  return takeMark(paths(siteDir).pending);
}

const SOURCE_ROOTS = ['src', 'public', 'db/schema.ts', 'astro.config.mjs', 'package-lock.json'];

/**
 * A hash of everything the build is made from except the data: the code, and
 * the settings it bakes in (`bakedIn`: server/env.ts). Two builds with the
 * same hash run the same server code (server/serve.ts keeps the one it runs).
 */
export function sourceHash(root: string, bakedIn: Record<string, string> = {}): string {
  const hash = createHash('sha256');
  for (const [name, value] of Object.entries(bakedIn).sort()) hash.update(`${name}=${value}\0`);
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else {
      hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const entry of SOURCE_ROOTS) visit(join(root, entry));
  return hash.digest('hex');
}
