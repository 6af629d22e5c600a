import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bookings, cities, leads, services, spas } from '#db/schema.ts';
import type { BookingRequest } from '#lib/booking-schema.ts';
import {
  allowBookingRequest,
  BOOKING_LIMITS,
  bookingDetails,
  changeBooking,
  changeLeadStatus,
  createBooking,
  findBookingIdByManageToken,
  manageLinkExpiresAt,
  listUserBookings,
  MANAGE_TOKEN_PATTERN,
} from './bookings.ts';
import { db } from '../db.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';

// A hook run just before the lifecycle is asked, so a test can change the row
// underneath a change in progress, as a second person acting at once would.
const hooks = vi.hoisted(() => ({ beforeDecide: null as null | (() => void) }));
vi.mock('#lib/booking-lifecycle.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#lib/booking-lifecycle.ts')>();
  return {
    ...actual,
    decideBookingChange: (...args: Parameters<typeof actual.decideBookingChange>) => {
      hooks.beforeDecide?.();
      return actual.decideBookingChange(...args);
    },
    canMoveLead: (...args: Parameters<typeof actual.canMoveLead>) => {
      hooks.beforeDecide?.();
      return actual.canMoveLead(...args);
    },
  };
});

afterEach(() => {
  hooks.beforeDecide = null;
});

// Everything this file creates carries the tag, so it can be removed again and
// never collides with the seed or with other test files sharing the database.
const TAG = testTag('bookings-test');
const email = (who: string) => `${TAG}-${who}@example.com`;
const DAY = 86_400_000;

const people = {} as Record<'owner' | 'otherOwner' | 'admin' | 'client' | 'stranger', SessionUser>;
const fixture = {
  cityA: { id: 0, name: '' },
  cityB: { id: 0, name: '' },
  spaA: 0,
  spaB: 0,
  spaInactive: 0,
  spaNoOwner: 0,
  service: 0,
  serviceInactive: 0,
  serviceOfB: 0,
  serviceOfInactiveSpa: 0,
};

const makeUser = (who: string, role: SessionUser['role']) => insertUser(email(who), role);

function makeSpa(key: string, values: { cityId: number; ownerId?: number | null; active?: boolean; email?: string | null }): number {
  return db
    .insert(spas)
    .values({
      name: `Test Spa ${key}`,
      slug: `${TAG}-${key}`,
      cityId: values.cityId,
      ownerId: values.ownerId ?? null,
      active: values.active ?? true,
      email: values.email ?? null,
      address: '1 Test Way',
    })
    .returning({ id: spas.id })
    .get().id;
}

function makeService(spaId: number, name: string, active = true): number {
  return db
    .insert(services)
    .values({ spaId, name, priceCents: 15_000, priceUnit: 'per session', duration: 60, category: 'facial', active })
    .returning({ id: services.id })
    .get().id;
}

beforeAll(() => {
  const [a, b] = db.select({ id: cities.id, name: cities.name }).from(cities).orderBy(cities.id).limit(2).all();
  if (!a || !b) throw new Error('the seed should have at least two cities');
  fixture.cityA = a;
  fixture.cityB = b;

  people.owner = makeUser('owner', 'owner');
  people.otherOwner = makeUser('other-owner', 'owner');
  people.admin = makeUser('admin', 'admin');
  people.client = makeUser('client', 'client');
  people.stranger = makeUser('stranger', 'client');

  fixture.spaA = makeSpa('a', { cityId: a.id, ownerId: people.owner.id, email: email('spa-a-inbox') });
  fixture.spaB = makeSpa('b', { cityId: b.id, ownerId: people.otherOwner.id });
  fixture.spaInactive = makeSpa('inactive', { cityId: a.id, ownerId: people.owner.id, active: false });
  fixture.spaNoOwner = makeSpa('no-owner', { cityId: b.id });
  fixture.service = makeService(fixture.spaA, 'Test HydraFacial');
  fixture.serviceInactive = makeService(fixture.spaA, 'Retired Peel', false);
  fixture.serviceOfB = makeService(fixture.spaB, 'Test Botox');
  fixture.serviceOfInactiveSpa = makeService(fixture.spaInactive, 'Hidden Laser');
});

