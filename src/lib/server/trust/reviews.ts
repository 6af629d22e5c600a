// Reviews of completed visits (docs/decisions/0023, 0029). Only the client of a
// completed booking can review it, through the single-use link the completion
// mail carries, confirming the visit themselves; one review per booking (unique
// indexes); the text is kept as written (triggers refuse edits, whoever asks).
// A review that shows a sign of being the spa's own is held for an editor
// (visit-evidence.ts), otherwise published, with "Verified visit" when the
// visit was paid through the site. The spa may reply once; anyone may report
// a review and only an editor removes one, with a reason that is logged.
// Pages and endpoints stay thin and call these.
import { and, desc, eq, inArray, isNull, sql, TransactionRollbackError } from 'drizzle-orm';
import { bookings, reviewHolds, reviewInvitations, reviewReports, reviews, services, spas, users } from '#db/schema.ts';
import { pacificDate } from '#lib/dates.ts';
import { summarise, type ReviewInput } from '#lib/review-schema.ts';
import { logger } from '#lib/log.ts';
import { conflict, forbidden, gone, notFound, ok, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { columnsOf, ofSpa } from '../db-helpers.ts';
import { hashClientAddress } from '../client-address.ts';
import { hitAll, type RateLimitResult } from '../rate-limit.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { recordAudit } from '../admin/audit.ts';
import { bookingsOfUser } from '../bookings/bookings.ts';
import { hashToken, randomToken } from '../auth/tokens.ts';
import { assessVisit, networkOf, VERIFIED_VISIT } from './visit-evidence.ts';

const log = logger('reviews');

/** 32 base32 characters, as randomToken(20) makes them. */
export const REVIEW_TOKEN_PATTERN = /^[a-z2-7]{32}$/;
/** How long the link in the completion mail works. */
export const REVIEW_LINK_DAYS = 90;
const DAY_MS = 86_400_000;

// --- the invitation -----------------------------------------------------------

/**
 * The link's secret for a completed booking, or null when the booking is not
 * completed or already reviewed. Only the hash is stored; asking again (a mail
 * resent) replaces the secret, so only the newest link works.
 */
export function issueReviewInvitation(bookingId: number, now = new Date()): string | null {
  const booking = db.select({ status: bookings.status, spaId: bookings.spaId }).from(bookings).where(eq(bookings.id, bookingId)).get();
  if (!booking || booking.status !== 'completed' || booking.spaId === null) return null;
  const token = randomToken(20);
  const values = { bookingId, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + REVIEW_LINK_DAYS * DAY_MS), createdAt: now };
  const row = db
    .insert(reviewInvitations)
    .values(values)
    .onConflictDoUpdate({
      target: reviewInvitations.bookingId,
      set: { tokenHash: values.tokenHash, expiresAt: values.expiresAt },
      where: isNull(reviewInvitations.usedAt),
    })
    .returning({ bookingId: reviewInvitations.bookingId })
    .get();
  return row ? token : null;
}

/**
 * A signed-in client's own way to the review form of a completed visit (the
 * member home's "Review your visit"), besides the link in the completion mail:
 * a fresh link secret for that visit (the mailed one then stops working, as
 * with a resent mail). Not their booking, not completed, or already reviewed:
 * not found, so nothing is learnt about other people's bookings.
 */
export function reviewLinkForClient(user: Pick<SessionUser, 'id' | 'email'>, bookingId: number, now = new Date()): Result<{ token: string }, 'not_found'> {
  const booking = db
    .select({ id: bookings.id })
    .from(bookings)
    .leftJoin(reviews, eq(reviews.bookingId, bookings.id))
    .where(and(eq(bookings.id, bookingId), eq(bookings.status, 'completed'), isNull(reviews.id), bookingsOfUser(user)))
    .get();
  const token = booking ? issueReviewInvitation(booking.id, now) : null;
  return token ? ok({ token }) : notFound('There is no visit of yours to review here.');
}

/** Which of these bookings have a review already (the member home says "Reviewed" instead of offering one). */
export function reviewedBookings(bookingIds: readonly number[]): Set<number> {
  if (bookingIds.length === 0) return new Set();
  return new Set(
    db
      .select({ bookingId: reviews.bookingId })
      .from(reviews)
      .where(inArray(reviews.bookingId, [...bookingIds]))
      .all()
      .map((row) => row.bookingId),
  );
}

