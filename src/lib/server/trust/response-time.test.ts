// The stored events behind "Usually answers within N hours": the first answer
// is kept by the lifecycle write itself (bookings.first_answered_at), once, and
// only for the spa's answers. Against the real database module (the shared,
// seeded test database; this file makes its own spa).
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings, cities, spas } from '#db/schema.ts';
import { changeBooking, createBooking } from '../bookings/bookings.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { responseTimeFor } from './response-time.ts';
import type { SessionUser } from '../auth/sessions.ts';

const TAG = testTag('response-time');
const H = 3_600_000;
let owner: SessionUser;
let spaId: number;

beforeAll(() => {
  owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  spaId = db
    .insert(spas)
    .values({ name: `Spa ${TAG}`, slug: TAG, cityId: city.id, ownerId: owner.id })
    .returning()
    .get().id;
});

function request(n: number) {
  const created = createBooking({ name: `Client ${n}`, email: `${TAG}-${n}@example.com`, spaId } as Parameters<typeof createBooking>[0]);
  if (!created.ok) throw new Error('refused');
  const { id, manageToken } = created.value;
  const { createdAt } = db.select({ createdAt: bookings.createdAt }).from(bookings).where(eq(bookings.id, id)).get()!;
  return { id, token: manageToken, at: (hours: number) => new Date(createdAt.getTime() + hours * H) };
}

const firstAnswer = (id: number) => db.select({ at: bookings.firstAnsweredAt }).from(bookings).where(eq(bookings.id, id)).get()?.at ?? null;

describe('the first answer and the response time', () => {
  it('is set by the spa’s first answer only, never moved by later ones, never by the client', () => {
    const confirmed = request(1);
    expect(changeBooking(confirmed.id, { status: 'confirmed', scheduledAt: confirmed.at(100) }, { user: owner }, confirmed.at(2)).ok).toBe(true);
    expect(firstAnswer(confirmed.id)).toEqual(confirmed.at(2));
    expect(changeBooking(confirmed.id, { reschedule: confirmed.at(120) }, { user: owner }, confirmed.at(5)).ok).toBe(true);
    expect(firstAnswer(confirmed.id)).toEqual(confirmed.at(2));

    const declined = request(2);
    expect(changeBooking(declined.id, { status: 'cancelled' }, { user: owner }, declined.at(4)).ok).toBe(true);
    expect(firstAnswer(declined.id)).toEqual(declined.at(4));

    const withdrawn = request(3);
    expect(changeBooking(withdrawn.id, { status: 'cancelled' }, { manageToken: withdrawn.token }, withdrawn.at(1)).ok).toBe(true);
    expect(firstAnswer(withdrawn.id)).toBeNull();
  });

  it('responseTimeFor: the median of the spa’s waits once 5 requests count', () => {
    const third = request(4);
    // So far: 2 h, 4 h, and this one pending for 30 h (the one withdrawn after an hour is left out): too few to say.
    expect(responseTimeFor(spaId, third.at(30))).toMatchObject({ requests: 3, answered: 2, hours: null });
    changeBooking(third.id, { status: 'confirmed', scheduledAt: third.at(100) }, { user: owner }, third.at(7));
    const fourth = request(5);
    changeBooking(fourth.id, { status: 'confirmed', scheduledAt: fourth.at(100) }, { user: owner }, fourth.at(1));
    // 1, 2, 4, 7 and one pending for 30 hours: median 4 hours.
    request(6);
    expect(responseTimeFor(spaId, third.at(30))).toEqual({ requests: 5, answered: 4, medianMs: 4 * H, hours: 4 });
  });
});
