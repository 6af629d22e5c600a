// The authorization matrix: every owner and editor route and form, asked by
// each kind of visitor (signed out, a client, another owner, the owner, an
// editor). Only those a row allows succeed; everyone else gets 401, 403 or
// 404 (or 503 where Stripe must answer first and has no keys here), and the
// rows the request aimed at are exactly as they were.
//
// To add a route: add one entry to ROUTES. `fixture` holds fresh rows for
// every single request (a spa of the owner with a booking and a lead, and a
// listing awaiting review), and a route's path and body name them as
// `{bookingId}` and the like; `state` reads what the request could change, and
// `changed` says what success looks like.
import type { APIRequestContext } from '@playwright/test';
import { asc, eq, inArray, like } from 'drizzle-orm';
import { auditLog, bookingPayments, bookings, cities, clinicians, leads, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { createSignedInUser, type TestUser } from '../support/sessions.ts';

type Role = 'signed out' | 'client' | 'other owner' | 'owner' | 'admin';
const ROLES: Role[] = ['signed out', 'client', 'other owner', 'owner', 'admin'];

interface Fixture {
  spaId: number;
  spaName: string;
  clinicianId: number;
  bookingId: number;
  bookingName: string;
  leadId: number;
  pendingSpaId: number;
  when: string;
  /** Confirmed, its time passed (no-show protection): may be marked a no-show. */
  pastBookingId: number;
  /** Marked a no-show, its card saved under a policy: its $150.00 no-show fee may be charged. */
  feeBookingId: number;
  /** A charged fee of feeBookingId, and a refund on the past booking, with Stripe ids: the payments pages show them. */
  feeRowId: number;
  stripeId: string;
}

interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** An HTML form post (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** A JSON body. */
  json?: Record<string, unknown>;
  /** Who may do it. */
  allowed: Role[];
  /** The status of a success. */
  okStatus: number[];
  /** What the request could change, read from the database. */
  state?: (f: Fixture) => unknown;
  /** Success changed it so (called with the state after). */
  changed?: (after: unknown, f: Fixture) => void;
  /** For pages: text only the allowed see. */
  shows?: (f: Fixture) => string;
  /**
   * Stripe answers before ownership is known: without keys (this suite) every
   * signed-in visitor gets 503 and nobody succeeds; the payments suite has keys.
   */
  needsStripe?: boolean;
  /** Everyone signed in gets a page of their own here (200), which must not show this spa's data. */
  ownView?: boolean;
  /**
   * Ownership is checked before Stripe: without keys (this suite) those
   * allowed get 503 and change nothing, everyone else 401/403/404 as usual.
   */
  stripeAfterOwnership?: boolean;
}

const OWNER_AND_ADMIN: Role[] = ['owner', 'admin'];
const ADMIN: Role[] = ['admin'];

const booking = (f: Fixture) =>
  db.select({ status: bookings.status, scheduledAt: bookings.scheduledAt }).from(bookings).where(eq(bookings.id, f.bookingId)).get();
const lead = (f: Fixture) => db.select({ status: leads.status }).from(leads).where(eq(leads.id, f.leadId)).get();
const listing = (id: number) =>
  db
    .select({ active: spas.active, verified: spas.verified, featured: spas.featured, reviewStatus: spas.reviewStatus, reviewNote: spas.reviewNote })
    .from(spas)
    .where(eq(spas.id, id))
    .get();
const auditRows = (id: number) =>
  db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.target, `spa:${id}`))
    .all();
const listingAndAudit = (id: number) => ({ listing: listing(id), audit: auditRows(id) });

const policy = (f: Fixture) => db.select({ hours: spas.cancellationWindowHours }).from(spas).where(eq(spas.id, f.spaId)).get();
const protection = (f: Fixture) => db.select({ noShowPolicy: spas.noShowPolicy }).from(spas).where(eq(spas.id, f.spaId)).get();
/** A booking's no-show mark, fee decision and money rows: what the booking page's forms could change. */
const bookingMoney = (id: number) => ({
  booking: db
    .select({ noShowAt: bookings.noShowAt, feeDecision: bookings.feeDecision, calendarSequence: bookings.calendarSequence })
    .from(bookings)
    .where(eq(bookings.id, id))
    .get(),
  money: db
    .select({ kind: bookingPayments.kind, status: bookingPayments.status, amountCents: bookingPayments.amountCents })
    .from(bookingPayments)
    .where(eq(bookingPayments.bookingId, id))
    .orderBy(asc(bookingPayments.id))
    .all(),
});
const cliniciansOf = (f: Fixture) =>
  db
    .select({ name: clinicians.name, checked: clinicians.licenseCheckedAt })
    .from(clinicians)
    .where(eq(clinicians.spaId, f.spaId))
    .orderBy(asc(clinicians.id))
    .all();

