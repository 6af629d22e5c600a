// The listing editor (/owner/spas/{id}): reads a spa's editable fields and
// saves a change from the form. Everything is checked on the server, inside
// one transaction with the write: the schema (spec 5 messages), who may change
// the slug (editors only), the tier rules (spec 3) against the tier the row has
// at that moment, and that a new slug is free. A refused change writes nothing.
// The spas triggers (content version, URL schemes) then mark the published
// site stale, and the publishing queue rebuilds it.
import { and, eq, ne } from 'drizzle-orm';
import { spas, spaSlugHistory, type Tier } from '#db/schema.ts';
import { LISTING_FIELDS, listingFromForm, listingSchema, listingTierViolations, type ListingFormValues, type ListingInput } from '#lib/listing-schema.ts';
import { db } from '../db.ts';
import { fieldErrors } from '../http.ts';
import type { SessionUser } from '../auth/sessions.ts';

export interface EditableListing extends ListingInput {
  id: number;
  tier: Tier;
  ownerId: number | null;
}

export type SaveListingResult =
  { ok: true; slugChanged: boolean; slug: string } | { ok: false; status: 403 | 404 | 409 | 422; errors: Record<string, string>; values: ListingFormValues };

export const SLUG_TAKEN = 'Another listing uses this address. Choose another slug.';
export const SLUG_EDITORS_ONLY = 'Only directory editors can change a listing’s address.';

export function loadListing(spaId: number): EditableListing | null {
  const row = db.select().from(spas).where(eq(spas.id, spaId)).get();
  if (!row) return null;
  return {
    id: row.id,
    tier: row.tier,
    ownerId: row.ownerId,
    name: row.name,
    slug: row.slug,
    description: row.description,
    address: row.address,
    phone: row.phone,
    email: row.email,
    website: row.website,
    bookingLink: row.bookingLink,
    socialFeedUrl: row.socialFeedUrl,
    socialPlatform: row.socialPlatform,
    videoUrl: row.videoUrl,
  };
}

/** The stored listing as the form shows it. */
export function listingFormValues(listing: EditableListing): ListingFormValues {
  const values: ListingFormValues = {};
  for (const field of LISTING_FIELDS) values[field] = (listing[field] as string | null) ?? '';
  return values;
}

/** Is this slug another spa's address now, or was it (a retired slug still redirects)? Without `spaId`: anyone's. */
export function slugInUse(slug: string, spaId?: number): boolean {
  const current = db
    .select({ id: spas.id })
    .from(spas)
    .where(and(eq(spas.slug, slug), spaId ? ne(spas.id, spaId) : undefined))
    .get();
  const retired = db
    .select({ spaId: spaSlugHistory.spaId })
    .from(spaSlugHistory)
    .where(and(eq(spaSlugHistory.slug, slug), spaId ? ne(spaSlugHistory.spaId, spaId) : undefined))
    .get();
  return Boolean(current || retired);
}

/**
 * Saves the form's fields for the spa. Fields the form did not send keep their
 * stored values: an owner's form has no slug field, and a field locked by the
 * tier is not sent. The caller has checked that `user` may edit the spa.
 */
export function saveListing(user: SessionUser, spaId: number, form: Pick<URLSearchParams, 'get' | 'has'>): SaveListingResult {
  return db.transaction(() => {
    const current = loadListing(spaId);
    if (!current) return { ok: false, status: 404, errors: { _: 'This listing no longer exists.' }, values: {} };
    const stored = listingFormValues(current);
    const values: ListingFormValues = {};
    for (const field of LISTING_FIELDS) {
      const sent = form.has(field) ? form.get(field) : null;
      values[field] = typeof sent === 'string' ? sent : stored[field]!;
    }
    const refuse = (status: 403 | 409 | 422, errors: Record<string, string>) => ({ ok: false as const, status, errors, values });

    const parsed = listingSchema.safeParse(listingFromForm(values));
    if (!parsed.success) return refuse(422, fieldErrors(parsed.error));
    const next = parsed.data;

    const slugChanged = next.slug !== current.slug;
    if (slugChanged && user.role !== 'admin') return refuse(403, { slug: SLUG_EDITORS_ONLY });
    const violations = listingTierViolations(current.tier, next, current);
    if (Object.keys(violations).length > 0) return refuse(403, violations);
    if (slugChanged && slugInUse(next.slug, spaId)) return refuse(409, { slug: SLUG_TAKEN });

    db.update(spas)
      .set({
        name: next.name,
        slug: next.slug,
        description: next.description,
        address: next.address,
        phone: next.phone,
        email: next.email,
        website: next.website,
        bookingLink: next.bookingLink,
        socialFeedUrl: next.socialFeedUrl,
        socialPlatform: next.socialPlatform,
        videoUrl: next.videoUrl,
        updatedAt: new Date(),
      })
      .where(eq(spas.id, spaId))
      .run();
    if (slugChanged) {
      // The old address keeps answering (301); going back to a retired slug of
      // its own makes it the address again.
      db.delete(spaSlugHistory).where(eq(spaSlugHistory.slug, next.slug)).run();
      db.insert(spaSlugHistory).values({ slug: current.slug, spaId }).onConflictDoUpdate({ target: spaSlugHistory.slug, set: { spaId } }).run();
    }
    return { ok: true as const, slugChanged, slug: next.slug };
  });
}

/**
 * Where a retired spa address now lives: the spa's current slug, when the spa
 * is listed; null otherwise. /spas/{old} answers 301 to it.
 */
export function currentSlugFor(oldSlug: string): string | null {
  const row = db
    .select({ slug: spas.slug })
    .from(spaSlugHistory)
    .innerJoin(spas, eq(spaSlugHistory.spaId, spas.id))
    .where(and(eq(spaSlugHistory.slug, oldSlug), eq(spas.active, true)))
    .get();
  return row?.slug ?? null;
}
