// Read queries for the public directory, used at build time by pre-rendered
// pages and at request time by /search-results and the JSON API.
import { and, asc, count, desc, eq, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { cities, clinicians, offerServices, offers, reviews, services, siteMeta, spaPhotos, spas, TIER_WEIGHT_SQL } from '#db/schema.ts';
import { RESULTS_PER_PAGE, type SearchQuery } from '#lib/search.ts';
import { db } from '../db.ts';
import { columnsOf } from '../db-helpers.ts';
import { nextOpenLabel, nextOpenTimes, thisWeekEnd } from '../availability/next-open.ts';

/** Tier weight, then newest (spec 9: ELITE 3, PREMIUM 2, FREE 1). */
// The same expression as the spas_rank_idx index, so SQLite reads results in
// order from the index instead of sorting them.
export const tierOrder = [desc(TIER_WEIGHT_SQL), desc(spas.createdAt), desc(spas.id)];

// Featured placement is a Premium and Elite feature (spec 3): a flag set while
// the spa paid stays in the data after a downgrade, but no page, card, filter
// or JSON answer treats the spa (or its offers) as featured until it pays again.
const PAID_TIER = sql`${spas.tier} in ('PREMIUM', 'ELITE')`;
const spaFeatured = sql<boolean>`(${spas.featured} = 1 and ${PAID_TIER})`.mapWith(Boolean);
const offerFeatured = sql<boolean>`(${offers.featured} = 1 and ${PAID_TIER})`.mapWith(Boolean);

// Who treats you (issue 14): a medical director is listed; every listed
// licence, the director's included, has been checked by an editor.
const hasMedicalDirector = sql<number>`exists (select 1 from ${clinicians} where ${clinicians.spaId} = ${spas.id} and ${clinicians.isMedicalDirector} = 1)`;
const licencesChecked = sql<number>`(exists (select 1 from ${clinicians} where ${clinicians.spaId} = ${spas.id} and ${clinicians.isMedicalDirector} = 1 and ${clinicians.licenseCheckedAt} is not null)
  and not exists (select 1 from ${clinicians} where ${clinicians.spaId} = ${spas.id} and ${clinicians.licenseCheckedAt} is null))`;
const publishedReviews = sql`from ${reviews} where ${reviews.spaId} = ${spas.id} and ${reviews.state} = 'published'`;

/** Everything a spa card shows (spec 2, Spa card), with its city. */
const spaCardColumns = {
  id: spas.id,
  name: spas.name,
  slug: spas.slug,
  description: spas.description,
  address: spas.address,
  phone: spas.phone,
  email: spas.email,
  website: spas.website,
  imageUrl: spas.imageUrl,
  bookingLink: spas.bookingLink,
  socialFeedUrl: spas.socialFeedUrl,
  socialPlatform: spas.socialPlatform,
  videoUrl: spas.videoUrl,
  tier: spas.tier,
  featured: spaFeatured,
  verified: spas.verified,
  createdAt: spas.createdAt,
  cityId: spas.cityId,
  cityName: cities.name,
  citySlug: cities.slug,
  bookingMode: spas.bookingMode,
  hasMedicalDirector: sql<boolean>`${hasMedicalDirector}`.mapWith(Boolean),
  licencesChecked: sql<boolean>`${licencesChecked}`.mapWith(Boolean),
  reviewCount: sql<number>`(select count(*) ${publishedReviews})`.mapWith(Number),
  ratingAverage: sql<number | null>`(select round(avg(${reviews.rating}), 1) ${publishedReviews})`,
};

const spaCards = () => db.select(spaCardColumns).from(spas).innerJoin(cities, eq(spas.cityId, cities.id));

/**
 * Remembers a query's answer until listed content changes (the triggers bump
 * site_meta.content_version): the search page asks for the same filter options
 * on every request.
 */
function untilContentChanges<T>(compute: () => T): () => T {
  let version = -1;
  let value: T;
  return () => {
    const current = db.select({ v: siteMeta.contentVersion }).from(siteMeta).get()?.v ?? 0;
    if (current !== version) {
      value = compute();
      version = current;
    }
    return value;
  };
}

export function listCities() {
  return db.select().from(cities).where(eq(cities.active, true)).orderBy(asc(cities.id)).all();
}

/** The cities an owner may choose for a listing, by name (signup, "Add New Spa"). */
export function listCityOptions() {
  return db.select({ id: cities.id, name: cities.name }).from(cities).where(eq(cities.active, true)).orderBy(asc(cities.name)).all();
}

/** The spa a visitor may book: listed on the public site. */
export function findListedSpa(id: number) {
  return db
    .select({ id: spas.id, name: spas.name })
    .from(spas)
    .where(and(eq(spas.id, id), eq(spas.active, true)))
    .get();
}

export function listActiveSpas() {
  return db
    .select({ spa: spas, city: { name: cities.name, slug: cities.slug } })
    .from(spas)
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .where(eq(spas.active, true))
    .orderBy(...tierOrder)
    .all();
}

/**
 * A spa offers a treatment when one of its active services is that treatment
 * or has that name. Written as IN (...) so SQLite finds the services through
 * the treatment and lower(name) indexes once, instead of per spa.
 */
function offersService(term: string): SQL {
  return sql`${spas.id} in (select ${services.spaId} from ${services} where ${services.active} = 1
    and (${services.treatment} = ${term} or lower(${services.name}) = ${term}))`;
}

/** A card in search results: the spa, and its next open time when it publishes its availability (issue 24). */
export type SearchCard = SpaCardData & { nextOpen?: string };

/** The cards with their next open time (of the searched treatment, when one is), for spas that take online bookings. */
function withNextOpen(rows: SpaCardData[], term: string | undefined, now: number, known?: Map<number, number>): SearchCard[] {
  const next =
    known ??
    nextOpenTimes(
      rows.filter((row) => row.bookingMode !== 'none').map((row) => row.id),
      term,
      now,
    );
  return rows.map((row) => {
    const at = next.get(row.id);
    return at === undefined ? row : { ...row, nextOpen: nextOpenLabel(at, now) };
  });
}

export function searchSpas(query: SearchQuery, now = Date.now()): { spas: SearchCard[]; total: number; page: number; pages: number } {
  const where = and(
    eq(spas.active, true),
    query.city ? eq(cities.slug, query.city) : undefined,
    query.service ? offersService(query.service) : undefined,
    query.tier ? eq(spas.tier, query.tier) : undefined,
    query.featured !== undefined ? (query.featured ? spaFeatured : sql`not ${spaFeatured}`) : undefined,
    query.trust === 'director' ? hasMedicalDirector : query.trust === 'checked' ? licencesChecked : undefined,
  );
  if (query.available || query.sort) return searchByOpenTimes(query, where, now);
  const total = db.select({ n: count() }).from(spas).innerJoin(cities, eq(spas.cityId, cities.id)).where(where).get()?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / RESULTS_PER_PAGE));
  const page = Math.min(query.page, pages);
  const rows = spaCards()
    .where(where)
    .orderBy(...tierOrder)
    .limit(RESULTS_PER_PAGE)
    .offset((page - 1) * RESULTS_PER_PAGE)
    .all();
  return { spas: withNextOpen(rows, query.service, now), total, page, pages };
}