export type ReviewLinkState =
  | { state: 'open'; bookingId: number; spa: { id: number; name: string; slug: string }; serviceName: string | null; firstName: string; visitMonth: string }
  | { state: 'used'; spa: { name: string; slug: string } | null }
  | { state: 'expired' }
  | { state: 'unknown' };

/** The visit a review link is for, when it still works. */
export function reviewLink(token: string, now = new Date()): ReviewLinkState {
  if (!REVIEW_TOKEN_PATTERN.test(token)) return { state: 'unknown' };
  const row = db
    .select({
      invitation: reviewInvitations,
      status: bookings.status,
      name: bookings.name,
      scheduledAt: bookings.scheduledAt,
      updatedAt: bookings.updatedAt,
      spa: { id: spas.id, name: spas.name, slug: spas.slug },
      serviceName: services.name,
    })
    .from(reviewInvitations)
    .innerJoin(bookings, eq(reviewInvitations.bookingId, bookings.id))
    .leftJoin(spas, eq(bookings.spaId, spas.id))
    .leftJoin(services, eq(bookings.serviceId, services.id))
    .where(eq(reviewInvitations.tokenHash, hashToken(token)))
    .get();
  if (!row || row.status !== 'completed' || !row.spa) return { state: 'unknown' };
  if (row.invitation.usedAt) return { state: 'used', spa: row.spa };
  if (row.invitation.expiresAt.getTime() <= now.getTime()) return { state: 'expired' };
  return {
    state: 'open',
    bookingId: row.invitation.bookingId,
    spa: row.spa,
    serviceName: row.serviceName,
    firstName: row.name.trim().split(/\s+/)[0]!.slice(0, 40),
    // The appointment's month; a visit completed without a time is dated by its completion.
    visitMonth: pacificDate(row.scheduledAt ?? row.updatedAt).slice(0, 7),
  };
}

// --- writing a review ---------------------------------------------------------

/**
 * Written: published (with "Verified visit" when the visit was paid through
 * the site), or held for an editor when something suggests the spa wrote it
 * (visit-evidence.ts). Either way it is stored as written and the link is spent.
 */
export type SubmitResult = Result<
  { spaSlug: string; held: false; reviewId: number; verifiedVisit: boolean } | { spaSlug: string; held: true; holdId: number },
  'not_found' | 'gone' | 'conflict'
>;

const ALREADY_REVIEWED = 'You have already reviewed this visit. Thank you!';

/** Where the review is written from: the client address (only its keyed hash is kept). */
export interface WriterContext {
  clientAddress: string | null;
}

/**
 * Stores the review the link's visit allows. Everything is decided inside
 * one transaction, and the link is spent in it: a second post with the same
 * link (or a second link for the same booking) changes nothing.
 */
function writeReview(token: string, input: ReviewInput, from: WriterContext, now: Date): SubmitResult {
  return db.transaction((tx): SubmitResult => {
    const link = reviewLink(token, now);
    if (link.state === 'unknown') return notFound('This review link is not valid. Use the link in your e-mail.');
    if (link.state === 'expired') return gone('This review link has expired.');
    if (link.state === 'used') return conflict(ALREADY_REVIEWED);
    const spent = tx
      .update(reviewInvitations)
      .set({ usedAt: now })
      .where(and(eq(reviewInvitations.bookingId, link.bookingId), isNull(reviewInvitations.usedAt)))
      .run();
    const already =
      tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.bookingId, link.bookingId)).get() ??
      tx.select({ id: reviewHolds.id }).from(reviewHolds).where(eq(reviewHolds.bookingId, link.bookingId)).get();
    if (spent.changes !== 1 || already) {
      tx.rollback();
    }
    const writerNetwork = networkOf(from.clientAddress);
    const { paid, signals } = assessVisit(link.bookingId, writerNetwork, now);
    const written = {
      bookingId: link.bookingId,
      spaId: link.spa.id,
      rating: input.rating,
      body: input.body,
      treatment: input.treatment ?? null,
      authorName: input.authorName,
      visitMonth: link.visitMonth,
      writerNetwork,
      createdAt: now,
    };
    if (signals.length > 0) {
      const hold = tx
        .insert(reviewHolds)
        .values({ ...written, signals })
        .returning({ id: reviewHolds.id })
        .get();
      log.info('review held for an editor', { holdId: hold.id, spaId: link.spa.id, signals: signals.map((s) => s.signal).join(',') });
      return ok({ spaSlug: link.spa.slug, held: true, holdId: hold.id });
    }
    const row = tx
      .insert(reviews)
      .values({ ...written, verifiedVisit: paid })
      .returning({ id: reviews.id })
      .get();
    log.info('review published', { reviewId: row.id, spaId: link.spa.id, verifiedVisit: paid });
    return ok({ spaSlug: link.spa.slug, held: false, reviewId: row.id, verifiedVisit: paid });
  });
}