const request = (overrides: Partial<BookingRequest> = {}): BookingRequest => ({ name: 'Ana Lopez', email: email('client'), ...overrides });

function book(overrides: Partial<BookingRequest> = {}, userId: number | null = null) {
  const created = createBooking(request(overrides), { userId });
  if (!created.ok) throw new Error(`booking refused: ${JSON.stringify(created.fields)}`);
  return created.value;
}

const bookingRow = (id: number) => db.select().from(bookings).where(eq(bookings.id, id)).get()!;
const leadsOf = (bookingId: number) => db.select().from(leads).where(eq(leads.bookingId, bookingId)).all();
const countByEmail = (address: string) => ({
  bookings: db.select({ id: bookings.id }).from(bookings).where(eq(bookings.email, address)).all().length,
  leads: db.select({ id: leads.id }).from(leads).where(eq(leads.email, address)).all().length,
});

describe('createBooking', () => {
  it('stores the booking and its lead, taking the spa and city from the service', () => {
    const created = book({
      serviceId: fixture.service,
      phone: '(949) 555-0100',
      preferredDate: '2030-05-01',
      message: 'First visit',
      source: 'google',
      medium: 'cpc',
      campaign: 'spring',
    });
    expect(created.manageToken).toMatch(MANAGE_TOKEN_PATTERN);

    const row = bookingRow(created.id);
    expect(row).toMatchObject({
      userId: null,
      serviceId: fixture.service,
      spaId: fixture.spaA,
      name: 'Ana Lopez',
      email: email('client'),
      phone: '(949) 555-0100',
      preferredDate: '2030-05-01',
      message: 'First visit',
      status: 'pending',
      scheduledAt: null,
      manageToken: created.manageToken,
      calendarSequence: 0,
    });

    const lead = leadsOf(created.id);
    expect(lead).toHaveLength(1);
    expect(lead[0]).toMatchObject({
      bookingId: created.id,
      spaId: fixture.spaA,
      cityId: fixture.cityA.id,
      serviceId: fixture.service,
      name: 'Ana Lopez',
      email: email('client'),
      phone: '(949) 555-0100',
      source: 'google',
      medium: 'cpc',
      campaign: 'spring',
      message: 'First visit',
      status: 'new',
    });
  });

  it('resolves the spa (and its city) from spaId when no service is chosen', () => {
    const created = book({ spaId: fixture.spaB });
    expect(bookingRow(created.id)).toMatchObject({ spaId: fixture.spaB, serviceId: null });
    expect(leadsOf(created.id)).toEqual([
      expect.objectContaining({ spaId: fixture.spaB, cityId: fixture.cityB.id, serviceId: null, source: null, medium: null, campaign: null }),
    ]);
  });

  it('accepts a service together with its own spa, and records the signed-in user', () => {
    const created = book({ serviceId: fixture.service, spaId: fixture.spaA }, people.client.id);
    expect(bookingRow(created.id)).toMatchObject({ spaId: fixture.spaA, serviceId: fixture.service, userId: people.client.id });
  });

  it('stores a general consultation request without a spa', () => {
    const created = book();
    expect(bookingRow(created.id)).toMatchObject({ spaId: null, serviceId: null });
    expect(leadsOf(created.id)).toEqual([expect.objectContaining({ spaId: null, cityId: null, serviceId: null })]);
  });

  it('gives every booking its own manage token, which finds it again', () => {
    const one = book();
    const two = book();
    expect(one.manageToken).not.toBe(two.manageToken);
    expect(findBookingIdByManageToken(one.manageToken)).toBe(one.id);
    expect(findBookingIdByManageToken(two.manageToken)).toBe(two.id);
    expect(findBookingIdByManageToken('a'.repeat(32))).toBeNull();
    expect(findBookingIdByManageToken(one.manageToken.toUpperCase())).toBeNull();
    expect(findBookingIdByManageToken(`${one.manageToken}x`)).toBeNull();
    expect(findBookingIdByManageToken('')).toBeNull();
  });

  it('lets a manage link open its booking until 30 days after the appointment, then never', () => {
    const one = book();
    const day = 86_400_000;
    const at = new Date('2030-03-10T17:00:00Z');
    db.update(bookings).set({ scheduledAt: at }).where(eq(bookings.id, one.id)).run();
    expect(findBookingIdByManageToken(one.manageToken, new Date(at.getTime() + 30 * day - 1))).toBe(one.id);
    expect(findBookingIdByManageToken(one.manageToken, new Date(at.getTime() + 30 * day))).toBeNull();
  });

  it('counts from the preferred day, or the request itself, when no time was set', () => {
    const created = new Date('2030-01-01T12:00:00Z');
    expect(manageLinkExpiresAt({ scheduledAt: null, preferredDate: '2030-02-01', createdAt: created }).toISOString()).toBe('2030-03-04T12:00:00.000Z');
    expect(manageLinkExpiresAt({ scheduledAt: null, preferredDate: null, createdAt: created }).toISOString()).toBe('2030-01-31T12:00:00.000Z');
  });

  it.each([
    ['an unknown service', () => ({ serviceId: 987_654_321 }), 'serviceId', /not offered/],
    ['an inactive service', () => ({ serviceId: fixture.serviceInactive }), 'serviceId', /not offered/],
    ['a service of an unlisted spa', () => ({ serviceId: fixture.serviceOfInactiveSpa }), 'serviceId', /not offered/],
    ['a service of another spa than spaId', () => ({ serviceId: fixture.serviceOfB, spaId: fixture.spaA }), 'serviceId', /another provider/],
    ['an unknown spa', () => ({ spaId: 987_654_321 }), 'spaId', /not listed/],
    ['an inactive spa', () => ({ spaId: fixture.spaInactive }), 'spaId', /not listed/],
  ] as const)('refuses %s with a 422 on the field, and stores nothing', (label, target, field, message) => {
    const address = email(`refused-${field}-${label.replace(/\W+/g, '-')}`);
    const result = createBooking(request({ ...target(), email: address }));
    expect(result).toEqual({ ok: false, reason: 'invalid', message: 'Some fields are not valid.', fields: { [field]: expect.stringMatching(message) } });
    expect(countByEmail(address)).toEqual({ bookings: 0, leads: 0 });
  });
});

