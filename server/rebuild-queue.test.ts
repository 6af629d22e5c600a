import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRebuildQueue } from './rebuild-queue.ts';
import { readQueueState, requestRebuild, takeRebuildRequest, writeQueueState, type RebuildQueueState } from '#lib/server/published-site.ts';

// Every queue a test starts is stopped after it, passed or failed, so no timer outlives its test.
const queues: { stop(): void }[] = [];

/**
 * A pretend site: the data's version, the served build's, and builds that take `buildMs` of fake time.
 * `edit(ms)` changes the data, as an owner's save does, then lets `ms` of fake time pass.
 */
function fakeSite({ buildMs = 5_000 } = {}) {
  const site = {
    version: 10,
    published: 10 as number | null,
    lock: false,
    requested: false,
    fail: false,
    builds: [] as { at: number; version: number }[],
    overlapping: 0,
    running: 0,
    states: [] as RebuildQueueState[],
  };
  const queue = createRebuildQueue({
    readContentVersion: () => site.version,
    readPublished: () => (site.published === null ? null : { contentVersion: site.published, durationMs: buildMs }),
    lockHeld: () => site.lock,
    takeRequest: () => {
      const was = site.requested;
      site.requested = false;
      return was;
    },
    runBuild: () => {
      const version = site.version; // what rebuild.ts reads when it starts
      site.builds.push({ at: Date.now(), version });
      site.running++;
      if (site.running > 1) site.overlapping++;
      return new Promise((resolve) =>
        setTimeout(() => {
          site.running--;
          if (site.fail) return resolve({ ok: false, log: 'astro: [build] failed\nError: boom' });
          site.published = version;
          resolve({ ok: true, log: 'published' });
        }, buildMs),
      );
    },
    writeState: (state) => site.states.push(state),
    quietMs: 3_000,
    maxWaitMs: 15_000,
    pollMs: 500,
    retryMs: [60_000, 300_000],
  });
  queues.push(queue);
  const edit = async (ms: number) => {
    site.version++;
    await vi.advanceTimersByTimeAsync(ms);
  };
  return { site, queue, edit };
}