/**
 * "Available this week" and "next available first" (issue 24). Only spas that
 * take online bookings can have an open time: those matching the search are
 * asked for theirs (kept about a minute per spa, next-open.ts), filtered and
 * sorted (soonest first; equal times keep the tier order). Sorted without the
 * filter, every other matching spa follows in tier order, read a page at a
 * time by SQL, so a large directory costs no more than its bookable spas.
 */
function searchByOpenTimes(query: SearchQuery, where: SQL | undefined, now: number) {
  const candidates = db
    .select({ id: spas.id })
    .from(spas)
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .where(and(where, ne(spas.bookingMode, 'none')))
    .orderBy(...tierOrder)
    .all()
    .map((row) => row.id);
  const next = nextOpenTimes(candidates, query.service, now);
  let timed = candidates.filter((id) => next.has(id));
  if (query.available === 'week') {
    const end = thisWeekEnd(now);
    timed = timed.filter((id) => next.get(id)! < end);
  }
  // Array.prototype.sort is stable: equal times keep the tier order.
  if (query.sort === 'next') timed = [...timed].sort((a, b) => next.get(a)! - next.get(b)!);
  const total =
    query.available === 'week' ? timed.length : (db.select({ n: count() }).from(spas).innerJoin(cities, eq(spas.cityId, cities.id)).where(where).get()?.n ?? 0);
  const pages = Math.max(1, Math.ceil(total / RESULTS_PER_PAGE));
  const page = Math.min(query.page, pages);
  const first = (page - 1) * RESULTS_PER_PAGE;
  const shown = timed.slice(first, first + RESULTS_PER_PAGE);
  if (query.available !== 'week' && shown.length < RESULTS_PER_PAGE) {
    const rest = db
      .select({ id: spas.id })
      .from(spas)
      .innerJoin(cities, eq(spas.cityId, cities.id))
      .where(and(where, timed.length ? notInArray(spas.id, timed) : undefined))
      .orderBy(...tierOrder)
      .limit(RESULTS_PER_PAGE - shown.length)
      .offset(Math.max(0, first - timed.length))
      .all();
    shown.push(...rest.map((row) => row.id));
  }
  const cards = new Map((shown.length ? spaCards().where(inArray(spas.id, shown)).all() : []).map((card) => [card.id, card]));
  return {
    spas: withNextOpen(
      shown.map((id) => cards.get(id)!),
      query.service,
      now,
      next,
    ),
    total,
    page,
    pages,
  };
}

