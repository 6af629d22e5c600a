// New listings, from /owner/signup and the dashboard's Add New Spa
// (docs/decisions/0021). A listing is created FREE and out of sight: `active`
// false and review_status 'pending', until an editor approves it or its first
// paid plan starts (billing/subscriptions.ts). Public pages read active spas only.
//
// Who owns it: a signed-in owner's own listing is theirs at once. Otherwise
// the address typed as the owner's is only a claim (`claim_email`): whoever
// proves that address by confirming a sign-in link gets the listing then
// (redeemMagicLink calls claimListings). Nobody's existing account, client
// or owner, gains a listing because a stranger typed its address.
import { and, eq, isNull } from 'drizzle-orm';
import { cities, spas, users } from '#db/schema.ts';
import type { ListingData } from '#lib/owner-signup-schema.ts';
import { rateLimitKeyForEmail } from '#lib/rate-limit-key.ts';
import { uniqueSlug } from '#lib/slug.ts';
import { httpUrl } from '#lib/urls.ts';
import { invalid, ok, rateLimited, type Result } from '#lib/result.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';
import { hitAll, type Limit, type RateLimitResult } from '../rate-limit.ts';
import type { SessionUser } from '../auth/sessions.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * New listings per client address (an hour, and a day), per owner address
 * (its inbox: victim+1@ and victim+2@ count as one) and per account. Low: a
 * spa registers once, and each listing waits for an editor and may send a
 * mail. Every way in (signup, the dashboard's Add New Spa, a paid plan's
 * checkout) counts against all that apply, so no path is a way around them.
 */
export const SIGNUP_LIMITS = { perClientPerHour: 5, perClientPerDay: 10, perOwnerEmailPerDay: 3, perUserPerDay: 5 } as const;

/** Counts one signup against every limit that applies; the first refusal stops the count. */
export function allowSignup(who: { clientAddress?: string | null; ownerEmail?: string | null; userId?: number | null }, now = Date.now()): RateLimitResult {
  const limits: Limit[] = [];
  if (who.clientAddress) {
    const client = hashClientAddress(who.clientAddress);
    limits.push({ key: `signup:client:${client}`, limit: SIGNUP_LIMITS.perClientPerHour, windowMs: HOUR });
    limits.push({ key: `signup:client-day:${client}`, limit: SIGNUP_LIMITS.perClientPerDay, windowMs: DAY });
  }
  if (who.userId) limits.push({ key: `signup:user:${who.userId}`, limit: SIGNUP_LIMITS.perUserPerDay, windowMs: DAY });
  if (who.ownerEmail) limits.push({ key: `signup:email:${rateLimitKeyForEmail(who.ownerEmail)}`, limit: SIGNUP_LIMITS.perOwnerEmailPerDay, windowMs: DAY });
  return hitAll(limits, now);
}

/** What a refused listing says: when to try again, in minutes or hours. */
export function tooManyListings(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 90 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.ceil(minutes / 60)} hours`;
  return `Too many listings submitted. Try again in ${wait}.`;
}

export type ListingOwner = { user: Pick<SessionUser, 'id' | 'role'> } | { claimEmail: string };

export type PendingListingResult = Result<{ spaId: number; slug: string }, 'invalid' | 'rate_limited'>;

/**
 * Writes a listing awaiting review, FREE, with its owner (a signed-in user,
 * who becomes an owner if they were a client) or a claim on an address, when
 * the limits allow it: over one, it is refused (rate_limited) and nothing is
 * written. `from` is the client address the request came from (null when
 * unknown: that limit is skipped, the others still count).
 */
export function createPendingListing(data: ListingData, owner: ListingOwner, from: { clientAddress: string | null }, now = Date.now()): PendingListingResult {
  const city = db
    .select({ id: cities.id })
    .from(cities)
    .where(and(eq(cities.id, data.cityId), eq(cities.active, true)))
    .get();
  if (!city) return invalid({ cityId: 'Choose a city' });
  const limit = allowSignup({ clientAddress: from.clientAddress, ...('user' in owner ? { userId: owner.user.id } : { ownerEmail: owner.claimEmail }) }, now);
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds, tooManyListings(limit.retryAfterSeconds));
  return db.transaction(() => {
    const slug = uniqueSlug(data.name, (s) => Boolean(db.select({ id: spas.id }).from(spas).where(eq(spas.slug, s)).get()));
    const spa = db
      .insert(spas)
      .values({
        name: data.name,
        slug,
        description: data.description ?? null,
        address: data.address ?? null,
        phone: data.phone ?? null,
        email: data.email ?? null,
        website: httpUrl(data.website ?? null),
        cityId: data.cityId,
        tier: 'FREE',
        active: false,
        reviewStatus: 'pending',
        ownerId: 'user' in owner ? owner.user.id : null,
        claimEmail: 'claimEmail' in owner ? owner.claimEmail.trim().toLowerCase() : null,
      })
      .returning({ id: spas.id, slug: spas.slug })
      .get();
    if ('user' in owner && owner.user.role === 'client') {
      db.update(users).set({ role: 'owner', updatedAt: new Date() }).where(eq(users.id, owner.user.id)).run();
    }
    return ok({ spaId: spa.id, slug: spa.slug });
  });
}

/**
 * The listings claimed with an address become the user's who just proved it
 * (a confirmed sign-in link); a client becomes an owner. Call inside the
 * transaction that spends the link. Returns how many were claimed.
 */
export function claimListings(user: { id: number; email: string }): number {
  const email = user.email.trim().toLowerCase();
  const claimed = db
    .update(spas)
    .set({ ownerId: user.id, claimEmail: null, updatedAt: new Date() })
    .where(and(eq(spas.claimEmail, email), isNull(spas.ownerId)))
    .returning({ id: spas.id })
    .all();
  if (claimed.length > 0) {
    db.update(users)
      .set({ role: 'owner', updatedAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.role, 'client')))
      .run();
  }
  return claimed.length;
}
