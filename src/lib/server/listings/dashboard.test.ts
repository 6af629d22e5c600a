import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents, bookings, cities, clicks, leads, spas, subscriptions, users } from '#db/schema.ts';
import { pacificDate } from '#lib/dates.ts';
import { db } from '../db.ts';
import { addSpa, clickGroup, fillDays, handleOwnerDashboardPost, ownerDashboard, VIEW_DAYS } from './dashboard.ts';
import type { PublishingStatus } from '../admin/publishing.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { testTag } from '#tests/support/tagged-rows.ts';

const TAG = testTag('owner-dash');
const NOW = new Date('2026-11-20T20:00:00Z'); // noon in Orange County
const DAY = 86_400_000;
let owner: SessionUser;
let other: SessionUser;
let spaId = 0;
let cityId = 0;

/** The published site carries everything up to `builtAt` (content version 5 of 5). */
const upToDate: PublishingStatus = {
  contentVersion: 5,
  build: { id: 'b', contentVersion: 5, sourceHash: '', builtAt: '2030-01-01T00:00:00Z', durationMs: 1_000, pages: 10 },
  queue: null,
  rebuilding: false,
  lastRebuild: null,
};

beforeAll(() => {
  cityId = db.select({ id: cities.id }).from(cities).limit(1).get()!.id;
  const user = (who: string, role: 'owner' | 'client') => {
    const row = db
      .insert(users)
      .values({ email: `${TAG}-${who}@example.com`, role })
      .returning()
      .get();
    return { id: row.id, email: row.email, firstName: null, lastName: null, profileImageUrl: null, role };
  };
  owner = user('owner', 'owner');
  other = user('other', 'owner');
  const spa = db
    .insert(spas)
    .values({
      name: `${TAG} Glow`,
      slug: `${TAG}-glow`,
      cityId,
      ownerId: owner.id,
      tier: 'PREMIUM',
      website: 'https://glow.example',
      bookingLink: 'https://book.glow.example',
      phone: '(949) 555-0100',
      stripeCustomerId: 'cus_test',
    })
    .returning()
    .get();
  spaId = spa.id;
  db.insert(spas)
    .values({ name: `${TAG} Not mine`, slug: `${TAG}-other`, cityId, ownerId: other.id })
    .run();

  const view = (at: number) => ({ eventType: 'view' as const, entityType: 'spa' as const, entityId: String(spaId), occurredAt: new Date(at) });
  db.insert(analyticsEvents)
    .values([
      view(NOW.getTime() - 60_000), // today
      view(NOW.getTime() - 2 * 60_000),
      view(NOW.getTime() - 3 * DAY), // three days ago
      view(NOW.getTime() - 40 * DAY), // too old
      { ...view(NOW.getTime() - 60_000), eventType: 'click' as const }, // not a view
      { ...view(NOW.getTime() - 60_000), entityId: String(spaId + 100_000) }, // another spa
    ])
    .run();
  const click = (target: string, at = NOW.getTime() - DAY) => ({ url: '/spas/x', targetUrl: target, spaId, clickedAt: new Date(at) });
  db.insert(clicks)
    .values([
      click('tel:+19495550100'),
      click('tel:+19495550100'),
      click('https://glow.example'),
      click('https://book.glow.example'),
      click('https://www.google.com/maps/search/?api=1&query=x'),
      click('https://glow.example', NOW.getTime() - 45 * DAY),
    ])
    .run();
  const booking = (status: 'pending' | 'confirmed' | 'cancelled' | 'completed') => ({ name: 'Client', email: `${TAG}-client@example.com`, spaId, status });
  db.insert(bookings)
    .values([booking('pending'), booking('pending'), booking('confirmed'), booking('cancelled')])
    .run();
  db.insert(leads)
    .values([
      { name: 'L', email: `${TAG}-lead@example.com`, spaId },
      { name: 'L', email: `${TAG}-lead2@example.com`, spaId, status: 'contacted' },
    ])
    .run();
  db.insert(subscriptions)
    .values({
      spaId,
      stripeSubscriptionId: `sub_${TAG}`,
      stripeCustomerId: 'cus_test',
      tier: 'PREMIUM',
      status: 'active',
      currentPeriodEnd: new Date('2026-12-20T20:00:00Z'),
      billing: 'monthly',
    })
    .run();
});