describe('allowBookingRequest: limits per address, client and spa', () => {
  // A fresh window for each test: hours far from now and from each other.
  let hour = 1_900_000_000_000 + Math.floor(Math.random() * 1e6) * 3_600_000;
  const nextHour = () => (hour += 10 * 3_600_000);
  const octet = () => Math.floor(Math.random() * 256);
  const client = () => `10.${octet()}.${octet()}.${octet()}`;

  it('counts victim+1@, victim+2@ ... as one address', () => {
    const now = nextHour();
    const results = Array.from({ length: BOOKING_LIMITS.perEmail + 1 }, (_, n) =>
      allowBookingRequest({ email: email(`victim+${n}`), spaId: fixture.spaA }, null, now + n),
    );
    expect(results.slice(0, BOOKING_LIMITS.perEmail).every((result) => result.allowed)).toBe(true);
    expect(results.at(-1)!.allowed).toBe(false);
  });

  it('refuses the 11th request an hour from one client, whatever the addresses', () => {
    const now = nextHour();
    const from = `2001:db8:${Math.floor(Math.random() * 65535).toString(16)}::1`;
    for (let n = 0; n < BOOKING_LIMITS.perClient; n++) {
      expect(allowBookingRequest({ email: email(`client-${n}`), spaId: fixture.spaB }, from, now + n).allowed).toBe(true);
    }
    // Another address in the same /64 is the same client.
    const refused = allowBookingRequest({ email: email('client-last'), spaId: fixture.spaB }, from.replace(/::1$/, '::2'), now + 100);
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.retryAfterSeconds).toBeGreaterThan(3500);
  });

  it('refuses the 31st request an hour for one spa, from many clients; the spa of a service counts as that spa', () => {
    const now = nextHour();
    for (let n = 0; n < BOOKING_LIMITS.perSpa; n++) {
      const request = n % 2 ? { email: email(`spa-${n}`), spaId: fixture.spaA } : { email: email(`spa-${n}`), serviceId: fixture.service };
      expect(allowBookingRequest(request, client(), now + n).allowed).toBe(true);
    }
    expect(allowBookingRequest({ email: email('spa-last'), spaId: fixture.spaA }, client(), now + 100).allowed).toBe(false);
    // Other spas are not affected.
    expect(allowBookingRequest({ email: email('spa-other'), spaId: fixture.spaNoOwner }, client(), now + 101).allowed).toBe(true);
  });

  it("a client over its limit does not use up the spa's budget", () => {
    const now = nextHour();
    const from = client();
    for (let n = 0; n < BOOKING_LIMITS.perSpa + 5; n++) allowBookingRequest({ email: email(`flood-${n}`), spaId: fixture.spaInactive }, from, now + n);
    // The flood spent at most perClient of the spa's budget.
    let allowed = 0;
    for (let n = 0; n < BOOKING_LIMITS.perSpa; n++) {
      if (allowBookingRequest({ email: email(`later-${n}`), spaId: fixture.spaInactive }, client(), now + 100 + n).allowed) allowed++;
    }
    expect(allowed).toBe(BOOKING_LIMITS.perSpa - BOOKING_LIMITS.perClient);
  });
});

