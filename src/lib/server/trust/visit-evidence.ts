// What a review's visit rests on (docs/decisions/0029). The spa marking a
// booking completed is the spa's word; the address the review link went to
// may be the spa's own. So when a review is written we look for:
//   evidence  the visit was paid through the site (Stripe says paid, and it
//             still stands): "Verified visit" is shown only with it;
//   signals   signs that the spa wrote it itself, which hold the review for an
//             editor: the client's address is the owner's or the spa's, the
//             booking was made from the owner's account, the review is
//             written from a network the owner uses, or a burst of reviews
//             from clients new to the site.
// Nothing here changes a review; trust/reviews.ts decides what to do with it.
import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import { accountNetworks, bookings, reviewHolds, reviews, spas, users, type HoldSignal } from '#db/schema.ts';
import { rateLimitKeyForEmail } from '#lib/rate-limit-key.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';
import type { SessionUser } from '../auth/sessions.ts';

const DAY_MS = 86_400_000;
/** How long an owner's network counts as theirs after they were last seen on it. */
export const OWNER_NETWORK_DAYS = 180;
/** Reviews from clients new to the site that a spa may get in a day before the next waits for an editor. */
export const FIRST_TIME_BURST = { windowMs: DAY_MS, allowed: 3 } as const;

export interface HoldReason {
  signal: HoldSignal;
  /** For the editor, in plain words; never shown to the owner or the public. */
  detail: string;
}

export interface VisitAssessment {
  /** Paid through the site, and the payment stands. */
  paid: boolean;
  signals: HoldReason[];
}

/** The keyed hash the site keeps of a client address (the same as its rate limits'), or null when unknown. */
export const networkOf = (clientAddress: string | null): string | null => (clientAddress ? hashClientAddress(clientAddress) : null);

// --- where owners work from ------------------------------------------------------

const NOTE_EVERY_MS = 3_600_000;
const noted = new Map<string, number>();

/**
 * Remembers that a signed-in owner used the site from this address (its keyed
 * hash): at most one write an hour per owner and network, from the middleware.
 */
export function noteOwnerNetwork(user: Pick<SessionUser, 'id' | 'role'> | null, clientAddress: string | null, now = Date.now()): void {
  if (!user || user.role !== 'owner' || !clientAddress) return;
  const network = hashClientAddress(clientAddress);
  const key = `${user.id}:${network}`;
  const last = noted.get(key);
  if (last !== undefined && now - last < NOTE_EVERY_MS) return;
  if (noted.size > 10_000) noted.clear();
  noted.set(key, now);
  db.insert(accountNetworks)
    .values({ userId: user.id, network, firstSeenAt: new Date(now), lastSeenAt: new Date(now) })
    .onConflictDoUpdate({ target: [accountNetworks.userId, accountNetworks.network], set: { lastSeenAt: new Date(now) } })
    .run();
}

// --- the assessment ------------------------------------------------------------------

