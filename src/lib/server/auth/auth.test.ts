import { beforeAll, describe, expect, it } from 'vitest';
import { cities, spas, users } from '#db/schema.ts';
import { findEditableSpa } from './auth.ts';
import { db } from '../db.ts';
import type { SessionUser } from './sessions.ts';
import { testTag } from '#tests/support/tagged-rows.ts';

const TAG = testTag('auth-test');
const people = {} as Record<'owner' | 'otherOwner' | 'client' | 'admin', SessionUser>;
let spaId = 0;

beforeAll(() => {
  const person = (key: keyof typeof people, role: SessionUser['role']) => {
    const row = db
      .insert(users)
      .values({ email: `${TAG}-${key}@example.com`, role })
      .returning()
      .get();
    people[key] = { id: row.id, email: row.email, firstName: null, lastName: null, profileImageUrl: null, role };
  };
  person('owner', 'owner');
  person('otherOwner', 'owner');
  person('client', 'client');
  person('admin', 'admin');
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  spaId = db.insert(spas).values({ name: 'Auth Spa', slug: TAG, cityId: city.id, ownerId: people.owner.id }).returning().get().id;
});

describe('findEditableSpa', () => {
  it('gives the listing to its owner and to editors', () => {
    expect(findEditableSpa(people.owner, String(spaId))?.id).toBe(spaId);
    expect(findEditableSpa(people.admin, spaId)?.name).toBe('Auth Spa');
  });

  it('gives nothing to anyone else, or for a bad id', () => {
    expect(findEditableSpa(null, spaId)).toBeNull();
    expect(findEditableSpa(people.client, spaId)).toBeNull();
    expect(findEditableSpa(people.otherOwner, spaId)).toBeNull();
    expect(findEditableSpa(people.owner, `${spaId}x`)).toBeNull();
    expect(findEditableSpa(people.admin, '999999999')).toBeNull();
  });
});