/** Stores a review (writeReview), a lost race answered like a used link. */
export function submitReview(token: string, input: ReviewInput, from: WriterContext, now = new Date()): SubmitResult {
  try {
    return writeReview(token, input, from, now);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (error instanceof TransactionRollbackError || message.includes('reviews.booking_id') || message.includes('review_holds.booking_id')) {
      return conflict(ALREADY_REVIEWED);
    }
    throw error;
  }
}

// --- reading ------------------------------------------------------------------

const publicColumns = {
  ...columnsOf(reviews, 'id', 'rating', 'body', 'treatment', 'authorName', 'visitMonth', 'reply', 'repliedAt', 'createdAt'),
  verifiedVisit: VERIFIED_VISIT,
};

/** A spa's published reviews, newest first. */
export function listPublishedReviews(spaId: number) {
  return db
    .select(publicColumns)
    .from(reviews)
    .where(and(eq(reviews.spaId, spaId), eq(reviews.state, 'published')))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .all();
}

export type PublicReview = ReturnType<typeof listPublishedReviews>[number];

export function reviewSummary(spaId: number) {
  const ratings = db
    .select({ rating: reviews.rating })
    .from(reviews)
    .where(and(eq(reviews.spaId, spaId), eq(reviews.state, 'published')))
    .all()
    .map((row) => row.rating);
  return summarise(ratings);
}

/** Every review of the spa for its owner, removed ones included (with the editor's reason). */
export function listReviewsForOwner(spaId: number) {
  return db
    .select({ ...publicColumns, state: reviews.state, removedReason: reviews.removedReason })
    .from(reviews)
    .where(eq(reviews.spaId, spaId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .all();
}

// --- the spa's reply ----------------------------------------------------------

export type ReplyResult = Result<void, 'not_found' | 'conflict'>;

const ALREADY_REPLIED = 'You have already replied to this review.';

/** The spa's one public reply; the caller has checked that the user may manage `spaId`. */
export function replyToReview(spaId: number, reviewId: number, reply: string, now = new Date()): ReplyResult {
  const review = db
    .select({ reply: reviews.reply })
    .from(reviews)
    .where(ofSpa(reviews, reviewId, spaId))
    .get();
  if (!review) return notFound('That review is not on this listing.');
  if (review.reply !== null) return conflict(ALREADY_REPLIED);
  const result = db
    .update(reviews)
    .set({ reply, repliedAt: now })
    .where(and(ofSpa(reviews, reviewId, spaId), isNull(reviews.reply)))
    .run();
  if (result.changes !== 1) return conflict(ALREADY_REPLIED);
  return ok();
}

// --- reports and decisions ----------------------------------------------------

/** Reports per client address per hour, and per review per day: enough for people, too few to flood the editors. */
export const REPORT_LIMITS = { perClient: 5, perReview: 20 } as const;

export function allowReport(reviewId: number, clientAddress: string | null, now = Date.now()): RateLimitResult {
  return hitAll(
    [
      ...(clientAddress ? [{ key: `review-report:client:${hashClientAddress(clientAddress)}`, limit: REPORT_LIMITS.perClient, windowMs: 3_600_000 }] : []),
      { key: `review-report:review:${reviewId}`, limit: REPORT_LIMITS.perReview, windowMs: DAY_MS },
    ],
    now,
  );
}

/** A published review and its spa, for the report form. */
export function findPublishedReview(reviewId: number) {
  return db
    .select({ id: reviews.id, spaName: spas.name, spaSlug: spas.slug })
    .from(reviews)
    .innerJoin(spas, eq(reviews.spaId, spas.id))
    .where(and(eq(reviews.id, reviewId), eq(reviews.state, 'published')))
    .get();
}

/** A report on a published review; null when there is no such review to report. */
export function reportReview(reviewId: number, reason: string, now = new Date()): number | null {
  const review = db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), eq(reviews.state, 'published')))
    .get();
  if (!review) return null;
  return db
    .insert(reviewReports)
    .values({ reviewId, reason: reason.slice(0, 500), createdAt: now })
    .returning({ id: reviewReports.id })
    .get().id;
}

