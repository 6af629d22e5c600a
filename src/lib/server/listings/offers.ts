// A spa's offers as its owner (or an editor) manages them at
// /owner/spas/{id}/offers: add, edit, end. Every tier may list offers (spec 3:
// FREE "offers listing only"); featuring one is Premium and Elite, checked
// against the tier the spa has when the offer is saved. An offer's slug is its
// public address (/offers/{slug}): chosen when it is created and kept after.
// Ending an offer makes yesterday its last day, so its page stays up marked
// Expired (rulings) and it drops out of current offers.
import { and, desc, eq, inArray } from 'drizzle-orm';
import { offers, offerServices, services, spas } from '#db/schema.ts';
import { addDays, pacificDate } from '#lib/dates.ts';
import { parseId } from '#lib/ids.ts';
import { OFFER_FIELDS, offerFromForm, offerSchema, offerTierViolations } from '#lib/listing-schema.ts';
import { centsToDecimal } from '#lib/money.ts';
import { slugify, uniqueSlug } from '#lib/slug.ts';
import { conflict, forbidden, invalid, notFound, ok } from '#lib/result.ts';
import { db } from '../db.ts';
import { findOfSpa } from '../db-helpers.ts';
import { formFieldErrors, type CatalogResult } from './services.ts';

export type OfferRow = typeof offers.$inferSelect & { serviceIds: number[] };

export const OFFER_SLUG_TAKEN = 'Another offer uses this address. Choose another slug.';
export const OFFER_SERVICES_UNKNOWN = 'Choose services this spa offers.';

function serviceIdsOf(offerIds: number[]): Map<number, number[]> {
  const map = new Map<number, number[]>();
  if (offerIds.length === 0) return map;
  for (const row of db.select().from(offerServices).where(inArray(offerServices.offerId, offerIds)).all()) {
    map.set(row.offerId, [...(map.get(row.offerId) ?? []), row.serviceId]);
  }
  return map;
}

/** Every offer of the spa, newest first, with the services each covers. */
export function listOwnerOffers(spaId: number): OfferRow[] {
  const rows = db.select().from(offers).where(eq(offers.spaId, spaId)).orderBy(desc(offers.id)).all();
  const ids = serviceIdsOf(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, serviceIds: ids.get(row.id) ?? [] }));
}

export function findOwnerOffer(spaId: number, offerId: number | null): OfferRow | null {
  const row = findOfSpa(db, offers, spaId, offerId);
  return row ? { ...row, serviceIds: serviceIdsOf([row.id]).get(row.id) ?? [] } : null;
}

/** A stored offer as the form shows it. */
export function offerFormValues(offer: OfferRow | null): { values: Record<string, string>; serviceIds: number[]; featured: boolean } {
  return {
    values: {
      title: offer?.title ?? '',
      slug: offer?.slug ?? '',
      description: offer?.description ?? '',
      originalPrice: offer ? centsToDecimal(offer.originalPriceCents) : '',
      offerPrice: offer ? centsToDecimal(offer.offerPriceCents) : '',
      validFrom: offer?.validFrom ?? '',
      validTo: offer?.validTo ?? '',
      imageUrl: offer?.imageUrl ?? '',
    },
    serviceIds: offer?.serviceIds ?? [],
    featured: offer?.featured ?? false,
  };
}

/** The offer form as typed: its text fields ('' for an absent one), the services ticked and the feature box. */
export function offerValuesOf(form: Pick<URLSearchParams, 'get' | 'getAll'>): { values: Record<string, string>; serviceIds: number[]; featured: boolean } {
  return {
    values: Object.fromEntries(OFFER_FIELDS.map((field) => [field, form.get(field) ?? ''])),
    serviceIds: form
      .getAll('serviceIds')
      .map(parseId)
      .filter((id) => id !== null),
    featured: form.get('featured') === 'on' || form.get('featured') === 'true',
  };
}