/** Routes of one kind: a success answers `okStatus` to those `allowed`; `more` says what the request sends, shows and changes. */
const routesOf =
  (method: Route['method'], okStatus: number) =>
  (name: string, path: string, allowed: Role[], more: Partial<Route> = {}): Route => ({ name, method, path, allowed, okStatus: [okStatus], ...more });
const read = routesOf('GET', 200);
const formPost = routesOf('POST', 303);
const postJson = routesOf('POST', 200);
const patchJson = routesOf('PATCH', 200);

const confirmsBooking: Partial<Route> = { state: booking, changed: (after) => expect(after).toMatchObject({ status: 'confirmed' }) };
const movesLead: Partial<Route> = { state: lead, changed: (after) => expect(after).toMatchObject({ status: 'contacted' }) };
const CONFIRM_BOOKING = { intent: 'booking', id: '{bookingId}', status: 'confirmed', scheduledAt: '{when}' };
/** The admin forms that change the owner's approved spa (inactive, so activating it is possible; deactivating is a no-op change that is still logged). */
const SPA_SWITCHES = [
  ['activate', { active: true }],
  ['deactivate', { active: false }],
  ['verify', { verified: true }],
  ['feature', { featured: true }],
] as const;

const ROUTES: Route[] = [
  // The owner dashboard (src/pages/owner/dashboard.astro).
  read('GET /owner/dashboard shows the spa’s bookings', '/owner/dashboard', OWNER_AND_ADMIN, { shows: (f) => f.bookingName, ownView: true }),
  formPost('dashboard form: confirm a booking', '/owner/dashboard', OWNER_AND_ADMIN, { form: CONFIRM_BOOKING, ...confirmsBooking }),
  formPost('dashboard form: move a lead', '/owner/dashboard', OWNER_AND_ADMIN, { form: { intent: 'lead', id: '{leadId}', status: 'contacted' }, ...movesLead }),
  formPost('dashboard form: Manage billing', '/owner/dashboard', OWNER_AND_ADMIN, { form: { intent: 'billing', spaId: '{spaId}' }, needsStripe: true }),
  // The JSON endpoints owners use.
  read('GET /api/bookings/{id}', '/api/bookings/{bookingId}', OWNER_AND_ADMIN, { shows: (f) => f.bookingName }),
  patchJson('PATCH /api/bookings/{id}', '/api/bookings/{bookingId}', OWNER_AND_ADMIN, {
    json: { status: 'confirmed', scheduledAt: '{when}' },
    ...confirmsBooking,
  }),
  patchJson('PATCH /api/leads/{id}', '/api/leads/{leadId}', OWNER_AND_ADMIN, { json: { status: 'contacted' }, ...movesLead }),
  postJson('POST /api/stripe/portal', '/api/stripe/portal', OWNER_AND_ADMIN, { json: { spaId: '{spaId}' }, needsStripe: true }),
  postJson('POST /api/stripe/checkout (upgrade a spa)', '/api/stripe/checkout', OWNER_AND_ADMIN, {
    json: { tier: 'PREMIUM', billing: 'monthly', spaId: '{spaId}' },
    needsStripe: true,
  }),
  // A listing's own pages (src/pages/owner/spas/[id]/*): the owner or an editor.
  ...['', '/services', '/offers', '/photos', '/policies', '/clinicians', '/reviews'].map((page) =>
    read(`GET /owner/spas/{id}${page}`, `/owner/spas/{spaId}${page}`, OWNER_AND_ADMIN, { shows: (f) => f.spaName }),
  ),
  formPost('policies form: the cancellation window', '/owner/spas/{spaId}/policies', OWNER_AND_ADMIN, {
    form: { cancellationWindowHours: '48' },
    state: policy,
    changed: (after) => expect(after).toEqual({ hours: 48 }),
  }),
  formPost('policies form: no-show protection (no Stripe keys here: refused 422, the owner told why)', '/owner/spas/{spaId}/policies', OWNER_AND_ADMIN, {
    form: { form: 'protection', protection: 'card', lateFeeKind: 'fixed', lateFeeAmount: '50', noShowFeeKind: 'none' },
    okStatus: [422],
    state: protection,
    changed: (after) => expect(after).toEqual({ noShowPolicy: null }),
  }),
  // No-show protection: one booking's page (src/pages/owner/bookings/[id].astro), the payments pages.
  read('GET /owner/bookings/{id}', '/owner/bookings/{feeBookingId}', OWNER_AND_ADMIN, { shows: (f) => f.stripeId }),
  read('GET /owner/payments', '/owner/payments', OWNER_AND_ADMIN, { shows: (f) => f.stripeId, ownView: true }),
  read('GET /admin/payments', '/admin/payments', ADMIN, { shows: (f) => f.stripeId }),
  formPost('booking page form: mark no-show', '/owner/bookings/{pastBookingId}', OWNER_AND_ADMIN, {
    form: { intent: 'no-show' },
    state: (f) => bookingMoney(f.pastBookingId),
    changed: (after) => expect((after as ReturnType<typeof bookingMoney>).booking!.noShowAt).not.toBeNull(),
  }),
  formPost('booking page form: charge the no-show fee', '/owner/bookings/{feeBookingId}', OWNER_AND_ADMIN, {
    form: { intent: 'charge', kind: 'no_show_fee', amountCents: '15000' },
    stripeAfterOwnership: true,
    state: (f) => bookingMoney(f.feeBookingId),
  }),
  formPost('booking page form: a forged fee amount is refused (422) for everyone', '/owner/bookings/{feeBookingId}', OWNER_AND_ADMIN, {
    form: { intent: 'charge', kind: 'no_show_fee', amountCents: '1500000' },
    okStatus: [422],
    state: (f) => bookingMoney(f.feeBookingId),
    changed: (after) =>
      expect(after).toMatchObject({ booking: { feeDecision: null }, money: [{ kind: 'no_show_fee', status: 'succeeded', amountCents: 15_000 }] }),
  }),
  formPost('booking page form: waive the fee', '/owner/bookings/{feeBookingId}', OWNER_AND_ADMIN, {
    form: { intent: 'waive' },
    stripeAfterOwnership: true,
    state: (f) => bookingMoney(f.feeBookingId),
  }),
  formPost('/admin/payments form: refund a fee with a reason', '/admin/payments', ADMIN, {
    form: { id: '{feeRowId}', reason: 'Charged by mistake.' },
    stripeAfterOwnership: true,
    state: (f) => bookingMoney(f.feeBookingId),
  }),
  formPost('clinicians form: add a clinician', '/owner/spas/{spaId}/clinicians', OWNER_AND_ADMIN, {
    form: { intent: 'add', name: 'Authz Added', role: 'RN', licenseNumber: '95077777' },
    state: cliniciansOf,
    changed: (after) => expect(after).toMatchObject([{ name: 'Authz Nurse' }, { name: 'Authz Added' }]),
  }),
  // The editors' desk (src/pages/admin/*).
  read('GET /admin/clinicians', '/admin/clinicians', ADMIN, { shows: () => 'Authz Nurse' }),
  read('GET /admin/reviews', '/admin/reviews', ADMIN, { shows: () => 'A low rating is not a reason.' }),
  formPost('/admin/clinicians form: check a licence', '/admin/clinicians', ADMIN, {
    form: { intent: 'check', id: '{clinicianId}', licence: '95012345' },
    state: cliniciansOf,
    changed: (after) => expect((after as ReturnType<typeof cliniciansOf>)[0]!.checked).not.toBeNull(),
  }),
  read('GET /admin', '/admin', ADMIN, { shows: () => 'Awaiting review' }),
  read('GET /admin/requests', '/admin/requests', ADMIN, { shows: (f) => f.bookingName }),
  read('GET /admin/audit', '/admin/audit', ADMIN, { shows: () => 'Audit log' }),
  formPost('/admin form: approve', '/admin', ADMIN, {
    form: { intent: 'approve', id: '{pendingSpaId}' },
    state: (f) => listingAndAudit(f.pendingSpaId),
    changed: (after) => expect(after).toMatchObject({ listing: { reviewStatus: 'approved', active: true }, audit: [{ action: 'approve' }] }),
  }),
  formPost('/admin form: reject with a reason', '/admin', ADMIN, {
    form: { intent: 'reject', id: '{pendingSpaId}', reason: 'Needs a street address.' },
    state: (f) => listingAndAudit(f.pendingSpaId),
    changed: (after) =>
      expect(after).toMatchObject({ listing: { reviewStatus: 'rejected', reviewNote: 'Needs a street address.' }, audit: [{ action: 'reject' }] }),
  }),
  ...SPA_SWITCHES.map(([intent, expected]) =>
    formPost(`/admin form: ${intent}`, '/admin', ADMIN, {
      form: { intent, id: '{spaId}' },
      state: (f) => listingAndAudit(f.spaId),
      changed: (after) => expect(after).toMatchObject({ listing: expected, audit: [{ action: intent }] }),
    }),
  ),
  formPost('/admin/requests form: confirm a booking', '/admin/requests', ADMIN, { form: CONFIRM_BOOKING, ...confirmsBooking }),
];

