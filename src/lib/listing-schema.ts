// What an owner or an editor may write into the directory: the spa's listing,
// its services and its offers. One schema per form, shared by the page that
// takes the plain HTML post and the server module that saves it; the tier
// rules are pure functions beside them, so tests can name every rule.
// Messages the spec quotes (spec 5) are used verbatim.
import { z } from 'zod';
import { SERVICE_CATEGORIES, SOCIAL_PLATFORMS, type Tier } from '#db/schema.ts';
import { treatments } from '#content/site.ts';
import { toCalendarDate } from './booking-schema.ts';
import { decimalToCents } from './money.ts';
import { SLUG_PATTERN } from './slug.ts';
import { featuresOf } from './tiers.ts';
import { httpUrl, withWebScheme } from './urls.ts';

export const LISTING_MESSAGES = {
  spaName: 'Spa name is required',
  slug: 'Slug is required',
  slugShape: 'Use lowercase letters, numbers and hyphens only',
  url: 'Valid URL is required',
  email: 'Valid email is required',
  phone: 'Enter a valid phone number',
  platform: 'Choose the platform of the social feed',
  offerTitle: 'Offer title is required',
  description: 'Description is required',
  serviceName: 'Service name is required',
  price: 'Enter the all-in price in dollars, e.g. 150 or 149.50',
  duration: 'Enter the duration in whole minutes (5 to 600)',
  category: 'Choose a category',
  offerPrice: 'The offer price cannot be more than the original price',
  date: 'Enter a valid date',
  dateOrder: 'The end date cannot be before the start date',
} as const;

export const LISTING_LIMITS = {
  name: 200,
  description: 5_000,
  address: 300,
  phone: 40,
  url: 500,
  slug: 80,
  serviceName: 255,
  serviceDescription: 1_000,
  offerTitle: 200,
  offerDescription: 2_000,
} as const;

/** What a price is for when it is not the whole treatment (SB 478: units stated where they matter). */
export const PRICE_UNITS = ['per unit', 'per syringe', 'per vial', 'per area', 'per session', 'per treatment'] as const;

// Control characters have no business in a listing; lone surrogates are not text.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const SINGLE_LINE = /[\r\n\u2028\u2029]/;
const isClean = (value: string) => value.isWellFormed() && !CONTROL.test(value);

/** Required single-line text. */
const line = (max: number, required: string) =>
  z
    .string(required)
    .trim()
    .min(1, required)
    .max(max, `At most ${max} characters`)
    .refine(isClean, 'Contains characters that are not allowed')
    .refine((value) => !SINGLE_LINE.test(value), 'Must be on one line');

/** Optional text: absent and blank mean "not given" (null, so a blank field clears the stored value). */
const optional = (max: number, message = `At most ${max} characters`, check: (value: string) => boolean = () => true, multiline = false) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .refine(isClean, 'Contains characters that are not allowed')
    .refine((value) => multiline || !SINGLE_LINE.test(value), 'Must be on one line')
    .refine((value) => value === '' || check(value), message)
    .transform((value) => (multiline ? value.replace(/\r\n?/g, '\n') : value) || null)
    .optional()
    .transform((value) => value ?? null);

/** An http(s) address or nothing: every URL a user gives is http(s) or refused. */
const optionalUrl = optional(LISTING_LIMITS.url, LISTING_MESSAGES.url, (value) => httpUrl(value) !== null);
/** An address an owner types for their own pages: a bare host ("glow.example") means https:// (issue 26). */
const ownerUrl = z.preprocess((value) => (typeof value === 'string' ? withWebScheme(value) : value), optionalUrl);

const phoneDigits = (value: string) => {
  const digits = value.replace(/\D/g, '').length;
  return /^[0-9+().\-\s]+$/.test(value) && digits >= 7 && digits <= 15;
};
const isEmail = (value: string) => z.email().safeParse(value).success;

const slug = z
  .string(LISTING_MESSAGES.slug)
  .trim()
  .toLowerCase()
  .min(1, LISTING_MESSAGES.slug)
  .max(LISTING_LIMITS.slug, `At most ${LISTING_LIMITS.slug} characters`)
  .regex(SLUG_PATTERN, LISTING_MESSAGES.slugShape);

/** Which platform a feed address is on, when its host says so. */
export function platformOf(url: string | null): (typeof SOCIAL_PLATFORMS)[number] | null {
  if (!url || !httpUrl(url)) return null;
  const host = new URL(url).hostname.replace(/^(www|m)\./, '');
  if (host === 'instagram.com') return 'instagram';
  if (host === 'tiktok.com') return 'tiktok';
  if (host === 'youtube.com' || host === 'youtu.be') return 'youtube';
  return null;
}

