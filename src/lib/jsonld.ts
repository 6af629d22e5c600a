// Structured data for search engines, typed with schema-dts so a wrong property
// or type fails `astro check`. Each builder takes plain data and an origin.
import type { AggregateRating, BreadcrumbList, DaySpa, ItemList, MedicalBusiness, Offer, Person, Review, WithContext } from 'schema-dts';
import { brand } from '#content/site.ts';
import { centsToDecimal } from './money.ts';
import { openingHoursSpecification, type WeeklyHours } from './opening-hours.ts';
import { httpUrl } from './urls.ts';

export interface SpaLdInput {
  name: string;
  slug: string;
  description: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  imageUrl: string | null;
  cityName: string;
  prices: number[]; // cents of its services, for priceRange
  /** Who treats clients (issue 14), published as the business's employees. */
  clinicians?: ClinicianLdInput[];
  /** Published reviews, newest first, and their summary. */
  reviews?: { count: number; average: number | null; items: ReviewLdInput[] };
  /** The weekly opening hours (as data), when listed. */
  openingHours?: WeeklyHours | null;
  /** Where a client books online (our open times, or the spa's own booking page), for its ReserveAction; none when it takes no online bookings. */
  reserveUrl?: string | null;
}

export interface ClinicianLdInput {
  name: string;
  role: 'MD' | 'DO' | 'NP' | 'PA' | 'RN';
  isMedicalDirector: boolean;
  licenseNumber: string;
  board: string;
  treatments: string[]; // display names
}

export interface ReviewLdInput {
  authorName: string;
  rating: number;
  body: string;
  createdAt: Date;
}

/** How many reviews are written out in full; the rating covers them all. */
const REVIEWS_IN_LD = 10;

/**
 * Clinicians as schema.org `employee` (Person). schema.org has no
 * medicalSpecialty on Person or on MedicalBusiness/DaySpa (only on
 * MedicalOrganization and Physician), so the treatments a person performs go
 * in `knowsAbout` and the state licence in `hasCredential`.
 */
export function employeesLd(clinicians: ClinicianLdInput[]): Person[] {
  return clinicians.map(
    (c) =>
      ({
        '@type': 'Person',
        name: c.name,
        jobTitle: c.isMedicalDirector ? `Medical Director (${c.role})` : c.role,
        hasCredential: {
          '@type': 'EducationalOccupationalCredential',
          credentialCategory: 'license',
          identifier: c.licenseNumber,
          recognizedBy: { '@type': 'Organization', name: c.board },
        },
        ...(c.treatments.length ? { knowsAbout: c.treatments } : {}),
      }) satisfies Person,
  );
}

/** AggregateRating and the newest reviews; nothing when there are none (an empty rating is invalid). */
export function reviewsLd(summary: { count: number; average: number | null; items: ReviewLdInput[] }): {
  aggregateRating?: AggregateRating;
  review?: Review[];
} {
  if (summary.count === 0 || summary.average === null) return {};
  return {
    aggregateRating: { '@type': 'AggregateRating', ratingValue: summary.average, reviewCount: summary.count, bestRating: 5, worstRating: 1 },
    review: summary.items.slice(0, REVIEWS_IN_LD).map(
      (r) =>
        ({
          '@type': 'Review',
          author: { '@type': 'Person', name: r.authorName },
          reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
          reviewBody: r.body,
          datePublished: r.createdAt.toISOString().slice(0, 10),
        }) satisfies Review,
    ),
  };
}

/** "123 Main St, Suite 4, Irvine, CA 92618" -> PostalAddress parts. */
export function splitAddress(address: string, cityName: string) {
  const match = /^(.*),\s*([^,]+),\s*CA\s*(\d{5})$/.exec(address.trim());
  return {
    '@type': 'PostalAddress' as const,
    streetAddress: match ? match[1]! : address,
    addressLocality: match ? match[2]! : cityName,
    addressRegion: 'CA',
    ...(match ? { postalCode: match[3]! } : {}),
    addressCountry: 'US',
  };
}