/** Every active spa as a card, tier then newest (the JSON API's list, GET /api/spas). */
export function listActiveSpaCards() {
  return spaCards()
    .where(eq(spas.active, true))
    .orderBy(...tierOrder)
    .all();
}

const inCity = (cityId: number, treatment?: string) => and(eq(spas.cityId, cityId), eq(spas.active, true), treatment ? offersService(treatment) : undefined);

/** Spas in one city (optionally offering one treatment), tier order; the first `limit` when given. */
export function listSpasInCity(cityId: number, treatment?: string, limit?: number) {
  const query = spaCards()
    .where(inCity(cityId, treatment))
    .orderBy(...tierOrder);
  return limit ? query.limit(limit).all() : query.all();
}

export function countSpasInCity(cityId: number, treatment?: string): number {
  return db.select({ n: count() }).from(spas).where(inCity(cityId, treatment)).get()?.n ?? 0;
}

/**
 * The Services screen's featured spas (spec 2, Services): up to `limit` active
 * Premium and Elite spas, tier then newest. Featured placement is what those
 * tiers pay for, so the admin's featured flag is not required here.
 */
export function listFeaturedSpas(limit = 6) {
  return spaCards()
    .where(and(eq(spas.active, true), inArray(spas.tier, ['PREMIUM', 'ELITE'])))
    .orderBy(...tierOrder)
    .limit(limit)
    .all();
}

/** The home page's Elite spotlight. */
export function listEliteSpas() {
  return spaCards()
    .where(and(eq(spas.active, true), eq(spas.tier, 'ELITE')))
    .orderBy(...tierOrder)
    .all();
}

export function getSpa(slug: string) {
  const spa = spaCards()
    .where(and(eq(spas.slug, slug), eq(spas.active, true)))
    .get();
  if (!spa) return undefined;
  const full = db.select({ openingHours: spas.openingHours, hoursNote: spas.hoursNote }).from(spas).where(eq(spas.id, spa.id)).get();
  return { ...spa, openingHours: full?.openingHours ?? null, hoursNote: full?.hoursNote ?? null };
}

export function listSpaPhotos(spaId: number) {
  return db.select().from(spaPhotos).where(eq(spaPhotos.spaId, spaId)).orderBy(asc(spaPhotos.position)).all();
}

export function listSpaServices(spaId: number) {
  return db
    .select()
    .from(services)
    .where(and(eq(services.spaId, spaId), eq(services.active, true)))
    .orderBy(asc(services.category), asc(services.name))
    .all();
}

const serviceWithSpaColumns = {
  id: services.id,
  name: services.name,
  description: services.description,
  priceCents: services.priceCents,
  priceUnit: services.priceUnit,
  duration: services.duration,
  category: services.category,
  treatment: services.treatment,
  imageUrl: services.imageUrl,
  spaId: spas.id,
  spaName: spas.name,
  spaSlug: spas.slug,
  cityName: cities.name,
  /** Whether a client can book an open time of it (issue 24): the spa publishes its availability and the service is bookable online. */
  opensOnline: sql<boolean>`(${spas.bookingMode} <> 'none' and ${services.bookableOnline} = 1)`.mapWith(Boolean),
};

const activeServices = (condition?: SQL) =>
  db
    .select(serviceWithSpaColumns)
    .from(services)
    .innerJoin(spas, eq(services.spaId, spas.id))
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .where(and(eq(services.active, true), eq(spas.active, true), condition));

