// The listing editor (/owner/spas/{id}): reads a spa's editable fields and
// saves a change from the form. Everything is checked on the server, inside
// one transaction with the write: the schema (spec 5 messages), who may change
// the slug (editors only), the tier rules (spec 3) against the tier the row has
// at that moment, and that a new slug is free. A refused change writes nothing.
// A save that changes nothing writes nothing. The spas triggers (content
// version, URL schemes) then mark the published site stale when the listing is
// public (migration 0019), and the publishing queue rebuilds it.
import { and, eq, ne } from 'drizzle-orm';
import { spas, spaSlugHistory, type Tier } from '#db/schema.ts';
import { LISTING_FIELDS, listingFromForm, listingSchema, listingTierViolations, type ListingFormValues, type ListingInput } from '#lib/listing-schema.ts';
import { db } from '../db.ts';
import { conflict, fieldErrors, forbidden, invalid, notFound, ok, type FieldMessages, type Result } from '#lib/result.ts';
import type { SessionUser } from '../auth/sessions.ts';

export interface EditableListing extends ListingInput {
  id: number;
  tier: Tier;
  ownerId: number | null;
}

/** Saved (and whether the address moved); refused as not_found, invalid, forbidden (a slug change by an owner, a tier rule) or conflict (a taken slug). */
export type SaveListingResult = Result<{ changed: boolean; slugChanged: boolean; slug: string }, 'not_found' | 'invalid' | 'forbidden' | 'conflict'>;

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

/** The form's values as the listing would be saved: what it sent, else what is stored (a field not sent keeps its value). */
function sentOrStored(stored: ListingFormValues, form: Pick<URLSearchParams, 'get' | 'has'>): ListingFormValues {
  const values: ListingFormValues = {};
  for (const field of LISTING_FIELDS) {
    const sent = form.has(field) ? form.get(field) : null;
    values[field] = typeof sent === 'string' ? sent : stored[field]!;
  }
  return values;
}

/** What a refused save shows in the form again: the values as typed over the stored listing. */
export function typedListing(spaId: number, form: Pick<URLSearchParams, 'get' | 'has'>): ListingFormValues {
  const current = loadListing(spaId);
  return current ? sentOrStored(listingFormValues(current), form) : {};
}

/** A rule's refusal names the fields; its message is the first one's. */
const firstOf = (fields: FieldMessages) => Object.values(fields)[0] ?? '';

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
  return db.transaction((): SaveListingResult => {
    const current = loadListing(spaId);
    if (!current) return notFound('This listing no longer exists.');
    const values = sentOrStored(listingFormValues(current), form);

    const parsed = listingSchema.safeParse(listingFromForm(values));
    if (!parsed.success) return invalid(fieldErrors(parsed.error));
    const next = parsed.data;

    const slugChanged = next.slug !== current.slug;
    if (slugChanged && user.role !== 'admin') return forbidden(SLUG_EDITORS_ONLY, { fields: { slug: SLUG_EDITORS_ONLY } });
    const violations = listingTierViolations(current.tier, next, current);
    if (Object.keys(violations).length > 0) return forbidden(firstOf(violations), { fields: violations });
    if (slugChanged && slugInUse(next.slug, spaId)) return conflict(SLUG_TAKEN, { fields: { slug: SLUG_TAKEN } });

    // A save that changes nothing writes nothing: the listing's last change (and "Publishing…") stays as it was.
    const changes = Object.fromEntries(
      LISTING_FIELDS.filter((field) => (next[field] ?? null) !== (current[field] ?? null)).map((field) => [field, next[field]]),
    );
    if (Object.keys(changes).length === 0) return ok({ changed: false, slugChanged: false, slug: current.slug });
    db.update(spas)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(spas.id, spaId))
      .run();
    if (slugChanged) {
      // The old address keeps answering (301); going back to a retired slug of
      // its own makes it the address again.
      db.delete(spaSlugHistory).where(eq(spaSlugHistory.slug, next.slug)).run();
      db.insert(spaSlugHistory).values({ slug: current.slug, spaId }).onConflictDoUpdate({ target: spaSlugHistory.slug, set: { spaId } }).run();
    }
    return ok({ changed: true, slugChanged, slug: next.slug });
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
