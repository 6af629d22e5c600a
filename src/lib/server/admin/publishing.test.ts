import { describe, expect, it } from 'vitest';
import type { RebuildQueueState } from '../published-site.ts';
import { listingPublishState, type ListingFacts, type PublishingStatus } from './publishing.ts';

const build = { id: '20261123-100000-1-7', contentVersion: 7, sourceHash: '', builtAt: '2026-11-23T10:00:20.000Z', durationMs: 20_000, pages: 120 };
const status = (over: Partial<PublishingStatus> = {}): Pick<PublishingStatus, 'contentVersion' | 'build' | 'queue'> => ({
  contentVersion: 7,
  build,
  queue: null,
  ...over,
});
const spa = (over: Partial<ListingFacts> = {}): ListingFacts => ({
  active: true,
  reviewStatus: 'approved',
  reviewNote: null,
  lastChangedAt: new Date('2026-11-23T09:00:00Z'),
  ...over,
});
const queue = (over: Partial<RebuildQueueState>): RebuildQueueState => ({
  updatedAt: '2026-11-23T10:05:00.000Z',
  status: 'idle',
  onChange: true,
  contentVersion: 9,
  publishedVersion: 7,
  buildStartsAt: null,
  building: null,
  expectedBuildMs: 20_000,
  quietMs: 3_000,
  expectedLiveAt: null,
  lastFailure: null,
  nextRetryAt: null,
  ...over,
});
const CHANGED = new Date('2026-11-23T10:04:00Z'); // after the served build read the data (10:00:00)

describe('listingPublishState', () => {
  it('is Awaiting review or Not approved before an editor says yes', () => {
    expect(listingPublishState(spa({ reviewStatus: 'pending', active: false }), status())).toEqual({ state: 'awaiting-review' });
    expect(listingPublishState(spa({ reviewStatus: 'rejected', active: false, reviewNote: 'No address' }), status())).toEqual({
      state: 'rejected',
      reason: 'No address',
    });
  });

  it('is Live when the served build carries the data, whenever the listing changed', () => {
    expect(listingPublishState(spa(), status())).toEqual({ state: 'live' });
    expect(listingPublishState(spa({ lastChangedAt: CHANGED }), status())).toEqual({ state: 'live' });
    expect(listingPublishState(spa({ active: false }), status())).toEqual({ state: 'hidden' });
  });

  it('is Live when other listings changed but this one did not since the build', () => {
    expect(listingPublishState(spa(), status({ contentVersion: 9 }))).toEqual({ state: 'live' });
  });

  it('is Publishing… in the next build while the queue waits for quiet, with its estimate', () => {
    const state = listingPublishState(
      spa({ lastChangedAt: CHANGED }),
      status({ contentVersion: 9, queue: queue({ status: 'waiting', buildStartsAt: '2026-11-23T10:04:03.000Z', expectedLiveAt: '2026-11-23T10:04:23.000Z' }) }),
    );
    expect(state).toEqual({
      state: 'publishing',
      carriedBy: 'next-build',
      contentVersion: 9,
      expectedLiveAt: new Date('2026-11-23T10:04:23.000Z'),
      delayed: false,
      pageCurrent: true,
    });
  });

  it('is Publishing… with an estimate before the queue has looked since the change: quiet, then a build', () => {
    // The queue still says idle (it looks twice a second); an owner who reloads at once is told when, too.
    const state = listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9, queue: queue({ status: 'idle' }) }));
    expect(state).toMatchObject({ state: 'publishing', carriedBy: 'next-build', contentVersion: 9, expectedLiveAt: new Date('2026-11-23T10:04:23.000Z') });
  });

  it('gives no estimate when nothing publishes on change', () => {
    const state = listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9, queue: queue({ status: 'idle', onChange: false }) }));
    expect(state).toMatchObject({ state: 'publishing', carriedBy: 'next-build', expectedLiveAt: null });
  });

  /** The state of a listing changed at CHANGED (data now at version 9) while a build that read `contentVersion` at `startedAt` runs. */
  const duringBuild = (startedAt: string, contentVersion: number) =>
    listingPublishState(
      spa({ lastChangedAt: CHANGED }),
      status({ contentVersion: 9, queue: queue({ status: 'building', building: { startedAt, contentVersion, elsewhere: false } }) }),
    );

  it('is Publishing… in the running build when it started after the change', () => {
    expect(duringBuild('2026-11-23T10:04:05.000Z', 9)).toMatchObject({
      state: 'publishing',
      carriedBy: 'running-build',
      contentVersion: 9,
      expectedLiveAt: new Date('2026-11-23T10:04:25.000Z'),
    });
  });

  it('waits for the build after the running one when that started before the change', () => {
    // The running build (20 s expected), the queue's quiet time, then a build of its own.
    expect(duringBuild('2026-11-23T10:03:50.000Z', 8)).toMatchObject({
      state: 'publishing',
      carriedBy: 'next-build',
      expectedLiveAt: new Date('2026-11-23T10:04:33.000Z'),
    });
    const building = { status: 'building', building: { startedAt: '2026-11-23T10:03:50.000Z', contentVersion: 8, elsewhere: false } } as const;
    expect(listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9, queue: queue({ ...building, quietMs: 10_000 }) }))).toMatchObject({
      expectedLiveAt: new Date('2026-11-23T10:04:40.000Z'),
    });
  });

  it('says the change is delayed while a failed build waits for its retry, and gives no time without a queue', () => {
    expect(
      listingPublishState(
        spa({ lastChangedAt: CHANGED }),
        status({ contentVersion: 9, queue: queue({ status: 'retrying', expectedLiveAt: '2026-11-23T10:10:00.000Z' }) }),
      ),
    ).toMatchObject({ state: 'publishing', delayed: true });
    expect(listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9 }))).toMatchObject({ state: 'publishing', expectedLiveAt: null });
  });

  it('says the spa page shows the change already only when the queue publishes on change', () => {
    const waiting = { status: 'waiting', expectedLiveAt: '2026-11-23T10:04:23.000Z' } as const;
    const on = listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9, queue: queue(waiting) }));
    expect(on).toMatchObject({ state: 'publishing', pageCurrent: true });
    const off = listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9, queue: queue({ ...waiting, onChange: false }) }));
    expect(off).toMatchObject({ state: 'publishing', pageCurrent: false });
    expect(listingPublishState(spa({ lastChangedAt: CHANGED }), status({ contentVersion: 9 }))).toMatchObject({ pageCurrent: false });
  });
});