const users = {} as Record<Exclude<Role, 'signed out'>, TestUser>;
const TAG = `authz-${Date.now()}`;
let n = 0;

/** In five days, 2:30 pm: a time the lifecycle accepts for a confirmation. */
function inFiveDays(): { date: string; when: string } {
  const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  return { date, when: `${date}T14:30` };
}

const firstCityId = () => db.select({ id: cities.id }).from(cities).orderBy(asc(cities.id)).limit(1).get()!.id;

function makeFixture(): Fixture {
  n++;
  const city = firstCityId();
  // Inactive, so no public page or count of the shared site changes.
  const spa = (suffix: string, review: 'approved' | 'pending') =>
    db
      .insert(spas)
      .values({
        name: `Authz Spa ${n}${suffix}`,
        slug: `${TAG}-${n}${suffix}`,
        cityId: city,
        ownerId: users.owner.id,
        tier: 'FREE',
        active: false,
        reviewStatus: review,
      })
      .returning({ id: spas.id })
      .get().id;
  const spaId = spa('', 'approved');
  const pendingSpaId = spa('-pending', 'pending');
  const clinicianId = db
    .insert(clinicians)
    .values({ spaId, name: 'Authz Nurse', role: 'RN', licenseNumber: '95012345' })
    .returning({ id: clinicians.id })
    .get().id;
  const { date, when } = inFiveDays();
  const bookingName = `Authz Client ${TAG}-${n}`;
  const bookingEmail = `${TAG}-${n}@example.com`;
  // Rows as they stand in each state (a past confirmation, a marked no-show): the lifecycle would not make them now.
  const insertBooking = (fields: typeof bookings.$inferInsert) => db.insert(bookings).values(fields).returning({ id: bookings.id }).get().id;
  const bookingId = insertBooking({ name: bookingName, email: bookingEmail, spaId, preferredDate: date, status: 'pending' });
  // The lead a booking request makes: the booking's contact, for the same spa.
  const leadId = db.insert(leads).values({ name: bookingName, email: bookingEmail, spaId, bookingId }).returning({ id: leads.id }).get().id;
  // No-show protection: a confirmed booking two hours past, and one marked a no-show under a card policy ($200, fee $150).
  const past = Date.now() - 2 * 3_600_000;
  const pastBookingId = insertBooking({ name: bookingName, email: `${TAG}-${n}-past@example.com`, spaId, scheduledAt: new Date(past), status: 'confirmed' });
  const feeBookingId = insertBooking({
    name: bookingName,
    email: `${TAG}-${n}-fee@example.com`,
    spaId,
    scheduledAt: new Date(past),
    status: 'confirmed',
    protection: 'card',
    secureStatus: 'secured',
    policyPriceCents: 20000,
    policyWindowHours: 24,
    lateCancelFeeCents: 10000,
    noShowFeeCents: 15000,
    stripeCustomerId: 'cus_authz',
    stripePaymentMethodId: 'pm_authz',
    noShowAt: new Date(past + 3_600_000),
  });
  const stripeId = `pi_authz_${TAG}_${n}`;
  // A fee charged before (on another attempt): the editors' desk offers its refund; the fee itself is still to decide.
  const feeRowId = db
    .insert(bookingPayments)
    .values({
      bookingId: feeBookingId,
      kind: 'no_show_fee',
      amountCents: 15000,
      status: 'succeeded',
      stripePaymentIntentId: stripeId,
      idempotencyKey: `${stripeId}-key`,
      actorRole: 'owner',
    })
    .returning({ id: bookingPayments.id })
    .get().id;
  return { spaId, spaName: `Authz Spa ${n}`, clinicianId, bookingId, bookingName, leadId, pendingSpaId, when, pastBookingId, feeBookingId, feeRowId, stripeId };
}

