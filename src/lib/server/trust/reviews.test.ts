import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, cities, mailQueue, reviewInvitations, reviewReports, reviews, siteMeta, spas } from '#db/schema.ts';
import type { ReviewInput } from '#lib/review-schema.ts';
import { announceBookingChange } from '../bookings/booking-mail.ts';
import { changeBooking, createBooking } from '../bookings/bookings.ts';
import { db } from '../db.ts';
import {
  decideReport,
  issueReviewInvitation,
  listPublishedReviews,
  replyToReview,
  reportReview,
  reviewLink,
  reviewSummary,
  submitReview,
  REVIEW_LINK_DAYS,
} from './reviews.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { hashToken } from '../auth/tokens.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';

const TAG = testTag('reviews-test');
const email = (who: string) => `${TAG}-${who}@example.com`;
const DAY = 86_400_000;
const ORIGIN = 'https://ocmedspadirectory.com';

const people = {} as Record<'owner' | 'otherOwner' | 'admin' | 'client', SessionUser>;
let spaA = 0;
let spaB = 0;

const makeUser = (who: string, role: SessionUser['role']) => insertUser(email(who), role);

/** A booking of `spaId` in `status`, its visit `daysAgo` days back. */
function booking(spaId: number, status: 'pending' | 'confirmed' | 'completed' | 'cancelled', who = 'client', daysAgo = 3): number {
  const at = new Date(Date.now() - daysAgo * DAY);
  return db
    .insert(bookings)
    .values({ spaId, name: 'Ana Lopez', email: email(who), status, scheduledAt: at, updatedAt: at })
    .returning({ id: bookings.id })
    .get().id;
}

const input: ReviewInput = {
  rating: 5,
  body: 'Thorough exam first, a natural result, no pressure to buy more.',
  treatment: 'Botox',
  authorName: 'Ana',
  visited: 'yes',
};
/** A writer whose address is unknown (no network signal can match). */
const anywhere = { clientAddress: null };
const reviewRows = () =>
  db
    .select()
    .from(reviews)
    .where(inArray(reviews.spaId, [spaA, spaB]))
    .all();
const contentVersion = () => db.select({ v: siteMeta.contentVersion }).from(siteMeta).get()!.v;

beforeAll(() => {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  people.owner = makeUser('owner', 'owner');
  people.otherOwner = makeUser('other-owner', 'owner');
  people.admin = makeUser('admin', 'admin');
  people.client = makeUser('client', 'client');
  spaA = db
    .insert(spas)
    .values({ name: 'Review Spa A', slug: `${TAG}-a`, cityId: city.id, ownerId: people.owner.id })
    .returning({ id: spas.id })
    .get().id;
  spaB = db
    .insert(spas)
    .values({ name: 'Review Spa B', slug: `${TAG}-b`, cityId: city.id, ownerId: people.otherOwner.id })
    .returning({ id: spas.id })
    .get().id;
});