describe('bookingDetails', () => {
  it('joins the service, the spa, its city and the spa’s inbox', () => {
    const created = book({ serviceId: fixture.service });
    const details = bookingDetails(created.id)!;
    expect(details.booking.id).toBe(created.id);
    expect(details.service).toMatchObject({ id: fixture.service, name: 'Test HydraFacial', duration: 60, priceCents: 15_000, priceUnit: 'per session' });
    expect(details.spa).toMatchObject({ id: fixture.spaA, ownerId: people.owner.id, email: email('spa-a-inbox') });
    expect(details.cityName).toBe(fixture.cityA.name);
    expect(details.inbox).toBe(people.owner.email);
    // A spa without an owner or an address of its own has no inbox: booking-mail.ts falls back to the directory's.
    expect(bookingDetails(book({ spaId: fixture.spaNoOwner }).id)!.inbox).toBeNull();
    expect(bookingDetails(987_654_321)).toBeNull();
  });
});

describe('listUserBookings', () => {
  it('lists the user’s bookings and those sent from their address before signing in, newest first, with the service', () => {
    const user = makeUser('lister', 'client');
    const signedIn = book({ email: user.email, serviceId: fixture.service }, user.id);
    const before = book({ email: user.email, spaId: fixture.spaB });
    // Not theirs: another account's booking from the same address, and another address.
    book({ email: user.email }, people.stranger.id);
    book({ email: email('someone-else') });

    const list = listUserBookings(user);
    expect(list.map((booking) => booking.id)).toEqual([before.id, signedIn.id]);
    expect(list[1]).toMatchObject({
      id: signedIn.id,
      status: 'pending',
      spa: { id: fixture.spaA, name: 'Test Spa a', slug: `${TAG}-a` },
      service: { id: fixture.service, name: 'Test HydraFacial', duration: 60, priceCents: 15_000, priceUnit: 'per session' },
    });
    expect(list[0]?.service).toBeNull();
    expect(list[0]?.spa).toMatchObject({ id: fixture.spaB });
  });

  it('matches the address whatever its case, and honours the limit', () => {
    const user = makeUser('case', 'client');
    const first = book({ email: user.email });
    const second = book({ email: user.email });
    expect(listUserBookings({ id: user.id, email: user.email.toUpperCase() }).map((booking) => booking.id)).toEqual([second.id, first.id]);
    expect(listUserBookings(user, 1).map((booking) => booking.id)).toEqual([second.id]);
  });

  it('is empty for a user without bookings', () => {
    expect(listUserBookings(makeUser('nobody', 'client'))).toEqual([]);
  });
});

