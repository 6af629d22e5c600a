// "Verified visit" rests on more than the owner's word (issue 23, item 2;
// docs/decisions/0029): the attack of an owner reviewing their own spa through
// a booking they typed is held for an editor, nothing the client writes is lost
// or changed, and the badge needs a payment through the site that still stands.
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountNetworks, auditLog, bookings, cities, reviewHolds, reviewInvitations, reviews, spas } from '#db/schema.ts';
import type { ReviewInput } from '#lib/review-schema.ts';
import { counted } from '#tests/support/content-version.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { db } from '../db.ts';
import { decideHeldReview, listHeldReviews } from './held-reviews.ts';
import { issueReviewInvitation, listPublishedReviews, listReviewsForOwner, reviewLink, submitReview } from './reviews.ts';
import { assessVisit, FIRST_TIME_BURST, networkOf, noteOwnerNetwork } from './visit-evidence.ts';

const TAG = testTag('visits-test');
const DAY = 86_400_000;
const email = (who: string) => `${TAG}-${who}@example.com`;
let cityId = 0;
let n = 0;

beforeAll(() => {
  cityId = db.select({ id: cities.id }).from(cities).limit(1).get()!.id;
});

/** A listed spa of its own, owned by `owner`. */
function makeSpa(owner: SessionUser | null, extra: Partial<typeof spas.$inferInsert> = {}): number {
  const id = db
    .insert(spas)
    .values({ name: 'Evidence Spa', slug: `${TAG}-${n++}`, cityId, ownerId: owner?.id ?? null, ...extra })
    .returning({ id: spas.id })
    .get().id;
  return id;
}

/** A completed visit of the spa by `clientEmail` and its review link. */
function completedVisit(spaId: number, clientEmail: string, extra: Partial<typeof bookings.$inferInsert> = {}): { bookingId: number; token: string } {
  const at = new Date(Date.now() - 2 * DAY);
  const bookingId = db
    .insert(bookings)
    .values({ spaId, name: 'Jo Client', email: clientEmail, status: 'completed', scheduledAt: at, updatedAt: at, ...extra })
    .returning({ id: bookings.id })
    .get().id;
  return { bookingId, token: issueReviewInvitation(bookingId)! };
}

const input: ReviewInput = { rating: 5, body: 'The best treatment I have ever had, truly life changing.', treatment: null, authorName: 'Jo', visited: 'yes' };
const reviewOf = (bookingId: number) => db.select().from(reviews).where(eq(reviews.bookingId, bookingId)).get();
const holdOf = (bookingId: number) => db.select().from(reviewHolds).where(eq(reviewHolds.bookingId, bookingId)).get();

describe('the attack: an owner reviews their own spa through a booking they typed', () => {
  it('is held for an editor, kept as written, out of sight, and asks for no rebuild', () => {
    const owner = insertUser(email('attacker'), 'owner');
    const spaId = makeSpa(owner);
    // The owner uses their dashboard from home...
    noteOwnerNetwork(owner, '203.0.113.50');
    // ...types a booking with an address they control, confirms and completes it, and opens the link from home.
    const { bookingId, token } = completedVisit(spaId, `${TAG}-sock-puppet@gmail.example`);
    const { result, bumps } = counted(() => submitReview(token, input, { clientAddress: '203.0.113.50' }));
    expect(result).toMatchObject({ ok: true, value: { held: true } });
    expect(bumps).toBe(0);
    expect(reviewOf(bookingId)).toBeUndefined();
    expect(holdOf(bookingId)).toMatchObject({
      rating: 5,
      body: input.body,
      authorName: 'Jo',
      decision: null,
      writerNetwork: networkOf('203.0.113.50'),
      signals: [{ signal: 'owner-network', detail: expect.stringContaining('network the spa’s owner used') }],
    });
    expect(listPublishedReviews(spaId)).toEqual([]);
    expect(listReviewsForOwner(spaId)).toEqual([]);
    // The link is spent: the owner cannot try again from elsewhere.
    expect(reviewLink(token).state).toBe('used');
    expect(submitReview(token, input, { clientAddress: '198.51.100.9' })).toMatchObject({ ok: false, reason: 'conflict' });
    expect(listHeldReviews().find((hold) => hold.booking.id === bookingId)).toMatchObject({ spa: { id: spaId }, booking: { paymentStatus: null } });
  });

  it('is held when the client’s address is the owner’s (any +tag), the spa’s, its claim address or at its own domain', () => {
    const owner = insertUser(email('addr-owner'), 'owner');
    const cases: [string, Partial<typeof spas.$inferInsert>, string][] = [
      [email('addr-owner').replace('@', '+review@'), {}, 'owner’s own sign-in address'],
      [`front-desk-${TAG}@glow.example`, { email: `front-desk-${TAG}@glow.example` }, 'listed address'],
      [`claim-${TAG}@example.com`, { claimEmail: `claim-${TAG}@example.com` }, 'registered with'],
      [`jo-${TAG}@mail.glow-${TAG}.example`, { website: `https://www.glow-${TAG}.example/` }, `website domain (glow-${TAG}.example)`],
    ];
    for (const [clientEmail, spa, words] of cases) {
      const spaId = makeSpa(owner, spa);
      const { bookingId, token } = completedVisit(spaId, clientEmail);
      expect(submitReview(token, input, { clientAddress: null }), clientEmail).toMatchObject({ ok: true, value: { held: true } });
      expect(holdOf(bookingId)!.signals, clientEmail).toEqual([{ signal: 'owner-address', detail: expect.stringContaining(words) }]);
    }
  });

  it('is held when the booking was made from the owner’s own account', () => {
    const owner = insertUser(email('account-owner'), 'owner');
    const spaId = makeSpa(owner);
    const { bookingId, token } = completedVisit(spaId, email('account-booked'), { userId: owner.id });
    expect(submitReview(token, input, { clientAddress: null })).toMatchObject({ ok: true, value: { held: true } });
    expect(holdOf(bookingId)!.signals.map((s) => s.signal)).toEqual(['owner-account']);
  });
});

