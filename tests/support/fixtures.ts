// The end-to-end tests' fixtures (Playwright's test.extend): what a spec needs
// arranged, made through the project's own modules on the run's database
// (./astro-env-hook.ts lets them load here), and removed when the test ends.
//
//   import { expect, test } from '../support/fixtures.ts';
//   test('...', async ({ page, signedIn, listing, booking }) => {
//     const owner = await signedIn('owner');
//     const spa = listing(owner);
//     const pending = booking({ spa, status: 'confirmed' });
//
// Every test is also a client of its own: its pages and requests carry an
// address of their own in X-Forwarded-For, which the test site believes
// (TRUST_PROXY=1, as behind nginx), so one test's bookings, sign-in links and
// views never count against another's rate limits, and no test resets them.
import { test as base, expect, type BrowserContext } from '@playwright/test';
import { and, eq, inArray } from 'drizzle-orm';
import { analyticsEvents, bookings, cities, clicks, leads, magicTokens, reviewHolds, reviews, sessions, spas, users } from '#db/schema.ts';
import { createSession } from '#lib/server/auth/sessions.ts';
import { hashToken, randomToken } from '#lib/server/auth/tokens.ts';
import type { SessionUser } from '#lib/server/auth/sessions.ts';
import type { BookingChange } from '#lib/booking-lifecycle.ts';
import { changeBooking, createBooking } from '#lib/server/bookings/bookings.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from './env.ts';
import { lendListing } from './spas.ts';

export { expect };

export type Role = SessionUser['role'];

export interface TestUser {
  id: number;
  email: string;
  /** The session cookie's value. */
  token: string;
  role: Role;
}

export interface TestSpa {
  id: number;
  name: string;
  slug: string;
  cityId: number;
}

/** What a test may set on its listing: the name, the plan, whether it is listed and approved, and what the listing says. */
export type ListingFields = Partial<
  Pick<
    typeof spas.$inferInsert,
    'name' | 'tier' | 'active' | 'reviewStatus' | 'description' | 'address' | 'phone' | 'email' | 'website' | 'socialFeedUrl' | 'socialPlatform'
  >
>;

export type BookingState = 'pending' | 'confirmed' | 'completed' | 'cancelled';

export interface TestBooking {
  id: number;
  email: string;
  manageToken: string;
}

interface Fixtures {
  /** This test's own client address (documentation ranges are not used: the server refuses nothing private here). */
  clientAddress: string;
  /** A new user with a live session, signed in on the test's `context` (or on `into`). */
  signedIn: (role?: Role, fields?: { firstName?: string; lastName?: string }, into?: BrowserContext) => Promise<TestUser>;
  /** A new user with a live session, not signed in anywhere. */
  person: (role?: Role, fields?: { firstName?: string; lastName?: string }) => TestUser;
  /**
   * A new listing of `owner`'s (when given) in a city of its own, so no other
   * test's spa, tier rule or Elite cap is in its way. It has no published page
   * (the run's build was made before it); `publishedListing` lends one that has.
   * It is FREE, active and approved unless `fields` say otherwise. It goes after
   * the test with what refers to it (bookings, reviews, services, photos...),
   * before the test's `person`s do, so it is never left active without its owner.
   */
  listing: (owner?: Pick<TestUser, 'id'> | null, fields?: ListingFields) => TestSpa;
  /** A published, active demo listing nobody owns, lent to `owner` for the test. */
  publishedListing: (owner: Pick<TestUser, 'id'>) => TestSpa;
  /** A booking request of the spa, moved to `status` through the booking lifecycle (as an editor would). */
  booking: (fields: { spa: Pick<TestSpa, 'id'>; status?: BookingState; scheduledAt?: Date; email?: string; name?: string }) => TestBooking;
}

let counter = 0;
/** Unique within a run: 10.<worker>.<n>.<n>. */
const addressFor = (workerIndex: number) => {
  counter++;
  return `10.${workerIndex % 256}.${(counter >> 8) % 256}.${counter % 256}`;
};