/**
 * The listing editor's fields. Opening hours are data of their own, set on the
 * availability page (src/lib/availability-schema.ts).
 */
export const listingSchema = z
  .object({
    name: line(LISTING_LIMITS.name, LISTING_MESSAGES.spaName),
    slug,
    description: optional(LISTING_LIMITS.description, undefined, undefined, true),
    address: optional(LISTING_LIMITS.address),
    phone: optional(LISTING_LIMITS.phone, LISTING_MESSAGES.phone, phoneDigits),
    email: optional(254, LISTING_MESSAGES.email, isEmail).transform((value) => value?.toLowerCase() ?? null),
    website: ownerUrl,
    bookingLink: ownerUrl,
    socialFeedUrl: ownerUrl,
    socialPlatform: z
      .string()
      .trim()
      .refine((value) => value === '' || (SOCIAL_PLATFORMS as readonly string[]).includes(value), LISTING_MESSAGES.platform)
      .optional(),
    videoUrl: ownerUrl,
  })
  .transform(({ socialPlatform, ...rest }, context) => {
    // The platform names the feed's icon and words; read it from the address when not chosen.
    const platform = rest.socialFeedUrl ? socialPlatform || platformOf(rest.socialFeedUrl) : null;
    if (rest.socialFeedUrl && !platform) {
      context.addIssue({ code: 'custom', path: ['socialPlatform'], message: LISTING_MESSAGES.platform });
      return z.NEVER;
    }
    return { ...rest, socialPlatform: platform as (typeof SOCIAL_PLATFORMS)[number] | null };
  });

export type ListingInput = z.output<typeof listingSchema>;

/** A listing's fields as the form sends them (strings), from its stored row. */
export type ListingFormValues = Record<string, string>;

/** The form's field names, in the order the listing editor shows them (its first field in error takes the focus). */
export const LISTING_FIELDS = [
  'name',
  'slug',
  'description',
  'address',
  'phone',
  'email',
  'website',
  'bookingLink',
  'socialFeedUrl',
  'socialPlatform',
  'videoUrl',
] as const;

/** The flat form values in the nested shape the schema reads. */
export function listingFromForm(values: ListingFormValues) {
  const { name, slug, description, address, phone, email, website, bookingLink, socialFeedUrl, socialPlatform, videoUrl } = values;
  return {
    name,
    slug,
    description,
    address,
    phone,
    email,
    website,
    bookingLink,
    socialFeedUrl,
    socialPlatform,
    videoUrl,
  };
}

// ---------------------------------------------------------------------------
// Tier rules (spec 3, tier feature table): refused on save, not only hidden.
// A value the listing already holds may stay (a downgrade keeps the data; the
// pages stop showing it), so only a new or changed value breaks a rule.
// ---------------------------------------------------------------------------

export const TIER_RULE_MESSAGES = {
  bookingLink: 'A booking link is part of the Premium and Elite plans. Upgrade to add or change one.',
  socialFeedUrl: 'A social feed is part of the Premium and Elite plans. Upgrade to add or change one.',
  videoUrl: 'A video spotlight is part of the Elite plan. Upgrade to add or change one.',
  featured: 'Featuring an offer is part of the Premium and Elite plans.',
} as const;

type ExtraField = 'bookingLink' | 'socialFeedUrl' | 'videoUrl';
const FEATURE_OF: Record<ExtraField, 'bookingLink' | 'socialFeed' | 'video'> = { bookingLink: 'bookingLink', socialFeedUrl: 'socialFeed', videoUrl: 'video' };

/** May this tier use the field at all? For the form: fields a tier lacks are shown locked. */
export const tierAllows = (tier: Tier, field: ExtraField) => featuresOf(tier)[FEATURE_OF[field]];

/** The rules a listing change breaks, field by field (empty when it breaks none). */
export function listingTierViolations(tier: Tier, next: Pick<ListingInput, ExtraField>, current: Pick<ListingInput, ExtraField>): Record<string, string> {
  const violations: Record<string, string> = {};
  for (const field of Object.keys(FEATURE_OF) as ExtraField[]) {
    if (next[field] !== null && next[field] !== current[field] && !tierAllows(tier, field)) violations[field] = TIER_RULE_MESSAGES[field];
  }
  return violations;
}

/** Featuring an offer (newly) needs featured placement; an offer featured before a downgrade may stay so in the data. */
export function offerTierViolations(tier: Tier, next: { featured: boolean }, current: { featured: boolean } | null): Record<string, string> {
  return next.featured && !current?.featured && !featuresOf(tier).featuredPlacement ? { featured: TIER_RULE_MESSAGES.featured } : {};
}