export function listOpenReports() {
  return db
    .select({
      id: reviewReports.id,
      reason: reviewReports.reason,
      createdAt: reviewReports.createdAt,
      review: {
        id: reviews.id,
        rating: reviews.rating,
        body: reviews.body,
        authorName: reviews.authorName,
        visitMonth: reviews.visitMonth,
        state: reviews.state,
        reply: reviews.reply,
      },
      spa: { name: spas.name, slug: spas.slug },
    })
    .from(reviewReports)
    .innerJoin(reviews, eq(reviewReports.reviewId, reviews.id))
    .innerJoin(spas, eq(reviews.spaId, spas.id))
    .where(isNull(reviewReports.decidedAt))
    .orderBy(reviewReports.createdAt, reviewReports.id)
    .all();
}

export function listDecidedReports(limit = 50) {
  return db
    .select({
      id: reviewReports.id,
      reason: reviewReports.reason,
      decision: reviewReports.decision,
      decisionReason: reviewReports.decisionReason,
      decidedAt: reviewReports.decidedAt,
      decidedBy: users.email,
      reviewId: reviewReports.reviewId,
      spaName: spas.name,
    })
    .from(reviewReports)
    .innerJoin(reviews, eq(reviewReports.reviewId, reviews.id))
    .innerJoin(spas, eq(reviews.spaId, spas.id))
    .leftJoin(users, eq(reviewReports.decidedBy, users.id))
    .where(sql`${reviewReports.decidedAt} is not null`)
    .orderBy(desc(reviewReports.decidedAt))
    .limit(limit)
    .all();
}

export type DecisionResult = Result<void, 'forbidden' | 'not_found' | 'conflict'>;

/**
 * An editor's decision on a report: keep the review, or remove it from the
 * spa's page. Either way the reason is stored and logged. Removing a review
 * decides every open report on it.
 */
export function decideReport(
  user: Pick<SessionUser, 'id' | 'role'>,
  reportId: number,
  decision: 'kept' | 'removed',
  reason: string,
  now = new Date(),
): DecisionResult {
  if (user.role !== 'admin') return forbidden('Only editors may decide reports.');
  return db.transaction((tx): DecisionResult => {
    const report = tx
      .select({ reviewId: reviewReports.reviewId, decidedAt: reviewReports.decidedAt, spaId: reviews.spaId })
      .from(reviewReports)
      .innerJoin(reviews, eq(reviews.id, reviewReports.reviewId))
      .where(eq(reviewReports.id, reportId))
      .get();
    if (!report) return notFound('That report does not exist.');
    if (report.decidedAt) return conflict('Another editor has already decided this report.');
    const decided = { decision, decisionReason: reason, decidedBy: user.id, decidedAt: now };
    if (decision === 'removed') {
      tx.update(reviews).set({ state: 'removed', removedReason: reason }).where(eq(reviews.id, report.reviewId)).run();
      tx.update(reviewReports)
        .set(decided)
        .where(and(eq(reviewReports.reviewId, report.reviewId), isNull(reviewReports.decidedAt)))
        .run();
    } else {
      tx.update(reviewReports)
        .set(decided)
        .where(and(eq(reviewReports.id, reportId), isNull(reviewReports.decidedAt)))
        .run();
    }
    recordAudit(user, decision === 'removed' ? 'remove-review' : 'keep-review', `spa:${report.spaId}`, `review ${report.reviewId}: ${reason}`, tx);
    return ok();
  });
}
