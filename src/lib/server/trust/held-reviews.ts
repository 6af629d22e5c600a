// Reviews held for an editor (docs/decisions/0029): written through a valid
// link, with a sign that the spa may have written them itself. An editor
// reads the signals and the visit's facts, then publishes the review word for
// word (with "Verified visit" only when its visit was paid through the site)
// or removes it, always with a reason that is stored and logged. A held
// review is never deleted and never edited (triggers refuse both).
import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { bookings, reviewHolds, reviews, spas, users } from '#db/schema.ts';
import { conflict, forbidden, notFound, ok, type Result } from '#lib/result.ts';
import type { HeldDecision } from '#lib/review-schema.ts';
import { recordAudit } from '../admin/audit.ts';
import { db } from '../db.ts';
import type { SessionUser } from '../auth/sessions.ts';

/** Held reviews waiting for an editor, oldest first, with what the editor needs to judge them. */
export function listHeldReviews() {
  return db
    .select({
      id: reviewHolds.id,
      rating: reviewHolds.rating,
      body: reviewHolds.body,
      treatment: reviewHolds.treatment,
      authorName: reviewHolds.authorName,
      visitMonth: reviewHolds.visitMonth,
      signals: reviewHolds.signals,
      createdAt: reviewHolds.createdAt,
      spa: { id: spas.id, name: spas.name, slug: spas.slug, active: spas.active },
      booking: {
        id: bookings.id,
        createdAt: bookings.createdAt,
        scheduledAt: bookings.scheduledAt,
        bookedVia: bookings.bookedVia,
        paymentStatus: bookings.paymentStatus,
      },
    })
    .from(reviewHolds)
    .innerJoin(spas, eq(spas.id, reviewHolds.spaId))
    .innerJoin(bookings, eq(bookings.id, reviewHolds.bookingId))
    .where(isNull(reviewHolds.decidedAt))
    .orderBy(reviewHolds.createdAt, reviewHolds.id)
    .all();
}

export type HeldReview = ReturnType<typeof listHeldReviews>[number];

/** The last decisions on held reviews, newest first. */
export function listDecidedHolds(limit = 20) {
  return db
    .select({
      id: reviewHolds.id,
      decision: reviewHolds.decision,
      decisionReason: reviewHolds.decisionReason,
      decidedAt: reviewHolds.decidedAt,
      decidedBy: users.email,
      reviewId: reviewHolds.reviewId,
      verifiedVisit: reviews.verifiedVisit,
      spaName: spas.name,
    })
    .from(reviewHolds)
    .innerJoin(spas, eq(spas.id, reviewHolds.spaId))
    .leftJoin(users, eq(users.id, reviewHolds.decidedBy))
    .leftJoin(reviews, eq(reviews.id, reviewHolds.reviewId))
    .where(isNotNull(reviewHolds.decidedAt))
    .orderBy(desc(reviewHolds.decidedAt), desc(reviewHolds.id))
    .limit(limit)
    .all();
}

export type HeldDecisionResult = Result<{ reviewId: number | null; verifiedVisit: boolean }, 'forbidden' | 'not_found' | 'conflict'>;

const DECIDED = 'Another editor has already decided this review.';

/**
 * An editor's decision on a held review. Publishing copies it into the
 * spa's reviews exactly as written (dated when it was written); the badge
 * needs the visit's payment to stand now. Removing keeps it, unpublished,
 * with the reason. Either way the reason goes to the audit log.
 */
export function decideHeldReview(
  user: Pick<SessionUser, 'id' | 'role' | 'email'>,
  holdId: number,
  decision: HeldDecision,
  reason: string,
  now = new Date(),
): HeldDecisionResult {
  if (user.role !== 'admin') return forbidden('Only editors may decide held reviews.');
  return db.transaction((tx): HeldDecisionResult => {
    const hold = tx
      .select({ hold: reviewHolds, paymentStatus: bookings.paymentStatus })
      .from(reviewHolds)
      .innerJoin(bookings, eq(bookings.id, reviewHolds.bookingId))
      .where(eq(reviewHolds.id, holdId))
      .get();
    if (!hold) return notFound('That held review does not exist.');
    if (hold.hold.decidedAt) return conflict(DECIDED);
    const decided = { decisionReason: reason, decidedBy: user.id, decidedAt: now };
    if (decision === 'remove') {
      const changed = tx
        .update(reviewHolds)
        .set({ ...decided, decision: 'removed' })
        .where(and(eq(reviewHolds.id, holdId), isNull(reviewHolds.decidedAt)))
        .run().changes;
      if (changed !== 1) return conflict(DECIDED);
      recordAudit(user, 'remove-review', `spa:${hold.hold.spaId}`, `held review ${holdId}: ${reason}`, tx);
      return ok({ reviewId: null, verifiedVisit: false });
    }
    const verifiedVisit = decision === 'publish' && hold.paymentStatus === 'paid';
    // Word for word, and dated when the client wrote it.
    const { bookingId, spaId, rating, body, treatment, authorName, visitMonth, writerNetwork, createdAt } = hold.hold;
    const review = tx
      .insert(reviews)
      .values({ bookingId, spaId, rating, body, treatment, authorName, visitMonth, writerNetwork, createdAt, verifiedVisit })
      .returning({ id: reviews.id })
      .get();
    const changed = tx
      .update(reviewHolds)
      .set({ ...decided, decision: 'published', reviewId: review.id })
      .where(and(eq(reviewHolds.id, holdId), isNull(reviewHolds.decidedAt)))
      .run().changes;
    if (changed !== 1) tx.rollback();
    recordAudit(
      user,
      'release-review',
      `spa:${hold.hold.spaId}`,
      `held review ${holdId} published as review ${review.id}${verifiedVisit ? ' with Verified visit' : ' without the badge'}: ${reason}`,
      tx,
    );
    return ok({ reviewId: review.id, verifiedVisit });
  });
}