describe('the review link', () => {
  it('is issued only for a completed booking', () => {
    expect(issueReviewInvitation(booking(spaA, 'pending'))).toBeNull();
    expect(issueReviewInvitation(booking(spaA, 'confirmed'))).toBeNull();
    expect(issueReviewInvitation(booking(spaA, 'cancelled'))).toBeNull();
    const token = issueReviewInvitation(booking(spaA, 'completed'));
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(reviewLink(token!)).toMatchObject({ state: 'open', spa: { id: spaA }, firstName: 'Ana' });
  });

  it('is stored only as a hash, and asking again replaces it', () => {
    const id = booking(spaA, 'completed');
    const first = issueReviewInvitation(id)!;
    const second = issueReviewInvitation(id)!;
    const stored = db.select().from(reviewInvitations).where(eq(reviewInvitations.bookingId, id)).get()!;
    expect(stored.tokenHash).not.toContain(second);
    expect(reviewLink(first).state).toBe('unknown');
    expect(reviewLink(second).state).toBe('open');
  });

  it('expires', () => {
    const token = issueReviewInvitation(booking(spaA, 'completed'))!;
    const later = new Date(Date.now() + (REVIEW_LINK_DAYS + 1) * DAY);
    expect(reviewLink(token, later).state).toBe('expired');
    expect(submitReview(token, input, anywhere, later)).toMatchObject({ ok: false, reason: 'gone' });
  });

  it('goes out with the completion mail, through the durable queue', () => {
    const created = createBooking({ name: 'Ana Lopez', email: email('mail'), spaId: spaA });
    if (!created.ok) throw new Error('booking refused');
    const { id } = created.value;
    const confirmed = changeBooking(id, { status: 'confirmed', scheduledAt: new Date(Date.now() + DAY) }, { user: people.owner });
    expect(confirmed.ok).toBe(true);
    db.update(bookings)
      .set({ scheduledAt: new Date(Date.now() - DAY) })
      .where(eq(bookings.id, id))
      .run();
    const completed = changeBooking(id, { status: 'completed' }, { user: people.owner });
    if (!completed.ok) throw new Error(completed.message);
    announceBookingChange(completed.value.before, completed.value.after, false, ORIGIN);
    const queued = db
      .select({ message: mailQueue.message })
      .from(mailQueue)
      .where(eq(sql`json_extract(${mailQueue.message}, '$.to')`, email('mail')))
      .all()
      .map((row) => row.message as { subject: string; text: string });
    const invitation = queued.find((m) => m.subject.startsWith('How was your visit'));
    expect(invitation?.subject).toBe('How was your visit to Review Spa A?');
    const token = /\/reviews\/write\/([a-z2-7]{32})/.exec(invitation!.text)?.[1];
    expect(token).toBeDefined();
    expect(reviewLink(token!)).toMatchObject({ state: 'open', bookingId: id });
    // No incentive of any kind is offered for a review.
    expect(invitation!.text).not.toMatch(/discount|coupon|reward points|gift card|\$\d/i);
  });
});

