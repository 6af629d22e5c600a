// Registering a spa (/owner/signup; spec 2, 5, 7, 8): the one flow behind
// POST /api/owner/create-spa and the form posted without JavaScript.
//
// - Essential (FREE): a listing awaiting review (pending.ts) and,
//   for a visitor who is not signed in, a sign-in link to the owner's address
//   (requestMagicLink, with its limits): confirming it proves the address and
//   hands the listing over.
// - Premium or Elite, signed in: Stripe Checkout with the listing as spaData
//   (billing/checkout.ts); the listing goes live at that tier when Stripe's
//   webhook says the checkout completed.
// - Premium or Elite, not signed in: the same listing awaiting review, and a
//   sign-in link that continues to the plan page for it once the address is
//   proved. Nobody pays for a listing before owning it.
// - Without Stripe keys a paid choice is a free listing, and the page says so.
import type Stripe from 'stripe';
import type { BillingPeriod, Tier } from '#db/schema.ts';
import { logger } from '#lib/log.ts';
import { listingDataOf, missingFields, ownerSignupSchema, SIGNUP_MESSAGES, signupInput } from '#lib/owner-signup-schema.ts';
import { startSubscriptionCheckout } from '../billing/checkout.ts';
import { fieldErrors, invalid, ok, rateLimited, type Result } from '#lib/result.ts';
import { requestMagicLink } from '../auth/magic-links.ts';
import { createPendingListing, tooManyListings } from './pending.ts';
import type { SessionUser } from '../auth/sessions.ts';

const log = logger('signup');

export interface SignupCreated {
  kind: 'created';
  spaId: number;
  tier: Tier;
  billing: BillingPeriod;
  signedIn: boolean;
  magicLinkSent: boolean;
  continueToPayment: boolean;
  paymentsUnavailable: boolean;
}

/** A listing awaiting review, or Stripe Checkout to go to; refused as `invalid` (coded missing_information when required fields are empty), `rate_limited`, or as the checkout refused. */
export type SignupOutcome = Result<SignupCreated | { kind: 'checkout'; url: string }>;

export interface SignupContext {
  user: SessionUser | null;
  clientAddress: string | null;
  origin: string;
  /** Null when payments are not configured. */
  stripe: Stripe | null;
}

/** The paragraph that opens the sign-in mail of a signup: our words only (the address is not proven yet). */
export const CLAIM_INTRO = {
  free: 'A spa was listed on our directory with this address as its owner. Sign in with the button below to claim the listing and follow its review: it stays private until our editors approve it. If this was not you, ignore this message: nothing is listed in your name.',
  paid: 'A spa was listed on our directory with this address as its owner, for a paid plan. Sign in with the button below to claim the listing and continue to payment. If this was not you, ignore this message: nothing is listed or charged in your name.',
} as const;

const tooMany = (retryAfterSeconds: number) => rateLimited(retryAfterSeconds, tooManyListings(retryAfterSeconds));

export async function registerSpa(body: unknown, context: SignupContext): Promise<SignupOutcome> {
  const { user } = context;
  const input = signupInput(body);
  // A signed-in visitor lists for themselves: their proven address is the owner's.
  if (user) input.ownerEmail = user.email;
  const missing = missingFields(input);
  const parsed = ownerSignupSchema.safeParse(input);
  if (missing.length > 0 || !parsed.success) {
    const fields = parsed.success ? {} : fieldErrors(parsed.error);
    for (const field of missing) fields[field] = SIGNUP_MESSAGES[field];
    return missing.length > 0 ? invalid(fields, SIGNUP_MESSAGES.missing.description, { code: 'missing_information' }) : invalid(fields);
  }
  const signup = parsed.data;
  const paymentsUnavailable = signup.tier !== 'FREE' && !context.stripe;
  const tier: Tier = paymentsUnavailable ? 'FREE' : signup.tier;

  if (tier !== 'FREE' && user && context.stripe) {
    // Its own limits (per account) and its own undo: a checkout that cannot open leaves no listing.
    const checkout = await startSubscriptionCheckout(user, { tier, billing: signup.billing, spaData: listingDataOf(signup) }, context.stripe, {
      origin: context.origin,
      clientAddress: context.clientAddress,
    });
    if (checkout.ok) return ok({ kind: 'checkout', url: checkout.value.url });
    if (checkout.reason === 'rate_limited') return tooMany(checkout.retryAfterSeconds);
    if (checkout.reason === 'invalid' && Object.keys(checkout.fields).length > 0) {
      return invalid(
        Object.fromEntries(Object.entries(checkout.fields).map(([key, value]) => [key.replace(/^spaData\./, '').replace(/^name$/, 'spaName'), value])),
      );
    }
    return checkout;
  }

  // The listing's limits (per client address, account and owner inbox) are counted where it is written.
  const created = createPendingListing(listingDataOf(signup), user ? { user } : { claimEmail: signup.ownerEmail }, { clientAddress: context.clientAddress });
  if (!created.ok) return created;
  const { spaId } = created.value;

  const continueToPayment = tier !== 'FREE';
  let magicLinkSent = false;
  if (!user) {
    const sent = await requestMagicLink({
      email: signup.ownerEmail,
      clientAddress: context.clientAddress,
      origin: context.origin,
      purpose: 'owner',
      intro: continueToPayment ? CLAIM_INTRO.paid : CLAIM_INTRO.free,
      ...(continueToPayment ? { next: `/subscription?spaId=${spaId}&billing=${signup.billing}` } : {}),
    });
    magicLinkSent = sent.ok;
    // The listing is stored and claimable either way: any later sign-in link to the address hands it over.
    if (!sent.ok) {
      log.warn(
        `signup: spa ${spaId} listed, but its sign-in link ${sent.reason === 'rate_limited' ? 'was rate limited' : 'could not be sent'}; the owner can ask for one at /owner/login`,
      );
    }
  }
  return ok({ kind: 'created', spaId, tier, billing: signup.billing, signedIn: Boolean(user), magicLinkSent, continueToPayment, paymentsUnavailable });
}

/** The JSON of a signup that created a listing (POST /api/owner/create-spa answers it with 201). */
export function signupJson(created: SignupCreated) {
  return {
    spaId: created.spaId,
    tier: created.tier,
    status: 'awaiting_review',
    signedIn: created.signedIn,
    magicLinkSent: created.magicLinkSent,
    continueToPayment: created.continueToPayment,
    paymentsUnavailable: created.paymentsUnavailable,
    next: '/owner/login',
  };
}
