// Registering a spa (POST /api/owner/create-spa and the no-JS form): the
// listing awaits review, the owner's address is proved by the sign-in link
// before the listing is anyone's, bad input and floods create nothing, and a
// paid plan goes live only when Stripe's webhook says the checkout completed.
import { count, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { standInWithPrices } from '#tests/support/stripe-client.ts';
import type { StripeStandIn } from '#tests/support/stripe-stand-in.ts';
import { makeEvent, signEvent } from '#tests/support/stripe-webhooks.ts';
import { cities, magicTokens, spas, users } from '#db/schema.ts';
import { findPlan } from '#lib/billing-rules.ts';
import { priceFor } from '../billing/checkout.ts';
import { handleStripeWebhook } from '../billing/webhooks.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { redeemMagicLink } from '../auth/magic-links.ts';
import { CLAIM_INTRO, registerSpa, signupJson, type SignupContext, type SignupOutcome } from './signup.ts';
import { errorBody, refusalHeaders, statusOf } from '../http.ts';

/** What became of a signup: the listing's or the checkout's kind, else the refusal's reason. */
const kindOf = (outcome: SignupOutcome) => (outcome.ok ? outcome.value.kind : outcome.reason);
import { SIGNUP_LIMITS } from './pending.ts';
import type { SessionUser } from '../auth/sessions.ts';

const sent = vi.hoisted(() => [] as { to: string; subject: string; text: string }[]);
vi.mock('../mail/mail.ts', () => ({
  scheduleMail: () => {},
  unscheduleMail: () => {},
  sendMail: async (message: { to: string; subject: string; text: string }) => void sent.push(message),
  sendMailInBackground: () => {},
}));

const TAG = testTag('signup-test');
const ORIGIN = 'http://localhost:4321';
const SECRET = 'whsec_test_signup';
let cityId = 0;
let standIn: StripeStandIn;
let stripe: Stripe;
let n = 0;

// Every call a different client: a repeated one would carry another test's signups into its hourly count.
let addresses = 0;
const addressBlock = Math.floor(Math.random() * 250) + 1;
const address = () => {
  addresses++;
  return `10.${addressBlock}.${(addresses >> 8) & 255}.${addresses & 255}`;
};
const email = (who: string) => `${TAG}-${who}-${n++}@example.com`;
const context = (overrides: Partial<SignupContext> = {}): SignupContext => ({
  user: null,
  clientAddress: address(),
  origin: ORIGIN,
  stripe: null,
  ...overrides,
});
const form = (overrides: Record<string, unknown> = {}) => ({ spaName: `Spa ${TAG} ${n++}`, ownerEmail: email('owner'), cityId: String(cityId), ...overrides });
const spaCount = () => db.select({ n: count() }).from(spas).get()!.n;
const spaById = (id: number) => db.select().from(spas).where(eq(spas.id, id)).get()!;
const userByEmail = (address: string) => db.select().from(users).where(eq(users.email, address)).get();
const makeUser = (who: string, role: SessionUser['role']) => insertUser(email(who), role);
/** The token of the newest sign-in link mailed to an address. */
function tokenMailedTo(address: string): string {
  const message = sent.findLast((m) => m.to === address);
  expect(message, `a sign-in link to ${address}`).toBeDefined();
  return new URL(/https?:\/\/\S+\/auth\/confirm\S*/.exec(message!.text)![0]).searchParams.get('token')!;
}

beforeAll(async () => {
  cityId = db
    .insert(cities)
    .values({ name: `City ${TAG}`, slug: `${TAG}-city` })
    .returning()
    .get().id;
  ({ standIn, stripe } = await standInWithPrices());
});
beforeEach(() => {
  sent.length = 0;
});
afterAll(async () => {
  await standIn.close();
});

describe('a free signup by a visitor who is not signed in', () => {
  it('stores a FREE listing awaiting review, claimed by the address, and mails that address a sign-in link', async () => {
    const input = form({ description: 'Lasers and facials.', website: 'https://tidewater.example' });
    const outcome = await registerSpa(input, context());
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'created', tier: 'FREE', magicLinkSent: true, signedIn: false, continueToPayment: false } });
    if (!outcome.ok || outcome.value.kind !== 'created') return;
    expect(spaById(outcome.value.spaId)).toMatchObject({
      name: input.spaName,
      tier: 'FREE',
      active: false,
      reviewStatus: 'pending',
      ownerId: null,
      claimEmail: input.ownerEmail,
      website: 'https://tidewater.example',
    });
    expect(signupJson(outcome.value)).toMatchObject({ spaId: outcome.value.spaId, status: 'awaiting_review', next: '/owner/login' });
    // Nobody's account yet: the address is not proven.
    expect(userByEmail(input.ownerEmail)).toBeUndefined();
    const mail = sent.find((m) => m.to === input.ownerEmail)!;
    expect(mail.text).toContain(CLAIM_INTRO.free);
    // Nothing the visitor typed reaches the (unproven) inbox.
    expect(mail.text).not.toContain(input.spaName);
    expect(db.select().from(magicTokens).where(eq(magicTokens.email, input.ownerEmail)).all()).toHaveLength(1);

    // Whoever confirms the link owns it: the owner account is made then.
    const redeemed = redeemMagicLink(tokenMailedTo(input.ownerEmail))!;
    expect(userByEmail(input.ownerEmail)).toMatchObject({ id: redeemed.userId, role: 'owner' });
    expect(spaById(outcome.value.spaId)).toMatchObject({ ownerId: redeemed.userId, claimEmail: null, active: false, reviewStatus: 'pending' });
  });

  it('does not hand an existing client’s account a listing until that client proves the address', async () => {
    const client = makeUser('client', 'client');
    const outcome = await registerSpa(form({ ownerEmail: client.email.toUpperCase() }), context());
    if (!outcome.ok || outcome.value.kind !== 'created') throw new Error(kindOf(outcome));
    expect(userByEmail(client.email)).toMatchObject({ role: 'client' });
    expect(spaById(outcome.value.spaId)).toMatchObject({ ownerId: null, claimEmail: client.email });
    redeemMagicLink(tokenMailedTo(client.email));
    expect(userByEmail(client.email)).toMatchObject({ role: 'owner' });
    expect(spaById(outcome.value.spaId).ownerId).toBe(client.id);
  });

  it('leaves another owner’s spas and an admin’s role alone', async () => {
    const owner = makeUser('owner', 'owner');
    const theirs = db
      .insert(spas)
      .values({ name: 'Theirs', slug: `${TAG}-theirs-${n++}`, cityId, ownerId: owner.id })
      .returning()
      .get();
    const outcome = await registerSpa(form({ ownerEmail: owner.email }), context());
    if (!outcome.ok || outcome.value.kind !== 'created') throw new Error(kindOf(outcome));
    expect(
      db
        .select()
        .from(spas)
        .where(eq(spas.ownerId, owner.id))
        .all()
        .map((s) => s.id),
    ).toEqual([theirs.id]);
    redeemMagicLink(tokenMailedTo(owner.email));
    expect(
      db
        .select()
        .from(spas)
        .where(eq(spas.ownerId, owner.id))
        .all()
        .map((s) => s.id)
        .sort(),
    ).toEqual([theirs.id, outcome.value.spaId].sort());
    expect(spaById(theirs.id)).toMatchObject({ active: true, reviewStatus: 'approved' as const });

    const admin = makeUser('admin', 'admin');
    await registerSpa(form({ ownerEmail: admin.email }), context());
    redeemMagicLink(tokenMailedTo(admin.email));
    expect(userByEmail(admin.email)!.role).toBe('admin');
  });

  it('signing in for another reason with a different address claims nothing', async () => {
    const outcome = await registerSpa(form(), context());
    if (!outcome.ok || outcome.value.kind !== 'created') throw new Error(kindOf(outcome));
    const stranger = makeUser('stranger', 'client');
    const { requestMagicLink } = await import('../auth/magic-links.ts');
    await requestMagicLink({ email: stranger.email, clientAddress: null, origin: ORIGIN, purpose: 'owner' });
    redeemMagicLink(tokenMailedTo(stranger.email));
    expect(spaById(outcome.value.spaId).ownerId).toBeNull();
    expect(userByEmail(stranger.email)!.role).toBe('client');
  });
});

