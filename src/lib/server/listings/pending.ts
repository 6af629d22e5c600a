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
import { invalid, ok, type Result } from '#lib/result.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';
import { hitAll, type Limit, type RateLimitResult } from '../rate-limit.ts';
import type { SessionUser } from '../auth/sessions.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Signups per client address, per owner address (its inbox: victim+1@ and
 * victim+2@ count as one) and per account. Low: a spa registers once, and
 * each signup writes a listing for an editor to review and may send a mail.
 */
export const SIGNUP_LIMITS = { perClientPerHour: 5, perOwnerEmailPerDay: 3, perUserPerDay: 5 } as const;

/** Counts one signup against every limit that applies; the first refusal stops the count. */
export function allowSignup(who: { clientAddress?: string | null; ownerEmail?: string | null; userId?: number | null }, now = Date.now()): RateLimitResult {
  const limits: Limit[] = [];
  if (who.clientAddress) limits.push({ key: `signup:client:${hashClientAddress(who.clientAddress)}`, limit: SIGNUP_LIMITS.perClientPerHour, windowMs: HOUR });
  if (who.userId) limits.push({ key: `signup:user:${who.userId}`, limit: SIGNUP_LIMITS.perUserPerDay, windowMs: DAY });
  if (who.ownerEmail) limits.push({ key: `signup:email:${rateLimitKeyForEmail(who.ownerEmail)}`, limit: SIGNUP_LIMITS.perOwnerEmailPerDay, windowMs: DAY });
  return hitAll(limits, now);
}

export type ListingOwner = { user: Pick<SessionUser, 'id' | 'role'> } | { claimEmail: string };

export type PendingListingResult = Result<{ spaId: number; slug: string }, 'invalid'>;

/**
 * Writes a listing awaiting review, FREE, with its owner (a signed-in user,
 * who becomes an owner if they were a client) or a claim on an address.
 */
export function createPendingListing(data: ListingData, owner: ListingOwner): PendingListingResult {
  const city = db
    .select({ id: cities.id })
    .from(cities)
    .where(and(eq(cities.id, data.cityId), eq(cities.active, true)))
    .get();
  if (!city) return invalid({ cityId: 'Choose a city' });
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