/** "$$" style range from service prices: under $150, $150-400, $400-800, above. */
export function priceRange(prices: number[]): string | undefined {
  const paid = prices.filter((p) => p > 0);
  if (paid.length === 0) return undefined;
  const median = [...paid].sort((a, b) => a - b)[Math.floor(paid.length / 2)]!;
  return median < 15_000 ? '$' : median < 40_000 ? '$$' : median < 80_000 ? '$$$' : '$$$$';
}

/**
 * A spa is both a MedicalBusiness and a DaySpa. schema-dts types one @type at a
 * time, so the properties are checked against each type and then published
 * with both.
 */
/** How search engines offer "Book" for a business that takes online bookings (schema.org ReserveAction). */
function reserveAction(name: string, url: string) {
  return {
    '@type': 'ReserveAction',
    target: {
      '@type': 'EntryPoint',
      urlTemplate: url,
      inLanguage: 'en-US',
      actionPlatform: ['https://schema.org/DesktopWebPlatform', 'https://schema.org/MobileWebPlatform'],
    },
    result: { '@type': 'Reservation', name: `Appointment at ${name}` },
  } as const;
}

export function spaJsonLd(spa: SpaLdInput, origin: string) {
  const url = new URL(`/spas/${spa.slug}`, origin).href;
  const range = priceRange(spa.prices);
  const properties = {
    '@id': url,
    name: spa.name,
    url,
    ...(spa.description ? { description: spa.description } : {}),
    ...(spa.imageUrl ? { image: new URL(spa.imageUrl, origin).href } : {}),
    ...(spa.phone ? { telephone: spa.phone } : {}),
    ...(httpUrl(spa.website) ? { sameAs: httpUrl(spa.website)! } : {}),
    ...(spa.address ? { address: splitAddress(spa.address, spa.cityName) } : {}),
    ...(range ? { priceRange: range } : {}),
    areaServed: { '@type': 'City' as const, name: spa.cityName },
    ...(spa.clinicians?.length ? { employee: employeesLd(spa.clinicians) } : {}),
    ...(spa.reviews ? reviewsLd(spa.reviews) : {}),
    ...(spa.openingHours ? { openingHoursSpecification: openingHoursSpecification(spa.openingHours) } : {}),
    ...(spa.reserveUrl ? { potentialAction: reserveAction(spa.name, new URL(spa.reserveUrl, origin).href) } : {}),
  };
  const medical = { '@context': 'https://schema.org', '@type': 'MedicalBusiness', ...properties } satisfies WithContext<MedicalBusiness>;
  ({ '@type': 'DaySpa', ...properties }) satisfies DaySpa;
  return { ...medical, '@type': ['MedicalBusiness', 'DaySpa'] };
}

export interface OfferLdInput {
  title: string;
  slug: string;
  description: string;
  offerPriceCents: number;
  validFrom: string | null;
  validTo: string | null;
  spaName: string;
  spaSlug: string;
  expired: boolean;
}

export function offerJsonLd(offer: OfferLdInput, origin: string): WithContext<Offer> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Offer',
    name: offer.title,
    description: offer.description,
    url: new URL(`/offers/${offer.slug}`, origin).href,
    price: centsToDecimal(offer.offerPriceCents),
    priceCurrency: 'USD',
    ...(offer.validFrom ? { validFrom: offer.validFrom } : {}),
    ...(offer.validTo ? { validThrough: offer.validTo } : {}),
    availability: offer.expired ? 'https://schema.org/Discontinued' : 'https://schema.org/InStock',
    offeredBy: { '@type': 'MedicalBusiness', name: offer.spaName, url: new URL(`/spas/${offer.spaSlug}`, origin).href },
  };
}

export function itemListJsonLd(name: string, items: { name: string; path: string }[], origin: string): WithContext<ItemList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name,
    numberOfItems: items.length,
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      url: new URL(item.path, origin).href,
    })),
  };
}

export function breadcrumbJsonLd(trail: { name: string; path: string }[], origin: string): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [{ name: brand.shortName, path: '/' }, ...trail].map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: new URL(crumb.path, origin).href,
    })),
  };
}

/** JSON for a <script type="application/ld+json">: `<` is escaped so no text can close the tag. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