describe('changeBooking: who may act', () => {
  const soon = () => new Date(Date.now() + 2 * DAY);

  it('lets the spa’s owner confirm, and raises the calendar sequence', () => {
    const { id } = book({ serviceId: fixture.service });
    const at = soon();
    const now = new Date();
    const result = changeBooking(id, { status: 'confirmed', scheduledAt: at }, { user: people.owner }, now);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.before.booking).toMatchObject({ status: 'pending', scheduledAt: null, calendarSequence: 0 });
    expect(result.value.after.booking).toMatchObject({ status: 'confirmed', scheduledAt: at, calendarSequence: 1, updatedAt: now });
    expect(bookingRow(id)).toMatchObject({ status: 'confirmed', scheduledAt: at, calendarSequence: 1 });
  });

  it('lets an admin act on any spa’s booking and on general requests', () => {
    const forB = book({ spaId: fixture.spaB });
    expect(changeBooking(forB.id, { status: 'confirmed', scheduledAt: soon() }, { user: people.admin }).ok).toBe(true);
    const general = book();
    expect(changeBooking(general.id, { status: 'cancelled' }, { user: people.admin }).ok).toBe(true);
    expect(bookingRow(general.id).status).toBe('cancelled');
  });

  it('lets the client cancel by account, by address before signing in, or by manage link', () => {
    const byAccount = book({ serviceId: fixture.service }, people.client.id);
    expect(changeBooking(byAccount.id, { status: 'cancelled' }, { user: people.client })).toMatchObject({
      ok: true,
      value: { after: { booking: { status: 'cancelled' } } },
    });

    const byAddress = book({ serviceId: fixture.service });
    expect(changeBooking(byAddress.id, { status: 'cancelled' }, { user: people.client }).ok).toBe(true);

    const byLink = book({ serviceId: fixture.service, email: email('anonymous') });
    expect(changeBooking(byLink.id, { status: 'cancelled' }, { manageToken: byLink.manageToken }).ok).toBe(true);
    expect(bookingRow(byLink.id).status).toBe('cancelled');
  });

  it('answers 404 to strangers, other spas’ owners, wrong links and no one, and changes nothing', () => {
    const { id, manageToken } = book({ serviceId: fixture.service });
    const other = book({ email: email('other-client') });
    const notFound = { ok: false, reason: 'not_found', message: 'Booking not found.' };
    const change = { status: 'cancelled' } as const;
    expect(changeBooking(id, change, { user: people.stranger })).toMatchObject(notFound);
    expect(changeBooking(id, change, { user: people.otherOwner })).toMatchObject(notFound);
    expect(changeBooking(id, change, {})).toMatchObject(notFound);
    expect(changeBooking(id, change, { user: null, manageToken: other.manageToken })).toMatchObject(notFound);
    expect(changeBooking(id, change, { manageToken: `${manageToken.slice(0, -1)}${manageToken.endsWith('a') ? 'b' : 'a'}` })).toMatchObject(notFound);
    expect(changeBooking(id, change, { manageToken: '' })).toMatchObject(notFound);
    expect(changeBooking(987_654_321, change, { user: people.admin })).toMatchObject(notFound);
    // The owner of spa A has no part in a general request.
    expect(changeBooking(other.id, change, { user: people.owner })).toMatchObject(notFound);
    expect(bookingRow(id)).toMatchObject({ status: 'pending', calendarSequence: 0 });
    expect(bookingRow(other.id).status).toBe('pending');
  });

  it('does not treat the same address as the client when the booking belongs to another account', () => {
    const { id } = book({ email: people.client.email }, people.stranger.id);
    expect(changeBooking(id, { status: 'cancelled' }, { user: people.client })).toMatchObject({ ok: false, reason: 'not_found' });
    expect(changeBooking(id, { status: 'cancelled' }, { user: people.stranger }).ok).toBe(true);
  });

  it('passes the lifecycle’s refusals on and writes nothing', () => {
    const { id, manageToken } = book({ serviceId: fixture.service });
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: soon() }, { manageToken })).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(changeBooking(id, { status: 'completed' }, { user: people.owner })).toMatchObject({ ok: false, reason: 'conflict', code: 'invalid_transition' });
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: new Date(Date.now() - DAY) }, { user: people.owner })).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { scheduledAt: expect.any(String) },
    });
    expect(bookingRow(id)).toMatchObject({ status: 'pending', scheduledAt: null, calendarSequence: 0 });
  });

  it('refuses the client on the preferred day itself', () => {
    const { id, manageToken } = book({ serviceId: fixture.service, preferredDate: '2030-05-01' });
    // 09:00 in California on May 1, 2030.
    const onTheDay = new Date('2030-05-01T16:00:00Z');
    expect(changeBooking(id, { status: 'cancelled' }, { manageToken }, onTheDay)).toMatchObject({ ok: false, reason: 'conflict', code: 'too_late' });
    expect(changeBooking(id, { status: 'cancelled' }, { user: people.owner }, onTheDay).ok).toBe(true);
  });
});