// ---------------------------------------------------------------------------
// Services and offers
// ---------------------------------------------------------------------------

/** Dollars as typed ("150", "$1,250.50") to cents; SB 478: this is the full price. */
const price = (message: string) =>
  z
    .string(message)
    .trim()
    .transform((value, context) => {
      const plain = value.replace(/^\$/, '').replace(/,(?=\d{3}(?:\D|$))/g, '');
      try {
        const cents = plain === '' ? Number.NaN : decimalToCents(plain);
        if (Number.isSafeInteger(cents) && cents >= 0 && cents <= 100_000_000) return cents;
      } catch {
        /* reported below */
      }
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

export const serviceSchema = z.object({
  name: line(LISTING_LIMITS.serviceName, LISTING_MESSAGES.serviceName),
  description: optional(LISTING_LIMITS.serviceDescription, undefined, undefined, true),
  priceCents: price(LISTING_MESSAGES.price),
  priceUnit: z
    .string()
    .trim()
    .refine((value) => value === '' || (PRICE_UNITS as readonly string[]).includes(value), 'Choose a unit from the list')
    .optional()
    .transform((value) => value || null),
  duration: z
    .string(LISTING_MESSAGES.duration)
    .trim()
    .regex(/^\d{1,3}$/, LISTING_MESSAGES.duration)
    .transform(Number)
    .refine((minutes) => minutes >= 5 && minutes <= 600, LISTING_MESSAGES.duration),
  category: z.enum(SERVICE_CATEGORIES, LISTING_MESSAGES.category),
  treatment: z
    .string()
    .trim()
    .refine((value) => value === '' || treatments.some((t) => t.slug === value), 'Choose a treatment from the list')
    .optional()
    .transform((value) => value || null),
});

export const SERVICE_FIELDS = ['name', 'description', 'price', 'priceUnit', 'duration', 'category', 'treatment'] as const;

export const serviceFromForm = (values: Record<string, string>) => ({ ...values, priceCents: values.price });

const calendarDate = z
  .string()
  .trim()
  .transform((value, context) => {
    if (value === '') return null;
    const date = toCalendarDate(value);
    if (date === value) return date;
    context.addIssue({ code: 'custom', message: LISTING_MESSAGES.date });
    return z.NEVER;
  })
  .optional()
  .transform((value) => value ?? null);

export const offerSchema = z
  .object({
    title: line(LISTING_LIMITS.offerTitle, LISTING_MESSAGES.offerTitle),
    slug,
    description: z
      .string(LISTING_MESSAGES.description)
      .trim()
      .min(1, LISTING_MESSAGES.description)
      .max(LISTING_LIMITS.offerDescription, `At most ${LISTING_LIMITS.offerDescription} characters`)
      .refine(isClean, 'Contains characters that are not allowed')
      .transform((value) => value.replace(/\r\n?/g, '\n')),
    originalPriceCents: price(LISTING_MESSAGES.price),
    offerPriceCents: price(LISTING_MESSAGES.price),
    validFrom: calendarDate,
    validTo: calendarDate,
    serviceIds: z
      .array(
        z
          .string()
          .regex(/^[1-9]\d{0,9}$/, 'Choose services from the list')
          .transform(Number),
      )
      .max(50),
    imageUrl: optionalUrl,
    featured: z.boolean(),
  })
  .superRefine((offer, context) => {
    if (offer.offerPriceCents > offer.originalPriceCents) context.addIssue({ code: 'custom', path: ['offerPrice'], message: LISTING_MESSAGES.offerPrice });
    if (offer.validFrom && offer.validTo && offer.validTo < offer.validFrom)
      context.addIssue({ code: 'custom', path: ['validTo'], message: LISTING_MESSAGES.dateOrder });
  });

export const OFFER_FIELDS = ['title', 'slug', 'description', 'originalPrice', 'offerPrice', 'validFrom', 'validTo', 'imageUrl'] as const;

/** The form's values (serviceIds repeated, featured a checkbox) in the schema's shape. */
export const offerFromForm = (values: Record<string, string>, serviceIds: string[], featured: boolean) => ({
  ...values,
  originalPriceCents: values.originalPrice,
  offerPriceCents: values.offerPrice,
  serviceIds: [...new Set(serviceIds)],
  featured,
});

/** Error keys of the schema mapped to the form's field names. */
export function formFieldOf(key: string): string {
  if (key === 'priceCents') return 'price';
  if (key === 'originalPriceCents') return 'originalPrice';
  if (key === 'offerPriceCents') return 'offerPrice';
  if (key.startsWith('serviceIds')) return 'serviceIds';
  return key;
}