/** Unique within a run, for addresses, slugs and names. */
export const uniqueId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function makeUser(role: Role, fields: { firstName?: string; lastName?: string } = {}): TestUser {
  const email = `${role}-${uniqueId()}@example.com`;
  const user = db
    .insert(users)
    .values({ email, role, firstName: fields.firstName ?? null, lastName: fields.lastName ?? null })
    .returning({ id: users.id })
    .get();
  const { token } = createSession(user.id);
  return { id: user.id, email, token, role };
}

/** Puts the user's session (and the signed-in hint the islands read) into a browser context. */
export async function signIn(context: BrowserContext, user: Pick<TestUser, 'token'>): Promise<void> {
  await context.addCookies([
    { name: 'session', value: user.token, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'signed_in', value: '1', url: baseURL, sameSite: 'Lax' },
  ]);
}

// MAGIC_LINK_TTL_MS, not imported: magic-links.ts reads Vite's import.meta.env when loaded, which the runner has not.
const LINK_LIFETIME_MS = 15 * 60_000;

/** Where a spa's mail goes: its owner's address, else the listing's own (null: nowhere). */
export function spaMailbox(spaId: number): string | null {
  const row = db.select({ owner: users.email, listing: spas.email }).from(spas).leftJoin(users, eq(users.id, spas.ownerId)).where(eq(spas.id, spaId)).get();
  return row?.owner ?? row?.listing ?? null;
}

/**
 * A sign-in link's token, stored as requestMagicLink stores one but without
 * the e-mail or the rate limits, for tests of what happens after the message.
 */
export function issueMagicLink(email: string, expiresAt = new Date(Date.now() + LINK_LIFETIME_MS)): string {
  // 32 bytes: the 52 characters a link's token has (MAGIC_TOKEN_PATTERN).
  const token = randomToken(32);
  db.insert(magicTokens)
    .values({ tokenHash: hashToken(token), email, expiresAt })
    .run();
  return token;
}

/** Makes the session of a cookie's value (`<id>.<secret>`) one that ran out a second ago, as if its time had passed. */
export function expireSession(token: string): void {
  const id = token.split('.')[0]!;
  db.update(sessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(sessions.id, id))
    .run();
}

const admin = (): SessionUser => ({ id: 0, email: 'fixtures@example.com', firstName: null, lastName: null, profileImageUrl: null, role: 'admin' });

/** The lifecycle's steps from a new request to each state. */
const STEPS: Record<BookingState, BookingState[]> = {
  pending: [],
  confirmed: ['confirmed'],
  completed: ['confirmed', 'completed'],
  cancelled: ['cancelled'],
};

