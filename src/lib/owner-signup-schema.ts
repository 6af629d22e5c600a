// The spa registration form of /owner/signup (spec 2, 5): one set of field
// rules for the form island, the no-JavaScript post, POST /api/owner/create-spa
// and the `spaData` of POST /api/stripe/checkout. Written with zod/mini,
// because the form ships it to browsers.
import * as z from 'zod/mini';
import type { BillingPeriod, Tier } from '#db/schema.ts';
import { emailAddress } from './auth-schemas.ts';
import { httpUrl, withWebScheme } from './urls.ts';

export const SIGNUP_MESSAGES = {
  /** The toast when a required field is empty (spec 5), title and description. */
  missing: { title: 'Missing Information', description: 'Please fill in all required fields.' },
  /** Any failure to create the listing or start checkout (spec 8). */
  failed: { title: 'Error', description: 'Failed to create spa listing. Please try again.' },
  /** The free path's success toast (spec 8); the page moves on to /owner/login after 2 s. */
  success: { title: 'Success!' },
  spaName: 'Spa name is required',
  ownerEmail: 'Valid email is required',
  email: 'Valid email is required',
  cityId: 'Choose a city',
  website: 'Enter a web address starting with http:// or https://',
  phone: 'Enter a valid phone number',
} as const;

/** The fields without which nothing is created (spec 5). */
export const REQUIRED_FIELDS = ['spaName', 'ownerEmail', 'cityId'] as const;

export const SIGNUP_LIMITS = { name: 200, description: 5_000, address: 300, phone: 40, website: 500 } as const;

// Control characters have no business in a listing, lone surrogates are not text.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const clean = (message: string) => z.refine<string>((value) => value.isWellFormed() && !CONTROL.test(value), message);

/** Optional text: absent, null and blank all mean "not given". */
function optionalText(max: number, message = `At most ${max} characters`, checks: ((value: string) => boolean)[] = []) {
  return z.optional(
    z.nullable(
      z.pipe(
        z.string(message).check(z.trim(), z.maxLength(max, `At most ${max} characters`), clean(message), ...checks.map((fn) => z.refine<string>(fn, message))),
        z.transform((value) => value || undefined),
      ),
    ),
  );
}

const name = z
  .string(SIGNUP_MESSAGES.spaName)
  .check(
    z.trim(),
    z.minLength(1, SIGNUP_MESSAGES.spaName),
    z.maxLength(SIGNUP_LIMITS.name, `At most ${SIGNUP_LIMITS.name} characters`),
    clean(SIGNUP_MESSAGES.spaName),
  );

/** A select sends text, a script a number: both mean a city id. */
const cityId = z.pipe(
  z.unknown(),
  z.transform((value, context) => {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (!/^[1-9]\d{0,8}$/.test(text)) {
      context.issues.push({ code: 'custom', message: SIGNUP_MESSAGES.cityId, input: value });
      return z.NEVER;
    }
    return Number(text);
  }),
);

/** The spa's own address for clients: optional, but a real one when given. */
const spaEmail = z.optional(
  z.nullable(
    z.pipe(
      z.string(SIGNUP_MESSAGES.email).check(
        z.trim(),
        z.maxLength(254, SIGNUP_MESSAGES.email),
        z.refine((value) => value === '' || emailAddress.safeParse(value).success, SIGNUP_MESSAGES.email),
      ),
      z.transform((value) => value.toLowerCase() || undefined),
    ),
  ),
);

const phoneDigits = (value: string) => {
  if (value === '') return true;
  const digits = value.replace(/\D/g, '').length;
  return /^[0-9+().\-\s]+$/.test(value) && digits >= 7 && digits <= 15;
};
const phone = optionalText(SIGNUP_LIMITS.phone, SIGNUP_MESSAGES.phone, [phoneDigits]);
// Every URL a user gives is http(s) or refused (it ends up in an href).
// A bare host ("glow.example") is read as https:// (issue 26).
const website = z.pipe(
  z.transform((value: unknown) => (typeof value === 'string' ? withWebScheme(value) : value)),
  optionalText(SIGNUP_LIMITS.website, SIGNUP_MESSAGES.website, [(value) => value === '' || httpUrl(value) !== null]),
);

const listingFields = {
  description: optionalText(SIGNUP_LIMITS.description),
  address: optionalText(SIGNUP_LIMITS.address),
  phone,
  email: spaEmail,
  website,
  cityId,
};

/** The listing itself, as POST /api/stripe/checkout's `spaData` carries it (spec 7). */
export const listingDataSchema = z.object({ name, ...listingFields });
export type ListingData = z.output<typeof listingDataSchema>;

/** PREMIUM or ELITE from the query or the form; anything else is FREE (spec 5). */
export function parseSignupTier(value: unknown): Tier {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return upper === 'PREMIUM' || upper === 'ELITE' ? upper : 'FREE';
}

/** monthly, or annual (the spec's client says yearly); anything else is monthly. */
export function parseSignupBilling(value: unknown): BillingPeriod {
  return value === 'annual' || value === 'yearly' ? 'annual' : 'monthly';
}

/** The registration form (spec 2, Owner signup) and POST /api/owner/create-spa. */
export const ownerSignupSchema = z.object({
  spaName: name,
  ...listingFields,
  ownerEmail: emailAddress,
  tier: z.pipe(z.optional(z.unknown()), z.transform(parseSignupTier)),
  billing: z.pipe(z.optional(z.unknown()), z.transform(parseSignupBilling)),
});
export type OwnerSignup = z.output<typeof ownerSignupSchema>;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The required fields left empty: any of them means "Missing Information". */
export function missingFields(input: Record<string, unknown>): (typeof REQUIRED_FIELDS)[number][] {
  return REQUIRED_FIELDS.filter((field) => blank(input[field]));
}

/**
 * A payload as the spec's client may send it: `name` for the spa's name
 * (spec 7's create-spa call) is read as `spaName`.
 */
export function signupInput(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const input = { ...(body as Record<string, unknown>) };
  if (input.spaName === undefined && input.name !== undefined) input.spaName = input.name;
  delete input.name;
  return input;
}

/** The spaData of a paid signup, from a parsed form. */
export function listingDataOf(signup: OwnerSignup): ListingData {
  return {
    name: signup.spaName,
    description: signup.description,
    address: signup.address,
    phone: signup.phone,
    email: signup.email,
    website: signup.website,
    cityId: signup.cityId,
  };
}
