// Spas and cities made for one test, demo listings lent to one, and demo
// listings and services looked up, in the e2e run's database: through drizzle on
// db/schema.ts, so a renamed column fails the type check, not a run.
import { expect, type BrowserContext } from '@playwright/test';
import { and, asc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { demoSpas } from '#db/demo-data/index.ts';
import { cities, services, spas, type Tier } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { createSignedInUser, signIn, type TestUser } from './sessions.ts';

/** A slug made from a name the way these fixtures name things: lower case, words joined by hyphens. */
export const slugOf = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

/** A new city named `name` (its slug made from the name). */
export const insertCity = (name: string): number =>
  db
    .insert(cities)
    .values({ name, slug: slugOf(name) })
    .returning({ id: cities.id })
    .get().id;

/** A new spa in `cityId`, owned by `ownerId` when given; its slug is made from the name unless given. */
export function insertSpa(fields: { name: string; cityId: number; ownerId?: number | null; slug?: string }): { id: number } {
  const { name, cityId, ownerId = null, slug = slugOf(name) } = fields;
  return db.insert(spas).values({ name, slug, cityId, ownerId }).returning({ id: spas.id }).get();
}

// Only the demo directory's own listings are lent: a listing another test made
// may lack what a borrower counts on (services, a phone, photos).
const DEMO_SLUGS = demoSpas.map((spa) => spa.slug);

/**
 * Lends `ownerId` an active demo listing nobody owns (and that matches `where`,
 * when given), chosen at random; undefined when there is none. One statement,
 * so two tests never borrow the same listing. The borrower gives it back.
 */
export function lendListing(ownerId: number, where?: SQL): { id: number; name: string; slug: string; cityId: number } | undefined {
  return db
    .update(spas)
    .set({ ownerId })
    .where(
      eq(
        spas.id,
        db
          .select({ id: spas.id })
          .from(spas)
          .where(and(eq(spas.active, true), isNull(spas.ownerId), inArray(spas.slug, DEMO_SLUGS), where))
          .orderBy(sql`random()`)
          .limit(1),
      ),
    )
    .returning({ id: spas.id, name: spas.name, slug: spas.slug, cityId: spas.cityId })
    .get();
}

/** Gives the user a listing for the test's length (a demo spa nobody owns); `giveBack` hands it back after. */
export function borrowSpa(ownerId: number): { id: number; name: string; slug: string; giveBack: () => void } {
  const spa = lendListing(ownerId);
  expect(spa, 'a seeded spa without an owner').toBeDefined();
  const { id, name, slug } = spa!;
  return { id, name, slug, giveBack: () => db.update(spas).set({ ownerId: null }).where(eq(spas.id, id)).run() };
}

/** The active listing of `tier` (of any tier when none is given) with the lowest id. */
export function firstSpaOfTier(tier?: Tier): { id: number; name: string; slug: string } {
  const spa = db
    .select({ id: spas.id, name: spas.name, slug: spas.slug })
    .from(spas)
    .where(and(eq(spas.active, true), tier ? eq(spas.tier, tier) : undefined))
    .orderBy(asc(spas.id))
    .limit(1)
    .get();
  expect(spa, `an active ${tier ?? ''} listing`).toBeDefined();
  return spa!;
}

/** The active, priced service of an active listing with the lowest id (that also matches `where`, when given). */
export function firstPricedService(where?: SQL): { id: number; name: string; priceCents: number } {
  const service = db
    .select({ id: services.id, name: services.name, priceCents: services.priceCents })
    .from(services)
    .innerJoin(spas, eq(spas.id, services.spaId))
    .where(and(eq(services.active, true), eq(spas.active, true), gt(services.priceCents, 0), where))
    .orderBy(asc(services.id))
    .limit(1)
    .get();
  expect(service, 'an active, priced service').toBeDefined();
  return service!;
}

/**
 * A new owner, signed in to `context`, with a spa in a city of its own: the
 * demo cities may already have their three Elite spas, and the plans page
 * offers what the spa's city still allows. The city and the spa are named
 * `names` followed by the owner's id, so every test's are new.
 */
export async function ownerWithSpaInNewCity(
  context: BrowserContext,
  names: { city: string; spa: string },
  fields: { firstName?: string } = {},
): Promise<{ owner: TestUser; cityId: number; spa: { id: number } }> {
  const owner = createSignedInUser({ ...fields, role: 'owner' });
  await signIn(context, owner);
  const cityId = insertCity(`${names.city} ${owner.id}`);
  const spa = insertSpa({ name: `${names.spa} ${owner.id}`, cityId, ownerId: owner.id });
  return { owner, cityId, spa };
}