describe('a client’s own review', () => {
  it('is published at once without the badge when the visit was not paid through the site', () => {
    const owner = insertUser(email('plain-owner'), 'owner');
    noteOwnerNetwork(owner, '203.0.113.60');
    const spaId = makeSpa(owner);
    const { bookingId, token } = completedVisit(spaId, email('plain-client'));
    const { result, bumps } = counted(() => submitReview(token, input, { clientAddress: '198.51.100.60' }));
    expect(result).toMatchObject({ ok: true, value: { held: false, verifiedVisit: false } });
    expect(bumps).toBe(1);
    expect(reviewOf(bookingId)).toMatchObject({ body: input.body, verifiedVisit: false, state: 'published' });
    expect(listPublishedReviews(spaId)).toMatchObject([{ body: input.body, verifiedVisit: false }]);
  });

  it('carries "Verified visit" when paid through the site, for as long as the payment stands', () => {
    const spaId = makeSpa(insertUser(email('paid-owner'), 'owner'));
    const { bookingId, token } = completedVisit(spaId, email('paid-client'), { paymentStatus: 'paid', paymentAmountCents: 30_000, paidAt: new Date() });
    expect(submitReview(token, input, { clientAddress: '198.51.100.61' })).toMatchObject({ ok: true, value: { held: false, verifiedVisit: true } });
    expect(listPublishedReviews(spaId)).toMatchObject([{ verifiedVisit: true }]);
    // Refunded: the badge goes, and the page is republished.
    const { bumps } = counted(() => db.update(bookings).set({ paymentStatus: 'refunded' }).where(eq(bookings.id, bookingId)).run());
    expect(bumps).toBe(1);
    expect(listPublishedReviews(spaId)).toMatchObject([{ verifiedVisit: false, body: input.body }]);
    expect(reviewOf(bookingId)).toMatchObject({ verifiedVisit: true, body: input.body });
  });

  it(`is held after ${FIRST_TIME_BURST.allowed} reviews in a day from clients new to the site`, () => {
    const spaId = makeSpa(insertUser(email('burst-owner'), 'owner'));
    const outcomes = Array.from({ length: FIRST_TIME_BURST.allowed + 2 }, (_, i) => {
      const { token } = completedVisit(spaId, email(`burst-${i}`));
      const result = submitReview(token, input, { clientAddress: `198.51.100.${100 + i}` });
      return result.ok ? (result.value.held ? 'held' : 'published') : result.reason;
    });
    expect(outcomes).toEqual([...Array<string>(FIRST_TIME_BURST.allowed).fill('published'), 'held', 'held']);
    // A client who has booked with us before is not new, and is not held for the burst.
    const regular = email('burst-regular');
    completedVisit(makeSpa(null), regular);
    const { token } = completedVisit(spaId, regular);
    expect(submitReview(token, input, { clientAddress: '198.51.100.99' })).toMatchObject({ ok: true, value: { held: false } });
  });
});

describe('the owner’s networks', () => {
  it('are noted for owners only, hashed, at most once an hour', () => {
    const owner = insertUser(email('noted-owner'), 'owner');
    const client = insertUser(email('noted-client'), 'client');
    const start = Date.now();
    noteOwnerNetwork(client, '203.0.113.70', start);
    noteOwnerNetwork(owner, '203.0.113.70', start);
    noteOwnerNetwork(owner, '203.0.113.70', start + 60_000);
    const rows = db
      .select()
      .from(accountNetworks)
      .where(inArray(accountNetworks.userId, [owner.id, client.id]))
      .all();
    expect(rows).toEqual([{ userId: owner.id, network: networkOf('203.0.113.70'), firstSeenAt: new Date(start), lastSeenAt: new Date(start) }]);
    expect(JSON.stringify(rows)).not.toContain('203.0.113.70');
    noteOwnerNetwork(owner, '203.0.113.70', start + 2 * 3_600_000);
    expect(db.select().from(accountNetworks).where(eq(accountNetworks.userId, owner.id)).get()!.lastSeenAt).toEqual(new Date(start + 2 * 3_600_000));
  });

  it('stop counting half a year after they were last seen', () => {
    const owner = insertUser(email('old-owner'), 'owner');
    const spaId = makeSpa(owner);
    noteOwnerNetwork(owner, '203.0.113.80', Date.now() - 200 * DAY);
    const { bookingId } = completedVisit(spaId, email('old-client'));
    expect(assessVisit(bookingId, networkOf('203.0.113.80'))).toEqual({ paid: false, signals: [] });
  });
});