describe('a signup by a signed-in visitor', () => {
  it('is theirs at once, with their proven address whatever the form says, and sends no link', async () => {
    const client = makeUser('signed-in', 'client');
    const outcome = await registerSpa(form({ ownerEmail: 'someone-else@example.com' }), context({ user: client }));
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'created', signedIn: true, magicLinkSent: false } });
    if (!outcome.ok || outcome.value.kind !== 'created') return;
    expect(spaById(outcome.value.spaId)).toMatchObject({ ownerId: client.id, claimEmail: null, active: false, reviewStatus: 'pending' });
    expect(userByEmail(client.email)!.role).toBe('owner');
    expect(sent).toHaveLength(0);
  });
});

describe('bad input and floods change nothing', () => {
  it('answers 422 "Missing Information" naming the empty required fields', async () => {
    const before = spaCount();
    const outcome = await registerSpa({ spaName: ' ', description: 'No name, no owner, no city' }, context());
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid', code: 'missing_information', message: 'Please fill in all required fields.' });
    if (outcome.ok) return;
    expect(outcome.fields).toMatchObject({ spaName: 'Spa name is required', ownerEmail: 'Valid email is required', cityId: 'Choose a city' });
    expect({ status: statusOf(outcome), body: errorBody(outcome) }).toMatchObject({ status: 422, body: { error: { code: 'missing_information' } } });
    expect(spaCount()).toBe(before);
    expect(sent).toHaveLength(0);
  });

  it('refuses a bad website, address or an unknown city with the field and its message', async () => {
    const before = spaCount();
    expect(await registerSpa(form({ website: 'javascript:alert(1)' }), context())).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { website: 'Enter a web address starting with http:// or https://' },
    });
    expect(await registerSpa(form({ ownerEmail: 'nobody' }), context())).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { ownerEmail: 'Valid email is required' },
    });
    expect(await registerSpa(form({ cityId: '999999' }), context())).toMatchObject({ ok: false, reason: 'invalid', fields: { cityId: 'Choose a city' } });
    expect(spaCount()).toBe(before);
    expect(sent).toHaveLength(0);
  });

  it(`takes ${SIGNUP_LIMITS.perClientPerHour} signups an hour from one client, then 429 with nothing created`, async () => {
    const client = address();
    for (let i = 0; i < SIGNUP_LIMITS.perClientPerHour; i++) expect(kindOf(await registerSpa(form(), context({ clientAddress: client })))).toBe('created');
    const before = spaCount();
    const refused = await registerSpa(form(), context({ clientAddress: client }));
    expect(refused).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(!refused.ok && refusalHeaders(refused)['Retry-After']).toMatch(/^\d+$/);
    expect(spaCount()).toBe(before);
  });

  it(`takes ${SIGNUP_LIMITS.perOwnerEmailPerDay} a day for one inbox (victim+1@, victim+2@ count as one)`, async () => {
    const base = email('inbox').split('@')[0];
    const outcomes = [];
    for (let i = 0; i <= SIGNUP_LIMITS.perOwnerEmailPerDay; i++)
      outcomes.push(kindOf(await registerSpa(form({ ownerEmail: `${base}+${i}@example.com` }), context())));
    expect(outcomes).toEqual([...Array<string>(SIGNUP_LIMITS.perOwnerEmailPerDay).fill('created'), 'rate_limited']);
  });
});

