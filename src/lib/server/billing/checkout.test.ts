// Subscription checkout against the local Stripe stand-in with the real SDK:
// prices by lookup key (set up idempotently), only the owner may subscribe a
// spa, and the Elite cap holds with open checkouts counted.
import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpPrices } from '#scripts/stripe-setup.ts';
import { startStripeStandIn, type StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent } from '#tests/support/stripe-webhooks.ts';
import { checkoutHolds, cities, siteMeta, spas, subscriptions, users } from '#db/schema.ts';
import { forgetPrices, openBillingPortal, startSubscriptionCheckout } from './checkout.ts';
import { outcomeOf, type Result } from '#lib/result.ts';
import { handleStripeWebhook } from './webhooks.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import type { SessionUser } from '../auth/sessions.ts';

const TAG = testTag('checkout-test');
const SECRET = 'whsec_test_checkout';
const ORIGIN = 'http://localhost:4321';
let standIn: StripeStandIn;
let stripe: Stripe;
let cityId = 0;
let otherCityId = 0;
let raceCityId = 0;

function makeUser(who: string, role: SessionUser['role'] = 'owner'): SessionUser {
  const row = db
    .insert(users)
    .values({ email: `${TAG}-${who}@example.com`, role })
    .returning()
    .get();
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, profileImageUrl: row.profileImageUrl, role: row.role };
}
function makeSpa(key: string, owner: SessionUser | null, values: { tier?: 'FREE' | 'PREMIUM' | 'ELITE'; city?: number } = {}): number {
  return db
    .insert(spas)
    .values({ name: `Spa ${key}`, slug: `${TAG}-${key}`, cityId: values.city ?? cityId, ownerId: owner?.id ?? null, tier: values.tier ?? 'FREE' })
    .returning({ id: spas.id })
    .get().id;
}
/** The value, or the refusal as `error`, to read what an endpoint would answer. */
const bodyOf = (result: Result<{ url: string }>) => (result.ok ? { url: result.value.url, error: undefined } : { url: undefined, error: result });
const webhook = (type: string, object: Record<string, unknown>, created?: number) => {
  const { payload, header } = signEvent(makeEvent(type, object, created), SECRET);
  return handleStripeWebhook(payload, header, { secret: SECRET, stripe });
};
const openHolds = (city: number) =>
  db
    .select()
    .from(checkoutHolds)
    .where(and(eq(checkoutHolds.cityId, city), isNull(checkoutHolds.releasedAt)))
    .all();

beforeAll(async () => {
  forgetPrices();
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  cityId = db
    .insert(cities)
    .values({ name: `City ${TAG}`, slug: `${TAG}-city` })
    .returning()
    .get().id;
  otherCityId = db
    .insert(cities)
    .values({ name: `Other ${TAG}`, slug: `${TAG}-other` })
    .returning()
    .get().id;
  raceCityId = db
    .insert(cities)
    .values({ name: `Race ${TAG}`, slug: `${TAG}-race` })
    .returning()
    .get().id;
});

afterAll(async () => {
  await standIn.close();
});

describe('npm run stripe:setup', () => {
  it('creates the four prices once, by lookup key', async () => {
    const first = await setUpPrices(stripe, () => {});
    const second = await setUpPrices(stripe, () => {});
    expect([...first.keys()]).toEqual(['premium_monthly', 'premium_annual', 'elite_monthly', 'elite_annual']);
    expect(second).toEqual(first);
    expect(standIn.prices.size).toBe(4);
    expect([...standIn.prices.values()].map((p) => [p.lookup_key, p.unit_amount])).toEqual([
      ['premium_monthly', 9_700],
      ['premium_annual', 97_000],
      ['elite_monthly', 19_700],
      ['elite_annual', 197_000],
    ]);
  });
});