describe('an editor’s decision on a held review', () => {
  const held = (label: string, paid: boolean) => {
    const owner = insertUser(email(`${label}-owner`), 'owner');
    const spaId = makeSpa(owner);
    const { bookingId, token } = completedVisit(spaId, email(`${label}-owner`).replace('@', '+x@'), paid ? { paymentStatus: 'paid', paidAt: new Date() } : {});
    const result = submitReview(token, input, { clientAddress: null });
    if (!result.ok || !result.value.held) throw new Error('not held');
    return { spaId, bookingId, holdId: result.value.holdId };
  };
  let editor: SessionUser;
  beforeAll(() => {
    editor = insertUser(email('editor'), 'admin');
  });

  it('publishes it word for word, dated when written, with the badge only for a paid visit', () => {
    for (const paid of [true, false]) {
      const { spaId, bookingId, holdId } = held(`publish-${paid}`, paid);
      const hold = holdOf(bookingId)!;
      const { result, bumps } = counted(() => decideHeldReview(editor, holdId, 'publish', 'Owner’s sister, a real client: checked by phone.'));
      expect(result).toMatchObject({ ok: true, value: { verifiedVisit: paid } });
      expect(bumps).toBe(1);
      expect(reviewOf(bookingId)).toMatchObject({
        spaId,
        rating: hold.rating,
        body: hold.body,
        authorName: hold.authorName,
        visitMonth: hold.visitMonth,
        createdAt: hold.createdAt,
        verifiedVisit: paid,
      });
      expect(holdOf(bookingId)).toMatchObject({ decision: 'published', body: hold.body, decidedBy: editor.id });
      const audit = db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `spa:${spaId}`))
        .all();
      expect(audit).toMatchObject([{ action: 'release-review', actorEmail: email('editor') }]);
    }
  });

  it('publishes it without the badge when the editor says so, even for a paid visit', () => {
    const { bookingId, holdId } = held('unverified', true);
    expect(decideHeldReview(editor, holdId, 'publish-unverified', 'Real, but booked by the owner for them.')).toMatchObject({ ok: true });
    expect(reviewOf(bookingId)).toMatchObject({ verifiedVisit: false });
  });

  it('removes it with a reason, keeping it; decides once; only editors', () => {
    const { spaId, bookingId, holdId } = held('remove', false);
    const owner = insertUser(email('not-editor'), 'owner');
    expect(decideHeldReview(owner, holdId, 'publish', 'I wrote it myself, publish')).toMatchObject({ ok: false, reason: 'forbidden' });
    const { result, bumps } = counted(() => decideHeldReview(editor, holdId, 'remove', 'The owner wrote it from their own address.'));
    expect(result).toMatchObject({ ok: true, value: { reviewId: null } });
    expect(bumps).toBe(0);
    expect(holdOf(bookingId)).toMatchObject({ decision: 'removed', decisionReason: 'The owner wrote it from their own address.', body: input.body });
    expect(reviewOf(bookingId)).toBeUndefined();
    expect(decideHeldReview(editor, holdId, 'publish', 'Changed my mind')).toMatchObject({ ok: false, reason: 'conflict' });
    expect(
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.target, `spa:${spaId}`), eq(auditLog.action, 'remove-review')))
        .all(),
    ).toHaveLength(1);
  });

  it('never changes what the client wrote, whoever writes to the database', () => {
    const { bookingId, holdId } = held('as-written', false);
    expect(() => db.update(reviewHolds).set({ body: 'Edited!' }).where(eq(reviewHolds.id, holdId)).run()).toThrow(/kept as written/);
    expect(() => db.update(reviewHolds).set({ rating: 1 }).where(eq(reviewHolds.id, holdId)).run()).toThrow(/kept as written/);
    decideHeldReview(editor, holdId, 'remove', 'Not a real visit.');
    expect(() => db.update(reviewHolds).set({ decision: 'published' }).where(eq(reviewHolds.id, holdId)).run()).toThrow(/already decided/);
    expect(holdOf(bookingId)).toMatchObject({ body: input.body, rating: 5, decision: 'removed' });
    // The invitation stays spent: nothing can write a second review for the visit.
    expect(db.select().from(reviewInvitations).where(eq(reviewInvitations.bookingId, bookingId)).get()!.usedAt).not.toBeNull();
  });
});
