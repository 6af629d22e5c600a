import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireRebuildLock,
  isPending,
  markPending,
  pruneBuilds,
  releaseRebuildLock,
  sourceHash,
  staleReason,
  swapCurrent,
  takePending,
} from './site-builds.ts';
import { currentBuildDir, paths, pinCodeBuild, pinnedBuilds, unpinCodeBuild } from '#lib/server/published-site.ts';

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

  it('never removes a build whose server code a live process runs; a dead process pins nothing', () => {
    const running = makeBuild('code-of-a-live-server', 600);
    const dead = makeBuild('code-of-a-dead-server', 500);
    for (const [i, id] of ['b1', 'b2', 'b3'].entries()) makeBuild(id, 400 - i * 100);
    swapCurrent(siteDir, join(paths(siteDir).builds, 'b3'));
    pinCodeBuild(siteDir, running);
    // A pid no process has (the kernel's maximum is far below it).
    pinCodeBuild(siteDir, dead, 2 ** 30);
    const removed = pruneBuilds(siteDir, 2).map((dir) => dir.split('/').pop());
    expect(removed.sort()).toEqual(['b1', 'code-of-a-dead-server']);
    expect(pinnedBuilds(siteDir)).toEqual(new Set([running]));
    unpinCodeBuild(siteDir);
    expect(pinnedBuilds(siteDir).size).toBe(0);
  });

  it('says why a build is stale', () => {
    const info = { id: 'x', contentVersion: 5, sourceHash: 'abc', builtAt: '', durationMs: 1 };
    expect(staleReason(null, { contentVersion: 0, sourceHash: 'abc' })).toMatch(/no site/);
    expect(staleReason(info, { contentVersion: 6, sourceHash: 'abc' })).toMatch(/data changed/);
    expect(staleReason(info, { contentVersion: 5, sourceHash: 'def' })).toMatch(/code or a setting the build reads/);
    expect(staleReason(info, { contentVersion: 5, sourceHash: 'abc' })).toBeNull();
  });

  it('takes a build made for another SITE_URL (or public key) for one of other code', () => {
    const root = mkdtempSync(join(tmpdir(), 'medspa-source-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'page.astro'), '<p>hi</p>');
    try {
      const here = sourceHash(root, { SITE_URL: 'http://localhost:4321' });
      expect(sourceHash(root, { SITE_URL: 'http://localhost:4321' })).toBe(here);
      expect(sourceHash(root, { SITE_URL: 'http://localhost:4600' })).not.toBe(here);
      writeFileSync(join(root, 'src', 'page.astro'), '<p>hello</p>');
      expect(sourceHash(root, { SITE_URL: 'http://localhost:4321' })).not.toBe(here);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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

  it('is held by one process at a time, and a lock let go while another looks at it is no error', async () => {
    // Six processes take and let go of the lock as fast as they can; each
    // marks its turn with a file only one can create (O_EXCL), so a second
    // holder, or a crash, shows as a non-zero exit.
    const marker = join(siteDir, 'held-by');
    const script = `
      import { closeSync, openSync, rmSync } from 'node:fs';
      import { acquireRebuildLock, releaseRebuildLock } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'site-builds.ts')).href)};
      const [siteDir, marker] = process.argv.slice(-2);
      let turns = 0;
      for (let i = 0; i < 300; i++) {
        if (!acquireRebuildLock(siteDir)) continue;
        try { closeSync(openSync(marker, 'wx')); } catch { process.exit(2); }
        turns++;
        rmSync(marker);
        releaseRebuildLock(siteDir);
      }
      console.log(turns);`;
    const runs = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<{ code: number | null; turns: number }>((resolve) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', script, siteDir, marker], { stdio: ['ignore', 'pipe', 'inherit'] });
            let out = '';
            child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
            child.once('exit', (code) => resolve({ code, turns: Number(out.trim()) }));
          }),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(runs.reduce((sum, run) => sum + run.turns, 0)).toBeGreaterThan(0);
  });

  it('takes over a lock left by a process that died', () => {
    writeFileSync(paths(siteDir).lock, '2147483646');
    expect(acquireRebuildLock(siteDir)).toBe(true);
    expect(readFileSync(paths(siteDir).lock, 'utf8')).toBe(String(process.pid));
    // One that names no process (0 would mean this process group to kill(2)).
    releaseRebuildLock(siteDir);
    writeFileSync(paths(siteDir).lock, '');
    expect(acquireRebuildLock(siteDir)).toBe(true);
    expect(readdirSync(siteDir)).not.toContain(`rebuild.lock.${process.pid}`);
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