/** Every active service of an active spa, grouped by category, best-listed spas first. */
export function listServices() {
  return activeServices()
    .orderBy(asc(services.category), ...tierOrder, asc(services.name))
    .all();
}

export function getService(id: number) {
  return activeServices(eq(services.id, id)).get();
}

export const cachedCities = untilContentChanges(() => listCities());
export const cachedServiceNames = untilContentChanges(() => listServiceNames());

/** Distinct service names, for the treatment filter. */
export function listServiceNames(): string[] {
  return db
    .selectDistinct({ name: sql<string>`lower(${services.name})` })
    .from(services)
    .where(eq(services.active, true))
    .orderBy(sql`lower(${services.name})`)
    .all()
    .map((row) => row.name);
}

/** The lowest price of each treatment (with its unit), county-wide or in one city, for "from $X". */
export function lowestTreatmentPrices(cityId?: number): Map<string, { cents: number; unit: string | null }> {
  const rows = db
    .select({ treatment: services.treatment, cents: services.priceCents, unit: services.priceUnit })
    .from(services)
    .innerJoin(spas, eq(services.spaId, spas.id))
    .where(
      and(
        eq(spas.active, true),
        eq(services.active, true),
        sql`${services.treatment} is not null and ${services.priceCents} > 0`,
        cityId ? eq(spas.cityId, cityId) : undefined,
      ),
    )
    .all();
  const lowest = new Map<string, { cents: number; unit: string | null }>();
  for (const row of rows) {
    const current = lowest.get(row.treatment!);
    if (!current || row.cents < current.cents) lowest.set(row.treatment!, { cents: row.cents, unit: row.unit });
  }
  return lowest;
}

const offerColumns = {
  ...columnsOf(offers, 'id', 'title', 'slug', 'description', 'originalPriceCents', 'offerPriceCents', 'savingsCents', 'validFrom', 'validTo', 'imageUrl'),
  featured: offerFeatured,
  cityId: offers.cityId,
  spaId: offers.spaId,
  spaName: spas.name,
  spaSlug: spas.slug,
  spaTier: spas.tier,
  cityName: cities.name,
  citySlug: cities.slug,
};

const activeOffers = () => db.select(offerColumns).from(offers).innerJoin(spas, eq(offers.spaId, spas.id)).innerJoin(cities, eq(offers.cityId, cities.id));

const offerIsListed = and(eq(offers.active, true), eq(spas.active, true));
// Featured first, then by end date (soonest first; open-ended last). Pages that
// separate ended offers from current ones do so themselves.
const offerOrder = [desc(offerFeatured), asc(sql`coalesce(${offers.validTo}, '9999-12-31')`), asc(offers.id)];

export function listOffers(filter: { cityId?: number; spaId?: number } = {}) {
  return activeOffers()
    .where(and(offerIsListed, filter.cityId ? eq(offers.cityId, filter.cityId) : undefined, filter.spaId ? eq(offers.spaId, filter.spaId) : undefined))
    .orderBy(...offerOrder)
    .all();
}

/** Offers that have not ended by `today` (or never end). */
export function listCurrentOffers(today: string, filter: { cityId?: number; spaId?: number } = {}) {
  return activeOffers()
    .where(
      and(
        offerIsListed,
        or(isNull(offers.validTo), sql`${offers.validTo} >= ${today}`),
        filter.cityId ? eq(offers.cityId, filter.cityId) : undefined,
        filter.spaId ? eq(offers.spaId, filter.spaId) : undefined,
      ),
    )
    .orderBy(...offerOrder)
    .all();
}

export function listOfferServices(offerId: number) {
  return db
    .select({
      id: services.id,
      name: services.name,
      priceCents: services.priceCents,
      priceUnit: services.priceUnit,
      duration: services.duration,
      category: services.category,
    })
    .from(offerServices)
    .innerJoin(services, eq(offerServices.serviceId, services.id))
    .where(and(eq(offerServices.offerId, offerId), eq(services.active, true)))
    .all();
}

/** serviceIds of every listed offer, for the API (spec 3, offers.serviceIds). */
export function offerServiceIds(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const row of db.select().from(offerServices).all()) {
    map.set(row.offerId, [...(map.get(row.offerId) ?? []), row.serviceId]);
  }
  return map;
}

export type SpaCardData = ReturnType<typeof listEliteSpas>[number];
export type ServiceCardData = ReturnType<typeof listServices>[number];
export type OfferCardData = ReturnType<typeof listOffers>[number];
