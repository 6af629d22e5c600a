import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRebuildLock, isPending, markPending, pruneBuilds, releaseRebuildLock, staleReason, swapCurrent, takePending } from './site-builds.ts';
import { currentBuildDir, paths } from '#lib/server/published-site.ts';

let siteDir: string;
beforeEach(() => {
  siteDir = mkdtempSync(join(tmpdir(), 'medspa-site-'));
  mkdirSync(paths(siteDir).builds);
});
afterEach(() => rmSync(siteDir, { recursive: true, force: true }));

const makeBuild = (id: string, ageSeconds = 0) => {
  const dir = join(paths(siteDir).builds, id);
  mkdirSync(dir);
  writeFileSync(join(dir, 'marker'), id);
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(dir, t, t);
  return dir;
};

describe('published builds', () => {
  it('switches current from one build to the next', () => {
    expect(currentBuildDir(siteDir)).toBeNull();
    const a = makeBuild('a');
    swapCurrent(siteDir, a);
    expect(readFileSync(join(paths(siteDir).current, 'marker'), 'utf8')).toBe('a');
    const b = makeBuild('b');
    swapCurrent(siteDir, b);
    expect(currentBuildDir(siteDir)).toBe(b);
  });

  it('keeps the newest builds and never removes the one being served', () => {
    const served = makeBuild('old-but-served', 500);
    for (const [i, id] of ['b1', 'b2', 'b3', 'b4'].entries()) makeBuild(id, 400 - i * 100);
    swapCurrent(siteDir, served);
    const removed = pruneBuilds(siteDir, 2).map((dir) => dir.split('/').pop());
    expect(removed.sort()).toEqual(['b1', 'b2']);
    expect(currentBuildDir(siteDir)).toBe(served);
  });

  it('says why a build is stale', () => {
    const info = { id: 'x', contentVersion: 5, sourceHash: 'abc', builtAt: '', durationMs: 1 };
    expect(staleReason(null, { contentVersion: 0, sourceHash: 'abc' })).toMatch(/no site/);
    expect(staleReason(info, { contentVersion: 6, sourceHash: 'abc' })).toMatch(/data changed/);
    expect(staleReason(info, { contentVersion: 5, sourceHash: 'def' })).toMatch(/code changed/);
    expect(staleReason(info, { contentVersion: 5, sourceHash: 'abc' })).toBeNull();
  });
});

describe('the rebuild lock and queue', () => {
  it('lets one rebuild hold the lock at a time', () => {
    expect(acquireRebuildLock(siteDir)).toBe(true);
    // A live process (the test runner's parent) holding it keeps others out.
    writeFileSync(paths(siteDir).lock, String(process.ppid));
    expect(acquireRebuildLock(siteDir)).toBe(false);
    releaseRebuildLock(siteDir);
    expect(acquireRebuildLock(siteDir)).toBe(true);
  });

  it('takes over a lock left by a process that died', () => {
    writeFileSync(paths(siteDir).lock, '2147483646');
    expect(acquireRebuildLock(siteDir)).toBe(true);
    expect(readFileSync(paths(siteDir).lock, 'utf8')).toBe(String(process.pid));
  });

  it('collapses many requests during a rebuild into one more', () => {
    markPending(siteDir);
    markPending(siteDir);
    markPending(siteDir);
    expect(isPending(siteDir)).toBe(true);
    expect(takePending(siteDir)).toBe(true);
    expect(takePending(siteDir)).toBe(false);
  });
});