/** Adds an offer (offerId null) or changes one of the spa's own. */
export function saveOffer(spaId: number, offerId: number | null, form: Pick<URLSearchParams, 'get' | 'getAll'>): CatalogResult {
  const { values, featured } = offerValuesOf(form);
  const chosen = form.getAll('serviceIds');
  return db.transaction((): CatalogResult => {
    const spa = db.select({ tier: spas.tier, cityId: spas.cityId }).from(spas).where(eq(spas.id, spaId)).get();
    const existing = findOwnerOffer(spaId, offerId);
    if (!spa || (offerId !== null && !existing)) return notFound('That offer could not be found.');

    // The address is chosen once: an existing offer keeps its slug; a new one
    // takes the one typed or one made from the title.
    const typedSlug = values.slug!.trim().toLowerCase();
    const slug = existing
      ? existing.slug
      : typedSlug ||
        (slugify(values.title!) ? uniqueSlug(values.title!, (s) => Boolean(db.select({ id: offers.id }).from(offers).where(eq(offers.slug, s)).get())) : '');
    const parsed = offerSchema.safeParse(offerFromForm({ ...values, slug }, chosen, featured));
    if (!parsed.success) {
      const errors = formFieldErrors(parsed.error.issues);
      // A blank title is the one thing to fix; "Slug is required" would only repeat it.
      if (errors.title && !typedSlug) delete errors.slug;
      return invalid(errors);
    }
    const input = parsed.data;
    const violations = offerTierViolations(spa.tier, input, existing);
    const [violation] = Object.values(violations);
    if (violation) return forbidden(violation, { fields: violations });
    if (!existing && db.select({ id: offers.id }).from(offers).where(eq(offers.slug, input.slug)).get()) {
      return conflict(OFFER_SLUG_TAKEN, { fields: { slug: OFFER_SLUG_TAKEN } });
    }
    if (input.serviceIds.length > 0) {
      const own = db
        .select({ id: services.id })
        .from(services)
        .where(and(eq(services.spaId, spaId), inArray(services.id, input.serviceIds)))
        .all();
      if (own.length !== input.serviceIds.length) return invalid({ serviceIds: OFFER_SERVICES_UNKNOWN });
    }

    const fields = {
      title: input.title,
      description: input.description,
      originalPriceCents: input.originalPriceCents,
      offerPriceCents: input.offerPriceCents,
      savingsCents: input.originalPriceCents - input.offerPriceCents,
      validFrom: input.validFrom,
      validTo: input.validTo,
      imageUrl: input.imageUrl,
      featured: input.featured,
      cityId: spa.cityId,
    };
    let id: number;
    if (existing) {
      db.update(offers).set(fields).where(eq(offers.id, existing.id)).run();
      id = existing.id;
      const before = new Set(existing.serviceIds);
      const after = new Set(input.serviceIds);
      const removed = [...before].filter((serviceId) => !after.has(serviceId));
      if (removed.length > 0)
        db.delete(offerServices)
          .where(and(eq(offerServices.offerId, id), inArray(offerServices.serviceId, removed)))
          .run();
      const added = [...after].filter((serviceId) => !before.has(serviceId));
      if (added.length > 0)
        db.insert(offerServices)
          .values(added.map((serviceId) => ({ offerId: id, serviceId })))
          .run();
    } else {
      id = db
        .insert(offers)
        .values({ ...fields, slug: input.slug, spaId })
        .returning({ id: offers.id })
        .get().id;
      if (input.serviceIds.length > 0)
        db.insert(offerServices)
          .values(input.serviceIds.map((serviceId) => ({ offerId: id, serviceId })))
          .run();
    }
    return ok({ id });
  });
}

/** Ends one of the spa's offers today: yesterday becomes its last day. False when it is not the spa's. */
export function endOffer(spaId: number, offerId: number | null, today = pacificDate()): boolean {
  const offer = findOwnerOffer(spaId, offerId);
  if (!offer) return false;
  const yesterday = addDays(today, -1);
  if (offer.validTo !== null && offer.validTo < today) return true;
  db.update(offers)
    .set({ validTo: yesterday, validFrom: offer.validFrom !== null && offer.validFrom > yesterday ? yesterday : offer.validFrom })
    .where(eq(offers.id, offer.id))
    .run();
  return true;
}