describe('the owner dashboard’s numbers', () => {
  it('counts only this owner’s listings, from the stored rows', () => {
    const [spa, ...rest] = ownerDashboard(owner, NOW, upToDate);
    expect(rest).toEqual([]);
    expect(spa).toMatchObject({
      id: spaId,
      tier: 'PREMIUM',
      views: { total: 3 },
      clicks: { total: 5, phone: 2, website: 1, booking: 1, other: 1 },
      leads: { total: 2, fresh: 1 },
      bookings: { total: 4, pending: 2, confirmed: 1, cancelled: 1, completed: 0 },
      subscription: { status: 'active', billing: 'monthly', cancelAtPeriodEnd: false },
      hasBillingAccount: true,
    });
    expect(spa!.subscription!.renewsAt).toEqual(new Date('2026-12-20T20:00:00Z'));
  });

  it('says how fast the spa answers, as its page will once there are 5 requests', () => {
    const row = db
      .insert(users)
      .values({ email: `${TAG}-quick-owner@example.com`, role: 'owner' })
      .returning()
      .get();
    const quickOwner: SessionUser = { id: row.id, email: row.email, firstName: null, lastName: null, profileImageUrl: null, role: 'owner' };
    const quick = db
      .insert(spas)
      .values({ name: `${TAG} Quick`, slug: `${TAG}-quick`, cityId, ownerId: quickOwner.id })
      .returning({ id: spas.id })
      .get().id;
    const asked = NOW.getTime() - 10 * DAY;
    db.insert(bookings)
      .values(
        [1, 2, 3, 4, 5].map((hours) => ({
          name: 'Client',
          email: `${TAG}-quick@example.com`,
          spaId: quick,
          status: 'confirmed' as const,
          createdAt: new Date(asked),
          firstAnsweredAt: new Date(asked + hours * 3_600_000),
        })),
      )
      .run();
    const [spa] = ownerDashboard(quickOwner, NOW, upToDate);
    expect(spa!.responseTime).toMatchObject({ requests: 5, answered: 5, hours: 3 });
    // Four requests are not enough to say.
    expect(ownerDashboard(owner, NOW, upToDate)[0]!.responseTime.hours).toBeNull();
  });

  it('puts views on Pacific days, 30 of them ending today', () => {
    const { days } = ownerDashboard(owner, NOW, upToDate)[0]!.views;
    expect(days).toHaveLength(VIEW_DAYS);
    expect(days.at(-1)).toEqual({ date: pacificDate(NOW), views: 2 });
    expect(days.at(-4)).toEqual({ date: pacificDate(new Date(NOW.getTime() - 3 * DAY)), views: 1 });
    expect(days.filter((d) => d.views > 0)).toHaveLength(2);
  });

  it('fills days without views with zero', () => {
    expect(fillDays(new Map([['2026-11-19', 4]]), '2026-11-20', 3)).toEqual([
      { date: '2026-11-18', views: 0 },
      { date: '2026-11-19', views: 4 },
      { date: '2026-11-20', views: 0 },
    ]);
  });

  it('tells the links apart', () => {
    const spa = { website: 'https://a.example', bookingLink: 'https://b.example' };
    expect(clickGroup('tel:+1949', spa)).toBe('phone');
    expect(clickGroup('https://a.example', spa)).toBe('website');
    expect(clickGroup('https://b.example', spa)).toBe('booking');
    expect(clickGroup('https://instagram.com/x', spa)).toBe('other');
  });

  it('shows nothing of someone else’s, and no listing for a new user', () => {
    expect(ownerDashboard(other, NOW, upToDate).map((s) => s.name)).toEqual([`${TAG} Not mine`]);
    expect(ownerDashboard({ id: 999_999_999 }, NOW, upToDate)).toEqual([]);
  });

  it('says Publishing… for a change the served build does not carry', () => {
    const behind: PublishingStatus = { ...upToDate, contentVersion: 6, build: { ...upToDate.build!, builtAt: '2000-01-01T00:00:00Z' } };
    expect(ownerDashboard(owner, NOW, upToDate)[0]!.publishing).toEqual({ state: 'live' });
    expect(ownerDashboard(owner, NOW, behind)[0]!.publishing).toMatchObject({ state: 'publishing', carriedBy: 'next-build' });
  });
});

describe('Add New Spa', () => {
  it('adds a FREE listing awaiting review and makes a client an owner', () => {
    const client = db
      .insert(users)
      .values({ email: `${TAG}-newcomer@example.com` })
      .returning()
      .get();
    const user: SessionUser = { id: client.id, email: client.email, firstName: null, lastName: null, profileImageUrl: null, role: 'client' };
    expect(addSpa(user, new URLSearchParams({ name: `${TAG} Second Location`, cityId: String(cityId) }), null)).toEqual({
      ok: true,
      value: { notice: 'spa-added' },
    });
    const [spa] = ownerDashboard(user, NOW, upToDate);
    expect(spa).toMatchObject({
      name: `${TAG} Second Location`,
      tier: 'FREE',
      active: false,
      reviewStatus: 'pending',
      publishing: { state: 'awaiting-review' },
    });
    expect(db.select({ role: users.role }).from(users).where(eq(users.id, client.id)).get()!.role).toBe('owner');
    db.delete(spas).where(eq(spas.ownerId, client.id)).run();
  });

  it('refuses a missing name or city with the field and stores nothing', async () => {
    const count = () => db.select().from(spas).where(eq(spas.ownerId, owner.id)).all().length;
    const before = count();
    expect(addSpa(owner, new URLSearchParams({ name: '  ', cityId: String(cityId) }), null)).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { name: 'Spa name is required' },
      message: 'Spa name is required',
    });
    expect(addSpa(owner, new URLSearchParams({ name: 'Fine', cityId: '' }), null)).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { cityId: 'Choose a city' },
      message: 'Choose a city',
    });
    expect(addSpa(owner, new URLSearchParams({ name: 'Fine', cityId: '999999' }), null)).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { cityId: expect.any(String) },
    });
    expect(count()).toBe(before);
  });

  it('says billing is not configured without Stripe keys', async () => {
    expect(await handleOwnerDashboardPost(new URLSearchParams({ intent: 'billing', spaId: String(spaId) }), owner, 'http://localhost', null)).toMatchObject({
      ok: false,
      reason: 'unavailable',
      message: 'Billing is not configured on this site.',
    });
  });
});