/** A template's `{key}` placeholders filled from the fixture; a value that is only a placeholder becomes the fixture's value itself (a number stays one). */
function fill<T extends string | Record<string, unknown>>(template: T, f: Fixture): T {
  const text = (value: string) => value.replace(/\{(\w+)\}/g, (_, key: keyof Fixture) => String(f[key]));
  const value = (v: unknown) => (typeof v !== 'string' ? v : /^\{\w+\}$/.test(v) ? f[v.slice(1, -1) as keyof Fixture] : text(v));
  if (typeof template === 'string') return text(template) as T;
  return Object.fromEntries(Object.entries(template).map(([key, v]) => [key, value(v)])) as T;
}

async function ask(request: APIRequestContext, route: Route, f: Fixture, role: Role) {
  const headers: Record<string, string> = { Origin: baseURL };
  if (role !== 'signed out') headers.Cookie = `session=${users[role].token}`;
  const options = {
    headers,
    maxRedirects: 0,
    ...(route.form ? { form: fill(route.form, f) } : {}),
    ...(route.json ? { data: fill(route.json, f) } : {}),
  };
  const path = fill(route.path, f);
  if (route.method === 'GET') return request.get(path, options);
  if (route.method === 'PATCH') return request.patch(path, options);
  return request.post(path, options);
}