describe('writing a review (the bars)', () => {
  it('publishes one review per completed booking, dated by the visit month, and bumps the content version', () => {
    const id = booking(spaA, 'completed', 'client', 40);
    const token = issueReviewInvitation(id)!;
    const version = contentVersion();
    const result = submitReview(token, input, anywhere);
    expect(result).toMatchObject({ ok: true, value: { spaSlug: `${TAG}-a` } });
    const row = db.select().from(reviews).where(eq(reviews.bookingId, id)).get()!;
    expect(row).toMatchObject({ rating: 5, body: input.body, authorName: 'Ana', state: 'published' });
    expect(row.visitMonth).toMatch(/^\d{4}-\d{2}$/);
    expect(contentVersion()).toBeGreaterThan(version);
  });

  it('refuses a guessed or malformed link: nothing changes', () => {
    const before = reviewRows();
    expect(submitReview('a'.repeat(32), input, anywhere)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(submitReview('../../etc', input, anywhere)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(reviewRows()).toEqual(before);
  });

  it('refuses a second review of the same booking: nothing changes', () => {
    const id = booking(spaA, 'completed');
    const token = issueReviewInvitation(id)!;
    expect(submitReview(token, input, anywhere).ok).toBe(true);
    const before = reviewRows();
    expect(submitReview(token, { ...input, rating: 1 }, anywhere)).toMatchObject({ ok: false, reason: 'conflict' });
    // A fresh link for the same booking is not issued once it is reviewed.
    expect(issueReviewInvitation(id)).toBeNull();
    // And the database itself refuses a second row for the booking.
    expect(() =>
      db
        .insert(reviews)
        .values({ bookingId: id, spaId: spaA, rating: 1, body: 'x'.repeat(30), authorName: 'X', visitMonth: '2026-11' })
        .run(),
    ).toThrow(/UNIQUE/);
    expect(reviewRows()).toEqual(before);
  });

  it('a link reviews only its own booking, at its own spa', () => {
    const mine = booking(spaB, 'completed', 'someone-else');
    const token = issueReviewInvitation(mine)!;
    const result = submitReview(token, input, anywhere);
    if (!result.ok) throw new Error(result.message);
    if (result.value.held) throw new Error('held for an editor');
    const row = db.select().from(reviews).where(eq(reviews.id, result.value.reviewId)).get()!;
    expect(row).toMatchObject({ bookingId: mine, spaId: spaB });
  });

  it('a booking that is not completed has no link to review it with', () => {
    const before = reviewRows();
    const pending = booking(spaA, 'pending');
    expect(issueReviewInvitation(pending)).toBeNull();
    // Even a link row put in by hand does not open for a booking that was not completed.
    const forged = 'b'.repeat(32);
    db.insert(reviewInvitations)
      .values({ bookingId: pending, tokenHash: hashToken(forged), expiresAt: new Date(Date.now() + DAY) })
      .run();
    expect(reviewLink(forged).state).toBe('unknown');
    expect(submitReview(forged, input, anywhere)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(reviewRows()).toEqual(before);
  });
});

describe('published as written', () => {
  let reviewId = 0;
  beforeAll(() => {
    const token = issueReviewInvitation(booking(spaA, 'completed', 'written'))!;
    const result = submitReview(token, input, anywhere);
    if (!result.ok) throw new Error(result.message);
    if (result.value.held) throw new Error('held for an editor');
    reviewId = result.value.reviewId;
  });

  it('refuses any edit of the text or rating, whoever writes to the database', () => {
    const before = reviewRows();
    expect(() => db.update(reviews).set({ body: 'Edited by the spa: amazing!' }).where(eq(reviews.id, reviewId)).run()).toThrow(/published as written/);
    expect(() => db.update(reviews).set({ rating: 5 }).where(eq(reviews.id, reviewId)).run()).toThrow(/published as written/);
    expect(reviewRows()).toEqual(before);
  });

  it('lets the spa reply once, and only its own spa', () => {
    expect(replyToReview(spaB, reviewId, 'Not our review')).toMatchObject({ ok: false, reason: 'not_found' });
    expect(replyToReview(spaA, reviewId, 'Thank you, Ana.')).toEqual({ ok: true, value: undefined });
    const before = reviewRows();
    expect(replyToReview(spaA, reviewId, 'A second thought')).toMatchObject({ ok: false, reason: 'conflict' });
    expect(() => db.update(reviews).set({ reply: 'Rewritten' }).where(eq(reviews.id, reviewId)).run()).toThrow(/already replied/);
    expect(reviewRows()).toEqual(before);
  });

  it('is removed only by an editor deciding a report, with the reason kept', () => {
    const reportId = reportReview(reviewId, 'fake: not a real visit')!;
    expect(reportId).toBeGreaterThan(0);
    expect(decideReport(people.owner, reportId, 'removed', 'I do not like it')).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(listPublishedReviews(spaA).some((r) => r.id === reviewId)).toBe(true);
    expect(decideReport(people.admin, reportId, 'removed', 'Shares a staff member’s private details')).toEqual({ ok: true, value: undefined });
    expect(decideReport(people.admin, reportId, 'kept', 'Second opinion')).toMatchObject({ ok: false, reason: 'conflict' });
    const row = db.select().from(reviews).where(eq(reviews.id, reviewId)).get()!;
    expect(row).toMatchObject({ state: 'removed', removedReason: 'Shares a staff member’s private details', body: input.body });
    const report = db.select().from(reviewReports).where(eq(reviewReports.id, reportId)).get()!;
    expect(report).toMatchObject({ decision: 'removed', decidedBy: people.admin.id });
    // Editors read the decision and its reason in the audit log.
    const logged = db.select().from(auditLog).where(eq(auditLog.actorId, people.admin.id)).all();
    expect(logged.map((row) => [row.action, row.target, row.detail])).toContainEqual([
      'remove-review',
      `spa:${spaA}`,
      `review ${reviewId}: Shares a staff member’s private details`,
    ]);
    expect(listPublishedReviews(spaA).some((r) => r.id === reviewId)).toBe(false);
    expect(reportReview(reviewId, 'again')).toBeNull();
  });

  it('summarises only published reviews', () => {
    const summary = reviewSummary(spaA);
    expect(summary.count).toBe(listPublishedReviews(spaA).length);
    expect(summary.distribution.reduce((n, row) => n + row.count, 0)).toBe(summary.count);
  });
});