export const test = base.extend<Fixtures>({
  clientAddress: async ({}, use, testInfo) => use(addressFor(testInfo.workerIndex)),
  extraHTTPHeaders: async ({ extraHTTPHeaders, clientAddress }, use) => use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientAddress }),
  // The API client opens a connection for each request. Kept alive, a connection
  // left idle while a page was scanned was sent on at the moment the server let
  // go of it (APP_KEEP_ALIVE_SECONDS in src/lib/front-routes.ts): ECONNRESET, in
  // a fresh-clone run beside another. A browser sends such a request again;
  // Playwright's client does not.
  request: async ({ playwright, extraHTTPHeaders }, use) => {
    const request = await playwright.request.newContext({ extraHTTPHeaders: { ...extraHTTPHeaders, Connection: 'close' } });
    await use(request);
    await request.dispose();
  },

  person: async ({}, use) => {
    const made: number[] = [];
    await use((role = 'client', fields = {}) => {
      const user = makeUser(role, fields);
      made.push(user.id);
      return user;
    });
    // Sessions go with the user; what they asked for keeps its rows (user_id set null).
    if (made.length) db.delete(users).where(inArray(users.id, made)).run();
  },

  signedIn: async ({ context, person }, use) => {
    await use(async (role = 'client', fields = {}, into = context) => {
      const user = person(role, fields);
      await signIn(into, user);
      return user;
    });
  },

  // `person` only for its order: the listings go before the users who own them.
  listing: async ({ person: _person }, use) => {
    const made: { spa: number; city: number }[] = [];
    await use((owner = null, fields = {}) => {
      const id = uniqueId();
      const city = db
        .insert(cities)
        .values({ name: `Test City ${id}`, slug: `test-city-${id}` })
        .returning({ id: cities.id })
        .get();
      const spa = db
        .insert(spas)
        .values({ name: `Test Spa ${id}`, tier: 'FREE', active: true, ...fields, slug: `test-spa-${id}`, cityId: city.id, ownerId: owner?.id ?? null })
        .returning({ id: spas.id, name: spas.name, slug: spas.slug })
        .get();
      made.push({ spa: spa.id, city: city.id });
      return { ...spa, cityId: city.id };
    });
    for (const { spa, city } of made) removeSpa(spa, city);
  },

  publishedListing: async ({}, use) => {
    const lent: number[] = [];
    await use((owner) => {
      const spa = lendListing(owner.id);
      expect(spa, 'a published demo listing nobody owns').toBeDefined();
      lent.push(spa!.id);
      return spa!;
    });
    if (lent.length) db.update(spas).set({ ownerId: null }).where(inArray(spas.id, lent)).run();
  },

  booking: async ({}, use) => {
    const made: number[] = [];
    await use(
      ({ spa, status = 'pending', scheduledAt = new Date(Date.now() + 3 * 86_400_000), email = `client-${uniqueId()}@example.com`, name = 'Test Client' }) => {
        const created = createBooking({ spaId: spa.id, name, email });
        if (!created.ok) throw new Error(`the booking fixture was refused: ${created.message}`);
        made.push(created.value.id);
        // A visit is completed after it happened: each step is taken as of the appointment.
        for (const step of STEPS[status]) {
          const change: BookingChange = step === 'confirmed' ? { status: step, scheduledAt } : { status: step as 'completed' | 'cancelled' };
          const changed = changeBooking(
            created.value.id,
            change,
            { user: admin() },
            step === 'completed' ? scheduledAt : new Date(Math.min(Date.now(), scheduledAt.getTime())),
          );
          if (!changed.ok) throw new Error(`the booking fixture could not make it ${step}: ${changed.message}`);
        }
        return { id: created.value.id, email, manageToken: created.value.manageToken };
      },
    );
    if (made.length) removeBookings(made);
  },
});

function removeBookings(ids: number[]) {
  // Reviews, published or held, hold on to their booking (on delete restrict): they go first.
  db.delete(reviews).where(inArray(reviews.bookingId, ids)).run();
  db.delete(reviewHolds).where(inArray(reviewHolds.bookingId, ids)).run();
  db.delete(leads).where(inArray(leads.bookingId, ids)).run();
  db.delete(bookings).where(inArray(bookings.id, ids)).run();
}

function removeSpa(spaId: number, cityId: number) {
  const ofSpa = db.select({ id: bookings.id }).from(bookings).where(eq(bookings.spaId, spaId)).all();
  removeBookings(ofSpa.map((b) => b.id));
  db.delete(leads).where(eq(leads.spaId, spaId)).run();
  // Its clicks and views would outlive it (spa_id set null; entity_id is text).
  db.delete(clicks).where(eq(clicks.spaId, spaId)).run();
  db.delete(analyticsEvents)
    .where(and(eq(analyticsEvents.entityType, 'spa'), eq(analyticsEvents.entityId, String(spaId))))
    .run();
  // Services, photos, clinicians, offers... go with it (on delete cascade).
  db.delete(spas).where(eq(spas.id, spaId)).run();
  db.delete(cities).where(eq(cities.id, cityId)).run();
}