describe('changeBooking: the calendar sequence', () => {
  it('rises on confirmation, each new time and the cancellation of a confirmed booking', () => {
    const { id, manageToken } = book({ serviceId: fixture.service }, people.client.id);
    const first = new Date(Date.now() + 3 * DAY);
    const second = new Date(Date.now() + 4 * DAY);
    const sequence = () => bookingRow(id).calendarSequence;

    expect(changeBooking(id, { status: 'confirmed', scheduledAt: first }, { user: people.owner }).ok).toBe(true);
    expect(sequence()).toBe(1);
    expect(changeBooking(id, { reschedule: second }, { user: people.admin }).ok).toBe(true);
    expect(sequence()).toBe(2);
    expect(bookingRow(id).scheduledAt).toEqual(second);
    expect(changeBooking(id, { reschedule: first }, { user: people.owner }).ok).toBe(true);
    expect(sequence()).toBe(3);
    expect(changeBooking(id, { status: 'cancelled' }, { manageToken }).ok).toBe(true);
    expect(bookingRow(id)).toMatchObject({ status: 'cancelled', calendarSequence: 4, scheduledAt: first });
  });

  it('stays put when a pending booking is cancelled or a confirmed one completed', () => {
    const pending = book({ serviceId: fixture.service });
    expect(changeBooking(pending.id, { status: 'cancelled' }, { user: people.owner }).ok).toBe(true);
    expect(bookingRow(pending.id).calendarSequence).toBe(0);

    const done = book({ serviceId: fixture.service });
    const at = new Date(Date.now() + DAY);
    expect(changeBooking(done.id, { status: 'confirmed', scheduledAt: at }, { user: people.owner }).ok).toBe(true);
    const afterwards = new Date(at.getTime() + 2 * 3_600_000);
    expect(changeBooking(done.id, { status: 'completed' }, { user: people.owner }, afterwards)).toMatchObject({
      ok: true,
      value: { after: { booking: { status: 'completed', scheduledAt: at } } },
    });
    expect(bookingRow(done.id)).toMatchObject({ status: 'completed', calendarSequence: 1, updatedAt: afterwards });
  });
});

