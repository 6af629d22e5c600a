import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FRONT_FILE_CACHE_SECONDS,
  isUnpublished,
  noteChange,
  paths,
  syncUnpublishedMark,
  unpublishedWanted,
  writeQueueState,
  type RebuildQueueState,
} from './published-site.ts';

describe('the unpublished mark', () => {
  const at = (state: Partial<Parameters<typeof unpublishedWanted>[0]>) =>
    unpublishedWanted({ onChange: true, contentVersion: 5, publishedVersion: 5, publishedAtMs: 0, marked: false, now: 60_000, ...state });

  it('is wanted while the data is ahead of the served build, and only when publishing on change', () => {
    expect(at({ contentVersion: 6 })).toBe(true);
    expect(at({ publishedVersion: null })).toBe(true);
    expect(at({})).toBe(false);
    expect(at({ contentVersion: 6, onChange: false })).toBe(false);
  });

  it('stays for as long as a front may keep the replaced build’s files open, then goes', () => {
    const swap = 50_000;
    expect(at({ marked: true, publishedAtMs: swap, now: swap + FRONT_FILE_CACHE_SECONDS * 1000 - 1 })).toBe(true);
    expect(at({ marked: true, publishedAtMs: swap, now: swap + FRONT_FILE_CACHE_SECONDS * 1000 })).toBe(false);
    // Not set afresh for a build that already carries the data.
    expect(at({ marked: false, publishedAtMs: swap, now: swap + 1 })).toBe(false);
  });
});

describe('the mark on disk', () => {
  let siteDir: string;
  const queue = (onChange: boolean, updatedAt = new Date().toISOString()): RebuildQueueState => ({
    updatedAt,
    status: 'idle',
    onChange,
    contentVersion: 5,
    publishedVersion: 5,
    buildStartsAt: null,
    building: null,
    expectedBuildMs: 1000,
    quietMs: 3000,
    expectedLiveAt: null,
    lastFailure: null,
    nextRetryAt: null,
  });
  beforeEach(() => {
    siteDir = mkdtempSync(join(tmpdir(), 'medspa-published-'));
    const build = join(paths(siteDir).builds, 'b5');
    mkdirSync(build, { recursive: true });
    writeFileSync(join(build, 'build.json'), JSON.stringify({ id: 'b5', contentVersion: 5, sourceHash: '', builtAt: '', durationMs: 1 }));
    symlinkSync(build, paths(siteDir).current);
    const old = Date.now() / 1000 - 60;
    utimesSync(build, old, old);
  });
  afterEach(() => rmSync(siteDir, { recursive: true, force: true }));

  it('is set by a change the build does not carry yet, when a queue publishes on change', () => {
    writeQueueState(siteDir, queue(true));
    noteChange(siteDir, 5);
    expect(isUnpublished(siteDir)).toBe(false);
    noteChange(siteDir, 6);
    expect(isUnpublished(siteDir)).toBe(true);
  });

  it('is not set without a live queue that publishes on change', () => {
    writeQueueState(siteDir, queue(false));
    noteChange(siteDir, 6);
    expect(isUnpublished(siteDir)).toBe(false);
    writeQueueState(siteDir, queue(true, new Date(Date.now() - 120_000).toISOString()));
    noteChange(siteDir, 6);
    expect(isUnpublished(siteDir)).toBe(false);
  });

  it('is cleared by the queue once the build carries the data', () => {
    expect(syncUnpublishedMark(siteDir, { onChange: true, contentVersion: 6 })).toBe(true);
    expect(isUnpublished(siteDir)).toBe(true);
    // The link was made before the test's clock: long ago enough.
    expect(syncUnpublishedMark(siteDir, { onChange: true, contentVersion: 5, now: Date.now() + 60_000 })).toBe(false);
    expect(isUnpublished(siteDir)).toBe(false);
  });
});