describe('paid plans', () => {
  it('without Stripe keys, a paid choice is listed FREE and says payments are unavailable', async () => {
    const outcome = await registerSpa(form({ tier: 'ELITE' }), context({ stripe: null }));
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'created', tier: 'FREE', paymentsUnavailable: true, continueToPayment: false } });
  });

  it('not signed in: the listing awaits review and the link continues to the plan page for it', async () => {
    const input = form({ tier: 'premium', billing: 'annual' });
    const outcome = await registerSpa(input, context({ stripe }));
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'created', tier: 'PREMIUM', continueToPayment: true, magicLinkSent: true } });
    if (!outcome.ok || outcome.value.kind !== 'created') return;
    const link = /https?:\/\/\S+\/auth\/confirm\S*/.exec(sent.findLast((m) => m.to === input.ownerEmail)!.text)![0];
    expect(new URL(link).searchParams.get('next')).toBe(`/subscription?spaId=${outcome.value.spaId}&billing=annual`);
    expect(spaById(outcome.value.spaId)).toMatchObject({ tier: 'FREE', active: false });
    // No checkout was opened for a listing nobody owns yet.
    const { spaId } = outcome.value;
    expect([...standIn.checkoutSessions.values()].some((s) => (s.metadata as Record<string, string>).spa_id === String(spaId))).toBe(false);
  });

  it('signed in: Stripe Checkout opens, and the listing goes live at the tier only when the webhook says it completed', async () => {
    const owner = makeUser('payer', 'client');
    const outcome = await registerSpa(form({ tier: 'PREMIUM', spaName: `Premium ${TAG}` }), context({ user: owner, stripe }));
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'checkout' } });
    if (!outcome.ok || outcome.value.kind !== 'checkout') return;
    const { url } = outcome.value;
    const session = [...standIn.checkoutSessions.values()].find((s) => s.url === url)!;
    const spaId = Number((session.metadata as Record<string, string>).spa_id);
    expect(spaById(spaId)).toMatchObject({ name: `Premium ${TAG}`, ownerId: owner.id, tier: 'FREE', active: false, reviewStatus: 'pending' });

    standIn.completeCheckout(String(session.id));
    const { payload, header } = signEvent(makeEvent('checkout.session.completed', standIn.checkoutSessions.get(String(session.id))!), SECRET);
    expect((await handleStripeWebhook(payload, header, { secret: SECRET, stripe, origin: ORIGIN })).ok).toBe(true);
    expect(spaById(spaId)).toMatchObject({ tier: 'PREMIUM', active: true, reviewStatus: 'approved', subscriptionStatus: 'active' });
  });

  it('signed in, Elite for a new listing: refused (Elite places are for approved listings, issue 23.3) and no listing is left behind', async () => {
    const owner = makeUser('elite-payer', 'client');
    const before = spaCount();
    const sessionsBefore = standIn.checkoutSessions.size;
    const outcome = await registerSpa(form({ tier: 'ELITE', spaName: `Elite ${TAG}` }), context({ user: owner, stripe }));
    expect(outcome).toMatchObject({ ok: false, reason: 'conflict', code: 'elite_needs_approval' });
    expect(spaCount()).toBe(before);
    expect(standIn.checkoutSessions.size).toBe(sessionsBefore);
  });

  it('signed in, but the checkout cannot open: no listing is left behind', async () => {
    const owner = makeUser('unlucky', 'owner');
    // The plan's price is known (cached); Stripe then fails to open the session itself.
    await priceFor(stripe, findPlan('PREMIUM', 'monthly'));
    const before = spaCount();
    const sessionsBefore = standIn.checkoutSessions.size;
    standIn.failNext(10);
    const outcome = await registerSpa(form({ tier: 'PREMIUM' }), context({ user: owner, stripe }));
    expect(outcome).toMatchObject({ ok: false, reason: 'upstream_failed' });
    expect(standIn.checkoutSessions.size).toBe(sessionsBefore);
    expect(spaCount()).toBe(before);
  });
});