describe('changeBooking: a form loaded before someone else changed the booking', () => {
  it('is refused with 409 when the sequence it saw is not the current one, and accepted with the current one', () => {
    const { id } = book({ serviceId: fixture.service });
    const first = new Date(Date.now() + 3 * DAY);
    const second = new Date(Date.now() + 5 * DAY);
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: first }, { user: people.owner }, new Date(), 0).ok).toBe(true);
    // The admin moves it; the owner's page still shows sequence 1.
    expect(changeBooking(id, { reschedule: second }, { user: people.admin }).ok).toBe(true);
    expect(changeBooking(id, { reschedule: first }, { user: people.owner }, new Date(), 1)).toMatchObject({
      ok: false,
      reason: 'conflict',
      message: expect.stringContaining('changed while you were looking'),
    });
    expect(bookingRow(id).scheduledAt).toEqual(second);
    expect(changeBooking(id, { reschedule: first }, { user: people.owner }, new Date(), 2).ok).toBe(true);
    expect(bookingRow(id).scheduledAt).toEqual(first);
  });
});

describe('changeBooking: two people at once', () => {
  it('refuses with 409 when the status changed after it was read, and keeps the other change', () => {
    const { id, manageToken } = book({ serviceId: fixture.service });
    // The client cancels while the owner's confirmation is on its way.
    hooks.beforeDecide = () => {
      hooks.beforeDecide = null;
      db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, id)).run();
    };
    const result = changeBooking(id, { status: 'confirmed', scheduledAt: new Date(Date.now() + DAY) }, { user: people.owner });
    expect(result).toMatchObject({ ok: false, reason: 'conflict', message: expect.stringContaining('changed while you were looking') });
    expect(bookingRow(id)).toMatchObject({ status: 'cancelled', scheduledAt: null, calendarSequence: 0 });
    // Without interference the same client change now meets the cancelled booking.
    expect(changeBooking(id, { status: 'cancelled' }, { manageToken })).toMatchObject({ ok: false, reason: 'conflict', code: 'invalid_transition' });
  });

  it('lets only one of two confirmations through', () => {
    const { id } = book({ serviceId: fixture.service });
    const ownersTime = new Date(Date.now() + DAY);
    const adminsTime = new Date(Date.now() + 2 * DAY);
    // The admin confirms between the owner's read and write.
    hooks.beforeDecide = () => {
      hooks.beforeDecide = null;
      expect(changeBooking(id, { status: 'confirmed', scheduledAt: adminsTime }, { user: people.admin }).ok).toBe(true);
    };
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: ownersTime }, { user: people.owner })).toMatchObject({
      ok: false,
      reason: 'conflict',
      message: expect.stringContaining('changed while you were looking'),
    });
    expect(bookingRow(id)).toMatchObject({ status: 'confirmed', scheduledAt: adminsTime, calendarSequence: 1 });
  });
});

describe('changeBooking: a change meeting a new time', () => {
  // A cancellation (or completion) that crosses a reschedule must neither put
  // the old time back nor go through unseen: it is refused, and can be retried.
  it('never writes back a time that was replaced meanwhile', () => {
    const { id, manageToken } = book({ serviceId: fixture.service });
    const first = new Date(Date.now() + 3 * DAY);
    const second = new Date(Date.now() + 5 * DAY);
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: first }, { user: people.owner }).ok).toBe(true);
    // The owner moves the appointment while the client's cancellation is on its way.
    hooks.beforeDecide = () => {
      hooks.beforeDecide = null;
      expect(changeBooking(id, { reschedule: second }, { user: people.owner }).ok).toBe(true);
    };
    expect(changeBooking(id, { status: 'cancelled' }, { manageToken })).toMatchObject({
      ok: false,
      reason: 'conflict',
      message: expect.stringContaining('changed while you were looking'),
    });
    expect(bookingRow(id)).toMatchObject({ status: 'confirmed', scheduledAt: second });
    // Retried against the new time, it goes through and keeps that time.
    expect(changeBooking(id, { status: 'cancelled' }, { manageToken }).ok).toBe(true);
    expect(bookingRow(id)).toMatchObject({ status: 'cancelled', scheduledAt: second });
  });
});