describe('startSubscriptionCheckout', () => {
  it('opens a subscription checkout for the owner’s spa at the plan’s price', async () => {
    const owner = makeUser('premium-owner');
    const spaId = makeSpa('premium', owner);
    const result = await startSubscriptionCheckout(owner, { tier: 'PREMIUM', billing: 'yearly', spaId }, stripe, { origin: ORIGIN });
    expect(result.ok).toBe(true);
    const { url } = bodyOf(result);
    expect(url).toMatch(/\/pay\/cs_test_/);
    const session = [...standIn.checkoutSessions.values()].at(-1)!;
    expect(session).toMatchObject({ mode: 'subscription', metadata: { spa_id: String(spaId), tier: 'PREMIUM', billing: 'annual' } });
    const price = standIn.prices.get(String((session._line_items as { price: string }[])[0]!.price))!;
    expect(price.lookup_key).toBe('premium_annual');
    expect(String(session.success_url)).toContain(`${ORIGIN}/owner/dashboard`);
  });

  it('refuses another owner’s spa (403) and changes nothing', async () => {
    const owner = makeUser('rightful');
    const intruder = makeUser('intruder');
    const spaId = makeSpa('guarded', owner);
    const before = JSON.stringify([db.select().from(spas).where(eq(spas.id, spaId)).get(), openHolds(cityId), db.select().from(subscriptions).all()]);
    const sessions = standIn.checkoutSessions.size;
    for (const tier of ['PREMIUM', 'ELITE']) {
      const result = await startSubscriptionCheckout(intruder, { tier, billing: 'monthly', spaId }, stripe, { origin: ORIGIN });
      expect(outcomeOf(result)).toBe('forbidden');
    }
    const client = makeUser('client', 'client');
    expect(outcomeOf(await startSubscriptionCheckout(client, { tier: 'ELITE', billing: 'monthly', spaId }, stripe, { origin: ORIGIN }))).toBe('forbidden');
    expect(outcomeOf(await openBillingPortal(intruder, { spaId }, stripe, { origin: ORIGIN }))).toBe('forbidden');
    expect(JSON.stringify([db.select().from(spas).where(eq(spas.id, spaId)).get(), openHolds(cityId), db.select().from(subscriptions).all()])).toBe(before);
    expect(standIn.checkoutSessions.size).toBe(sessions);
  });

  it('refuses bad plans (422)', async () => {
    const owner = makeUser('bad-plan');
    const spaId = makeSpa('bad-plan', owner);
    for (const body of [
      { tier: 'FREE', billing: 'monthly', spaId },
      { tier: 'GOLD', billing: 'monthly', spaId },
      { tier: 'ELITE', billing: 'weekly', spaId },
      null,
    ]) {
      expect(outcomeOf(await startSubscriptionCheckout(owner, body, stripe, { origin: ORIGIN }))).toBe('invalid');
    }
  });

  it('20 Elite checkouts at once for a city with 2 free slots: exactly 2 get a url', async () => {
    makeSpa('elite-existing', null, { tier: 'ELITE' });
    const owners = Array.from({ length: 20 }, (_, i) => makeUser(`elite-${i}`));
    const spaIds = owners.map((owner, i) => makeSpa(`elite-${i}`, owner));
    const answers = await Promise.all(
      owners.map((owner, i) => startSubscriptionCheckout(owner, { tier: 'ELITE', billing: 'monthly', spaId: spaIds[i] }, stripe, { origin: ORIGIN })),
    );
    const bodies = answers.map(bodyOf);
    const winners = answers.map((a, i) => (a.ok ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(2);
    for (const [i, answer] of answers.entries()) {
      if (winners.includes(i)) continue;
      expect(outcomeOf(answer)).toBe('conflict');
      expect(bodies[i]!.error).toMatchObject({ code: 'elite_capacity' });
      expect(bodies[i]!.error!.message).toContain('Elite tier is at capacity');
    }
    expect(openHolds(cityId)).toHaveLength(2);

    // The first winner pays: its spa becomes Elite, its hold ends; still no room for a fourth.
    const versionBefore = db.select().from(siteMeta).get()!.contentVersion;
    const [first, second] = winners.map((i) =>
      [...standIn.checkoutSessions.values()].find((s) => (s.metadata as Record<string, string>).spa_id === String(spaIds[i]))!,
    );
    const subscription = standIn.completeCheckout(String(first!.id));
    const completed = await webhook('checkout.session.completed', standIn.checkoutSessions.get(String(first!.id))!);
    expect(completed.ok).toBe(true);
    const paidSpa = db
      .select()
      .from(spas)
      .where(eq(spas.id, Number((first!.metadata as Record<string, string>).spa_id)))
      .get()!;
    expect(paidSpa).toMatchObject({ tier: 'ELITE', subscriptionStatus: 'active', stripeSubscriptionId: subscription.id });
    expect(db.select().from(siteMeta).get()!.contentVersion).toBeGreaterThan(versionBefore);
    expect(openHolds(cityId)).toHaveLength(1);
    const loser = winners.length ? owners.findIndex((_, i) => !winners.includes(i)) : 0;
    const refused = await startSubscriptionCheckout(owners[loser]!, { tier: 'ELITE', billing: 'annual', spaId: spaIds[loser] }, stripe, { origin: ORIGIN });
    expect(outcomeOf(refused)).toBe('conflict');

    // The second checkout expires unpaid: its slot is free again.
    await stripe.checkout.sessions.expire(String(second!.id));
    expect((await webhook('checkout.session.expired', standIn.checkoutSessions.get(String(second!.id))!)).ok).toBe(true);
    expect(openHolds(cityId)).toHaveLength(0);
    const retried = await startSubscriptionCheckout(owners[loser]!, { tier: 'ELITE', billing: 'annual', spaId: spaIds[loser] }, stripe, { origin: ORIGIN });
    expect(retried.ok).toBe(true);

    // Premium is never capped, and a spa already on a plan is sent to billing management.
    const bystander = owners.findIndex((_, i) => !winners.includes(i) && i !== loser);
    expect(
      (await startSubscriptionCheckout(owners[bystander]!, { tier: 'PREMIUM', billing: 'monthly', spaId: spaIds[bystander] }, stripe, { origin: ORIGIN })).ok,
    ).toBe(true);
    const paidOwner = owners[spaIds.indexOf(paidSpa.id)]!;
    expect(outcomeOf(await startSubscriptionCheckout(paidOwner, { tier: 'PREMIUM', billing: 'monthly', spaId: paidSpa.id }, stripe, { origin: ORIGIN }))).toBe(
      'conflict',
    );
    const portal = await openBillingPortal(paidOwner, { spaId: paidSpa.id }, stripe, { origin: ORIGIN });
    expect(portal.ok).toBe(true);
    expect(bodyOf(portal).url).toMatch(/\/portal\/bps_/);
  });

  it('20 Elite checkouts at once for 2 free slots, both winners pay, every webhook twice in any order: 3 active Elite in the city', async () => {
    makeSpa('race-existing', null, { tier: 'ELITE', city: raceCityId });
    const owners = Array.from({ length: 20 }, (_, i) => makeUser(`race-${i}`));
    const spaIds = owners.map((owner, i) => makeSpa(`race-${i}`, owner, { city: raceCityId }));
    const answers = await Promise.all(
      owners.map((owner, i) => startSubscriptionCheckout(owner, { tier: 'ELITE', billing: 'monthly', spaId: spaIds[i] }, stripe, { origin: ORIGIN })),
    );
    const statuses = answers.map(outcomeOf);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(2);
    expect(statuses.filter((s) => s === 'conflict')).toHaveLength(18);

    const raceSpas = new Set(spaIds.map(String));
    const sessions = [...standIn.checkoutSessions.values()].filter((s) => raceSpas.has((s.metadata as Record<string, string>).spa_id ?? ''));
    expect(sessions).toHaveLength(2);
    for (const session of sessions) standIn.completeCheckout(String(session.id));
    // Each completion delivered twice, the four deliveries in reverse order of payment.
    const deliveries = sessions.flatMap((session) => [session, session]).reverse();
    for (const session of deliveries) expect((await webhook('checkout.session.completed', standIn.checkoutSessions.get(String(session.id))!)).ok).toBe(true);

    const elite = db
      .select({ id: spas.id })
      .from(spas)
      .where(and(eq(spas.cityId, raceCityId), eq(spas.tier, 'ELITE'), eq(spas.active, true)))
      .all();
    expect(elite).toHaveLength(3);
    expect(openHolds(raceCityId)).toHaveLength(0);
    // A fourth is still refused with the capacity message.
    const loser = statuses.findIndex((s) => s === 'conflict');
    const fourth = await startSubscriptionCheckout(owners[loser]!, { tier: 'ELITE', billing: 'monthly', spaId: spaIds[loser] }, stripe, { origin: ORIGIN });
    expect(outcomeOf(fourth)).toBe('conflict');
    expect(bodyOf(fourth).error).toMatchObject({ code: 'elite_capacity' });
  });

  it('an expired hold frees its slot without any webhook', async () => {
    for (let i = 0; i < 3; i++) makeSpa(`other-elite-${i}`, null, { tier: i < 2 ? 'ELITE' : 'FREE', city: otherCityId });
    const a = makeUser('late-a');
    const b = makeUser('late-b');
    const spaA = makeSpa('late-a', a, { city: otherCityId });
    const spaB = makeSpa('late-b', b, { city: otherCityId });
    const t0 = new Date();
    expect((await startSubscriptionCheckout(a, { tier: 'ELITE', billing: 'monthly', spaId: spaA }, stripe, { origin: ORIGIN, now: t0 })).ok).toBe(true);
    expect(outcomeOf(await startSubscriptionCheckout(b, { tier: 'ELITE', billing: 'monthly', spaId: spaB }, stripe, { origin: ORIGIN, now: t0 }))).toBe(
      'conflict',
    );
    const later = new Date(t0.getTime() + 36 * 60_000);
    expect((await startSubscriptionCheckout(b, { tier: 'ELITE', billing: 'monthly', spaId: spaB }, stripe, { origin: ORIGIN, now: later })).ok).toBe(true);
  });

  it('releases the hold when Stripe fails', async () => {
    const owner = makeUser('stripe-down');
    const spaId = makeSpa('stripe-down', owner, { city: otherCityId });
    const held = openHolds(otherCityId).length;
    standIn.failNext(5);
    const result = await startSubscriptionCheckout(owner, { tier: 'ELITE', billing: 'monthly', spaId }, standIn.client(), {
      origin: ORIGIN,
      now: new Date(Date.now() + 3 * 3_600_000),
    });
    expect(outcomeOf(result)).toBe('upstream_failed');
    expect(openHolds(otherCityId)).toHaveLength(held);
  });
});
