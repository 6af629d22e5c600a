// Spas and cities made for one test, in the e2e run's database.
import { expect, type BrowserContext } from '@playwright/test';
import { write } from './db.ts';
import { createSignedInUser, signIn, type TestUser } from './sessions.ts';

/** A slug made from a name the way these fixtures name things: lower case, words joined by hyphens. */
export const slugOf = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

/** A new city named `name` (its slug made from the name). */
const insertCity = (name: string): number => write<{ id: number }>('insert into cities (name, slug) values (?, ?) returning id', name, slugOf(name))!.id;

/** A new spa in `cityId`, owned by `ownerId` when given; its slug is made from the name unless given. */
export function insertSpa(fields: { name: string; cityId: number; ownerId?: number | null; slug?: string }): { id: number } {
  const { name, cityId, ownerId = null, slug = slugOf(name) } = fields;
  return write<{ id: number }>('insert into spas (name, slug, city_id, owner_id) values (?, ?, ?, ?) returning id', name, slug, cityId, ownerId)!;
}

/** Gives the user a listing for the test's length (a seeded spa nobody owns); `giveBack` hands it back after. */
export function borrowSpa(ownerId: number): { id: number; name: string; slug: string; giveBack: () => void } {
  const spa = write<{ id: number; name: string; slug: string }>(
    `update spas set owner_id = ?
     where id = (select id from spas where owner_id is null and active = 1 order by random() limit 1)
     returning id, name, slug`,
    ownerId,
  );
  expect(spa, 'a seeded spa without an owner').toBeDefined();
  return { ...spa!, giveBack: () => write('update spas set owner_id = null where id = ?', spa!.id) };
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