/** The host of an http(s) website, without a leading www.; null for anything else. */
function siteHost(website: string | null): string | null {
  if (!website) return null;
  try {
    const host = new URL(website).hostname.toLowerCase();
    return host.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Whether the booking's address is the owner's, the spa's, or at the spa's own domain; the first match, in words. */
function ownerAddress(
  clientEmail: string,
  spa: { email: string | null; claimEmail: string | null; website: string | null; ownerEmail: string | null },
): string | null {
  const inbox = rateLimitKeyForEmail(clientEmail);
  if (spa.ownerEmail && rateLimitKeyForEmail(spa.ownerEmail) === inbox) return 'The client’s address is the listing owner’s own sign-in address.';
  if (spa.claimEmail && rateLimitKeyForEmail(spa.claimEmail) === inbox) return 'The client’s address is the one the listing was registered with.';
  if (spa.email && rateLimitKeyForEmail(spa.email) === inbox) return 'The client’s address is the spa’s listed address.';
  const host = siteHost(spa.website);
  const domain = domainOf(clientEmail);
  if (host && (domain === host || domain.endsWith(`.${host}`))) return `The client’s address is at the spa’s own website domain (${host}).`;
  return null;
}

/** Reviews (published or held) of the spa written since `since` by clients whose booking was their first with us. */
function firstTimeReviewsSince(spaId: number, since: Date): number {
  const firstBooking = sql`not exists (select 1 from ${bookings} earlier where earlier.email = ${bookings.email} and earlier.id < ${bookings.id})`;
  const published = db
    .select({ n: count() })
    .from(reviews)
    .innerJoin(bookings, eq(bookings.id, reviews.bookingId))
    .where(and(eq(reviews.spaId, spaId), gte(reviews.createdAt, since), firstBooking))
    .get()!.n;
  const held = db
    .select({ n: count() })
    .from(reviewHolds)
    .innerJoin(bookings, eq(bookings.id, reviewHolds.bookingId))
    .where(and(eq(reviewHolds.spaId, spaId), gte(reviewHolds.createdAt, since), firstBooking))
    .get()!.n;
  return published + held;
}

const monthDay = (date: Date) => date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'America/Los_Angeles' });

/** What the review of this booking, written from `writerNetwork`, rests on. Reads only. */
export function assessVisit(bookingId: number, writerNetwork: string | null, now = new Date()): VisitAssessment {
  const row = db
    .select({
      email: bookings.email,
      userId: bookings.userId,
      paymentStatus: bookings.paymentStatus,
      spaId: spas.id,
      ownerId: spas.ownerId,
      spaEmail: spas.email,
      claimEmail: spas.claimEmail,
      website: spas.website,
      ownerEmail: users.email,
    })
    .from(bookings)
    .innerJoin(spas, eq(spas.id, bookings.spaId))
    .leftJoin(users, eq(users.id, spas.ownerId))
    .where(eq(bookings.id, bookingId))
    .get();
  if (!row) return { paid: false, signals: [] };
  const signals: HoldReason[] = [];

  const address = ownerAddress(row.email, { email: row.spaEmail, claimEmail: row.claimEmail, website: row.website, ownerEmail: row.ownerEmail });
  if (address) signals.push({ signal: 'owner-address', detail: address });

  if (row.ownerId !== null && row.userId === row.ownerId)
    signals.push({ signal: 'owner-account', detail: 'The booking was made while signed in as the spa’s owner.' });

  if (row.ownerId !== null && writerNetwork) {
    const seen = db
      .select({ lastSeenAt: accountNetworks.lastSeenAt })
      .from(accountNetworks)
      .where(
        and(
          eq(accountNetworks.userId, row.ownerId),
          eq(accountNetworks.network, writerNetwork),
          gte(accountNetworks.lastSeenAt, new Date(now.getTime() - OWNER_NETWORK_DAYS * DAY_MS)),
        ),
      )
      .get();
    if (seen)
      signals.push({ signal: 'owner-network', detail: `Written from a network the spa’s owner used the site from (last on ${monthDay(seen.lastSeenAt)}).` });
  }

  const isFirstBooking = !db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.email, row.email), lt(bookings.id, bookingId)))
    .get();
  if (isFirstBooking) {
    const recent = firstTimeReviewsSince(row.spaId, new Date(now.getTime() - FIRST_TIME_BURST.windowMs));
    if (recent >= FIRST_TIME_BURST.allowed) {
      signals.push({
        signal: 'first-time-burst',
        detail: `Review ${recent + 1} in 24 hours from clients whose booking at this spa was their first with us.`,
      });
    }
  }
  return { paid: row.paymentStatus === 'paid', signals };
}

/**
 * "Verified visit" as the pages show it: the review was published with it and
 * its visit's payment still stands (a refund takes it away). For a query on reviews.
 */
export const VERIFIED_VISIT =
  sql<boolean>`(${reviews.verifiedVisit} = 1 and exists (select 1 from ${bookings} paid where paid.id = ${reviews.bookingId} and paid.payment_status = 'paid'))`.mapWith(
    Boolean,
  );