describe('changeLeadStatus', () => {
  const leadFor = (overrides: Partial<BookingRequest> = {}) => leadsOf(book(overrides).id)[0]!.id;
  const leadStatus = (id: number) => db.select({ status: leads.status }).from(leads).where(eq(leads.id, id)).get()?.status;

  it('lets the spa’s owner move a lead along: new -> contacted -> converted', () => {
    const id = leadFor({ serviceId: fixture.service });
    const now = new Date();
    expect(changeLeadStatus(id, 'contacted', people.owner, now)).toEqual({ ok: true, value: { id, status: 'contacted' } });
    expect(db.select().from(leads).where(eq(leads.id, id)).get()).toMatchObject({ status: 'contacted', updatedAt: now });
    expect(changeLeadStatus(id, 'converted', people.owner)).toEqual({ ok: true, value: { id, status: 'converted' } });
    expect(leadStatus(id)).toBe('converted');
  });

  it('refuses moves the lifecycle does not allow (409)', () => {
    const id = leadFor({ spaId: fixture.spaA });
    expect(changeLeadStatus(id, 'converted', people.owner)).toMatchObject({ ok: false, reason: 'conflict', code: 'invalid_transition' });
    expect(changeLeadStatus(id, 'new', people.owner)).toMatchObject({ ok: false, reason: 'conflict' });
    expect(changeLeadStatus(id, 'contacted', people.owner).ok).toBe(true);
    expect(changeLeadStatus(id, 'lost', people.owner).ok).toBe(true);
    expect(changeLeadStatus(id, 'contacted', people.owner)).toMatchObject({ ok: false, reason: 'conflict' });
    expect(leadStatus(id)).toBe('lost');
  });

  it('lets the owner give up a new lead straight away: new -> lost', () => {
    const id = leadFor({ serviceId: fixture.service });
    expect(changeLeadStatus(id, 'lost', people.owner)).toEqual({ ok: true, value: { id, status: 'lost' } });
    expect(leadStatus(id)).toBe('lost');
    expect(changeLeadStatus(id, 'contacted', people.owner)).toMatchObject({ ok: false, reason: 'conflict' });
  });

  it('answers 404 to strangers and other owners, and to a lead without a spa for anyone but an admin', () => {
    const id = leadFor({ serviceId: fixture.service });
    for (const user of [people.stranger, people.otherOwner, people.client]) {
      expect(changeLeadStatus(id, 'contacted', user)).toMatchObject({ ok: false, reason: 'not_found' });
    }
    expect(leadStatus(id)).toBe('new');
    expect(changeLeadStatus(987_654_321, 'contacted', people.admin)).toMatchObject({ ok: false, reason: 'not_found' });

    const general = leadFor();
    expect(changeLeadStatus(general, 'contacted', people.owner)).toMatchObject({ ok: false, reason: 'not_found' });
    const unowned = leadFor({ spaId: fixture.spaNoOwner });
    expect(changeLeadStatus(unowned, 'contacted', people.owner)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(changeLeadStatus(general, 'contacted', people.admin)).toEqual({ ok: true, value: { id: general, status: 'contacted' } });
    expect(changeLeadStatus(unowned, 'contacted', people.admin).ok).toBe(true);
  });

  it('lets an admin act on any spa’s lead', () => {
    const id = leadFor({ spaId: fixture.spaB });
    expect(changeLeadStatus(id, 'contacted', people.admin).ok).toBe(true);
    expect(changeLeadStatus(id, 'lost', people.admin).ok).toBe(true);
    expect(leadStatus(id)).toBe('lost');
  });

  it('refuses with 409 when the lead changed after it was read', () => {
    const id = leadFor({ serviceId: fixture.service });
    hooks.beforeDecide = () => {
      hooks.beforeDecide = null;
      db.update(leads).set({ status: 'contacted' }).where(eq(leads.id, id)).run();
    };
    expect(changeLeadStatus(id, 'contacted', people.owner)).toMatchObject({
      ok: false,
      reason: 'conflict',
      message: expect.stringContaining('changed meanwhile'),
    });
    expect(leadStatus(id)).toBe('contacted');
  });
});