test.beforeAll(() => {
  users.client = createSignedInUser({ role: 'client' });
  users['other owner'] = createSignedInUser({ role: 'owner' });
  users.owner = createSignedInUser({ role: 'owner' });
  users.admin = createSignedInUser({ role: 'admin' });
  // The other owner owns a spa of their own: an owner, just not this spa's.
  db.insert(spas)
    .values({ name: 'Authz Other Spa', slug: `${TAG}-other`, cityId: firstCityId(), ownerId: users['other owner'].id, active: false, reviewStatus: 'approved' })
    .run();
});

test.afterAll(() => {
  const ours = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(like(bookings.email, `${TAG}-%`));
  db.delete(bookingPayments).where(inArray(bookingPayments.bookingId, ours)).run();
  db.delete(bookings)
    .where(like(bookings.email, `${TAG}-%`))
    .run();
  db.delete(leads)
    .where(like(leads.email, `${TAG}-%`))
    .run();
  db.delete(clinicians)
    .where(
      inArray(
        clinicians.spaId,
        db
          .select({ id: spas.id })
          .from(spas)
          .where(like(spas.slug, `${TAG}-%`)),
      ),
    )
    .run();
  db.delete(spas)
    .where(like(spas.slug, `${TAG}-%`))
    .run();
});

for (const route of ROUTES) {
  test(`${route.name}: ${route.needsStripe ? 'no Stripe keys here, so 503 for everyone signed in' : `only ${route.allowed.join(' and ')}${route.stripeAfterOwnership ? ' (503 here: no Stripe keys)' : ''}`}`, async ({
    request,
  }) => {
    for (const role of ROLES) {
      const f = makeFixture();
      const before = route.state?.(f);
      const response = await ask(request, route, f, role);
      const status = response.status();
      const body = await response.text();
      const allowed = route.allowed.includes(role) && !route.needsStripe && !route.stripeAfterOwnership;
      if (route.stripeAfterOwnership && route.allowed.includes(role)) {
        expect(status, `${role}: ${body.slice(0, 300)}`).toBe(503);
        expect(route.state!(f), `${role} changed nothing`).toEqual(before);
      } else if (allowed) {
        expect(route.okStatus, `${role}: ${status} ${body.slice(0, 300)}`).toContain(status);
        if (route.shows) expect(body, role).toContain(route.shows(f));
        if (route.changed) route.changed(route.state!(f), f);
      } else {
        const refusals = route.needsStripe && role !== 'signed out' ? [503] : route.ownView && role !== 'signed out' ? [200] : [401, 403, 404];
        expect(refusals, `${role} got ${status}`).toContain(status);
        if (route.shows) expect(body, role).not.toContain(route.shows(f));
        if (route.state) expect(route.state(f), `${role} changed nothing`).toEqual(before);
      }
    }
  });
}