describe('the rebuild queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
  });
  afterEach(() => {
    for (const queue of queues.splice(0)) queue.stop();
    vi.useRealTimers();
  });

  it('does nothing while the published site carries the data', async () => {
    const { site, queue } = fakeSite();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(site.builds).toEqual([]);
    expect(queue.state()).toMatchObject({ status: 'idle', contentVersion: 10, publishedVersion: 10 });
  });

  it('builds once after 3 s of quiet, for changes made a second apart', async () => {
    const { site, queue, edit } = fakeSite();
    const start = Date.now();
    for (let i = 0; i < 4; i++) {
      await edit(1_000);
    }
    // The last change was at +3 s: the build is due at +6 s, not before.
    expect(site.builds).toEqual([]);
    expect(queue.state()).toMatchObject({ status: 'waiting', contentVersion: 14 });
    expect(Date.parse(queue.state().buildStartsAt!) - start).toBeGreaterThanOrEqual(6_000);
    await vi.advanceTimersByTimeAsync(3_500);
    expect(site.builds).toHaveLength(1);
    expect(site.builds[0]!.version).toBe(14);
    expect(queue.state().status).toBe('building');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(site.published).toBe(14);
    expect(queue.state().status).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(site.builds).toHaveLength(1);
  });

  it('does not wait for quiet longer than 15 s when changes keep coming', async () => {
    const { site, edit } = fakeSite();
    const start = Date.now();
    for (let i = 0; i < 20 && site.builds.length === 0; i++) {
      await edit(1_000);
    }
    expect(site.builds).toHaveLength(1);
    expect(site.builds[0]!.at - start).toBeGreaterThanOrEqual(15_000);
    expect(site.builds[0]!.at - start).toBeLessThanOrEqual(16_000);
  });

  it('never runs two builds at once; changes made during a build are built after it', async () => {
    const { site, edit } = fakeSite({ buildMs: 10_000 });
    await edit(4_000); // building from +3.5 s
    expect(site.builds).toHaveLength(1);
    for (let i = 0; i < 5; i++) {
      await edit(1_000);
    }
    expect(site.builds).toHaveLength(1); // still the first build
    await vi.advanceTimersByTimeAsync(30_000);
    expect(site.builds.map((b) => b.version)).toEqual([11, 16]);
    expect(site.overlapping).toBe(0);
    expect(site.published).toBe(16);
  });

  it('turns a storm (100 changes in 2 minutes) into one build at a time, each taking every change made while the last ran', async () => {
    const { site, edit } = fakeSite({ buildMs: 30_000 });
    for (let i = 0; i < 100; i++) await edit(1_200);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(site.overlapping).toBe(0);
    // One build per build-length of the storm (and the last change's), not one per change.
    expect(site.builds.length).toBeLessThanOrEqual(Math.ceil(120_000 / 30_000) + 2);
    expect(site.builds.length).toBeGreaterThanOrEqual(3);
    expect(site.published).toBe(site.version);
  });

  it('waits while another process holds the rebuild lock', async () => {
    const { site, queue, edit } = fakeSite();
    site.lock = true;
    await edit(20_000);
    expect(site.builds).toEqual([]);
    expect(queue.state()).toMatchObject({ status: 'building', building: { elsewhere: true } });
    site.lock = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(site.builds).toHaveLength(1);
  });

  it('keeps a failed build with its log, keeps the old site, and retries after a pause', async () => {
    const { site, queue, edit } = fakeSite();
    site.fail = true;
    await edit(10_000);
    expect(site.builds).toHaveLength(1);
    expect(site.published).toBe(10);
    expect(queue.state()).toMatchObject({ status: 'retrying', lastFailure: { contentVersion: 11, log: expect.stringContaining('Error: boom') } });
    await vi.advanceTimersByTimeAsync(50_000);
    expect(site.builds).toHaveLength(1); // no hot loop on a broken build
    site.fail = false;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(site.builds).toHaveLength(2);
    expect(site.published).toBe(11);
    expect(queue.state()).toMatchObject({ status: 'idle', lastFailure: null });
  });

  it('retries a failed build at once when the data changes again', async () => {
    const { site, edit } = fakeSite();
    site.fail = true;
    await edit(10_000);
    site.fail = false;
    await edit(10_000);
    expect(site.builds.map((b) => b.version)).toEqual([11, 12]);
    expect(site.published).toBe(12);
  });

  it('"Rebuild now" builds without waiting, even when nothing changed', async () => {
    const { site } = fakeSite();
    site.requested = true;
    await vi.advanceTimersByTimeAsync(600);
    expect(site.builds).toHaveLength(1);
  });

  it('with onChange off, builds only when asked', async () => {
    const site = { version: 1, builds: 0, requested: false };
    const queue = createRebuildQueue({
      readContentVersion: () => site.version,
      readPublished: () => ({ contentVersion: 0, durationMs: 1_000 }),
      lockHeld: () => false,
      takeRequest: () => (site.requested ? ((site.requested = false), true) : false),
      runBuild: async () => (site.builds++, { ok: true, log: '' }),
      writeState: () => {},
      onChange: false,
    });
    queues.push(queue);
    site.version++;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(site.builds).toBe(0);
    site.requested = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(site.builds).toBe(1);
  });

  it('says when a waiting change should be live: the debounce plus the last build time', async () => {
    const { queue, edit } = fakeSite({ buildMs: 8_000 });
    await edit(1_000);
    const state = queue.state();
    expect(state.status).toBe('waiting');
    expect(Date.parse(state.expectedLiveAt!) - Date.parse(state.buildStartsAt!)).toBe(8_000);
  });
});

describe('the queue state and requests on disk', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rebuild-queue-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips the state and consumes a request once', () => {
    expect(readQueueState(dir)).toBeNull();
    const state = {
      updatedAt: '2026-11-23T10:00:00.000Z',
      status: 'idle',
      onChange: true,
      contentVersion: 1,
      publishedVersion: 1,
      buildStartsAt: null,
      building: null,
      expectedBuildMs: 1,
      quietMs: 0,
      expectedLiveAt: null,
      lastFailure: null,
      nextRetryAt: null,
    } as const;
    writeQueueState(dir, state);
    expect(readQueueState(dir)).toEqual(state);
    expect(takeRebuildRequest(dir)).toBe(false);
    requestRebuild(dir);
    expect(takeRebuildRequest(dir)).toBe(true);
    expect(takeRebuildRequest(dir)).toBe(false);
  });
});
