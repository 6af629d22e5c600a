// New listings are limited where they are written (issue 23, item 1): per
// client address, per account and per owner inbox, whichever path asks
// (signup, Add New Spa, a paid plan's checkout). A refusal writes nothing and
// no new listing moves the content version: it waits for review, unseen.
import { count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, spas } from '#db/schema.ts';
import { contentVersion } from '#tests/support/content-version.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { db } from '../db.ts';
import { addSpa } from './dashboard.ts';
import { createPendingListing, SIGNUP_LIMITS, tooManyListings } from './pending.ts';

const TAG = testTag('pending-test');
let cityId = 0;
beforeAll(() => {
  cityId = db.insert(cities).values({ name: TAG, slug: TAG }).returning().get().id;
});

let n = 0;
/** A client address no other test uses. */
const newClient = () => `198.18.${Math.floor(Math.random() * 250)}.${(n++ % 250) + 1}`;
const listingsNamed = (name: string) =>
  db
    .select({ n: count() })
    .from(spas)
    .where(like(spas.name, `${name}%`))
    .get()!.n;
const data = (name: string) => ({ name, cityId });

describe('createPendingListing', () => {
  it('takes 5 listings an hour from one client address, across accounts, then refuses with nothing written', () => {
    const client = newClient();
    const name = `${TAG} Burst`;
    const outcomes = Array.from({ length: SIGNUP_LIMITS.perClientPerHour + 2 }, (_, i) => {
      const user = insertUser(`${TAG}-burst-${i}@example.com`, 'owner');
      const result = createPendingListing(data(`${name} ${i}`), { user }, { clientAddress: client });
      return result.ok ? 'created' : result.reason;
    });
    expect(outcomes).toEqual([...Array<string>(SIGNUP_LIMITS.perClientPerHour).fill('created'), 'rate_limited', 'rate_limited']);
    expect(listingsNamed(name)).toBe(SIGNUP_LIMITS.perClientPerHour);
  });

  it('takes 10 a day from one client address, whatever the hour', () => {
    const client = newClient();
    const name = `${TAG} Day`;
    const start = Date.now();
    const outcomes: string[] = [];
    for (let i = 0; i < SIGNUP_LIMITS.perClientPerDay + 1; i++) {
      const user = insertUser(`${TAG}-day-${i}@example.com`, 'owner');
      // Two an hour: never over the hourly limit.
      const result = createPendingListing(data(`${name} ${i}`), { user }, { clientAddress: client }, start + Math.floor(i / 2) * 3_600_000 + 1_000);
      outcomes.push(result.ok ? 'created' : result.reason);
    }
    expect(outcomes.at(-1)).toBe('rate_limited');
    expect(listingsNamed(name)).toBe(SIGNUP_LIMITS.perClientPerDay);
  });

  it('takes 5 a day from one account, from however many addresses', () => {
    const user = insertUser(`${TAG}-hopper@example.com`, 'owner');
    const name = `${TAG} Hopper`;
    const outcomes = Array.from({ length: SIGNUP_LIMITS.perUserPerDay + 1 }, (_, i) => {
      const result = createPendingListing(data(`${name} ${i}`), { user }, { clientAddress: newClient() });
      return result.ok ? 'created' : result.reason;
    });
    expect(outcomes.at(-1)).toBe('rate_limited');
    expect(listingsNamed(name)).toBe(SIGNUP_LIMITS.perUserPerDay);
  });

  it('says when to try again', () => {
    expect(tooManyListings(60)).toBe('Too many listings submitted. Try again in 1 minute.');
    expect(tooManyListings(3_000)).toBe('Too many listings submitted. Try again in 50 minutes.');
    expect(tooManyListings(20 * 3_600)).toBe('Too many listings submitted. Try again in 20 hours.');
  });

  it('writes a listing nobody sees yet, so it asks for no rebuild', () => {
    const user = insertUser(`${TAG}-quiet@example.com`, 'owner');
    const counted = db.transaction(
      () => {
        const before = contentVersion();
        const created = createPendingListing(data(`${TAG} Quiet`), { user }, { clientAddress: newClient() });
        return { created, bumps: contentVersion() - before };
      },
      { behavior: 'immediate' },
    );
    expect(counted).toMatchObject({ created: { ok: true }, bumps: 0 });
    const row = db
      .select()
      .from(spas)
      .where(eq(spas.name, `${TAG} Quiet`))
      .get()!;
    expect(row).toMatchObject({ active: false, reviewStatus: 'pending', ownerId: user.id });
  });
});

describe("the dashboard's Add New Spa", () => {
  it('counts against the client address as signup does: 429 with the wait, nothing written', () => {
    const client = newClient();
    const name = `${TAG} Added`;
    const results = Array.from({ length: SIGNUP_LIMITS.perClientPerHour + 1 }, (_, i) =>
      addSpa(insertUser(`${TAG}-added-${i}@example.com`, 'owner'), new URLSearchParams({ name: `${name} ${i}`, cityId: String(cityId) }), client),
    );
    expect(results.at(-1)).toMatchObject({
      ok: false,
      reason: 'rate_limited',
      message: expect.stringMatching(/^Too many listings submitted\. Try again in \d+ minutes?\.$/),
    });
    expect(listingsNamed(name)).toBe(SIGNUP_LIMITS.perClientPerHour);
  });
});
