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
import { fieldErrors } from '../http.ts';
import { requestMagicLink } from '../auth/magic-links.ts';
import { allowSignup, createPendingListing } from './pending.ts';
import type { SessionUser } from '../auth/sessions.ts';

const log = logger('signup');

export type SignupOutcome =
  | { kind: 'invalid'; status: 422; code: 'missing_information' | 'invalid_request'; message: string; fields: Record<string, string> }
  | { kind: 'rate_limited'; status: 429; message: string; retryAfterSeconds: number }
  | {
      kind: 'created';
      status: 201;
      spaId: number;
      tier: Tier;
      billing: BillingPeriod;
      signedIn: boolean;
      magicLinkSent: boolean;
      continueToPayment: boolean;
      paymentsUnavailable: boolean;
    }
  | { kind: 'checkout'; status: 200; url: string }
  | { kind: 'failed'; status: number; code: string; message: string };

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

const tooMany = (retryAfterSeconds: number): SignupOutcome => {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    kind: 'rate_limited',
    status: 429,
    retryAfterSeconds,
    message: `Too many listings submitted. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  };
};

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
    return missing.length > 0
      ? { kind: 'invalid', status: 422, code: 'missing_information', message: SIGNUP_MESSAGES.missing.description, fields }
      : { kind: 'invalid', status: 422, code: 'invalid_request', message: 'Some fields are not valid.', fields };
  }
  const signup = parsed.data;
  const paymentsUnavailable = signup.tier !== 'FREE' && !context.stripe;
  const tier: Tier = paymentsUnavailable ? 'FREE' : signup.tier;

  if (tier !== 'FREE' && user && context.stripe) {
    // Its own limits (per account) and its own undo: a checkout that cannot open leaves no listing.
    const answer = await startSubscriptionCheckout(user, { tier, billing: signup.billing, spaData: listingDataOf(signup) }, context.stripe, {
      origin: context.origin,
    });
    const result = (await answer.json().catch(() => ({}))) as { url?: string; error?: { code?: string; message?: string; fields?: Record<string, string> } };
    if (answer.ok && result.url) return { kind: 'checkout', status: 200, url: result.url };
    if (answer.status === 429) return tooMany(Number(answer.headers.get('retry-after')) || 3600);
    if (answer.status === 422 && result.error?.fields) {
      const fields = Object.fromEntries(
        Object.entries(result.error.fields).map(([key, value]) => [key.replace(/^spaData\./, '').replace(/^name$/, 'spaName'), value]),
      );
      return { kind: 'invalid', status: 422, code: 'invalid_request', message: 'Some fields are not valid.', fields };
    }
    return {
      kind: 'failed',
      status: answer.ok ? 502 : answer.status,
      code: result.error?.code ?? 'checkout_failed',
      message: result.error?.message ?? SIGNUP_MESSAGES.failed.description,
    };
  }

  const limit = allowSignup({ clientAddress: context.clientAddress, userId: user?.id, ownerEmail: user ? null : signup.ownerEmail });
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds);

  const created = createPendingListing(listingDataOf(signup), user ? { user } : { claimEmail: signup.ownerEmail });
  if (!created.ok) return { kind: 'invalid', status: 422, code: 'invalid_request', message: 'Some fields are not valid.', fields: created.fields };

  const continueToPayment = tier !== 'FREE';
  let magicLinkSent = false;
  if (!user) {
    try {
      const sent = await requestMagicLink({
        email: signup.ownerEmail,
        clientAddress: context.clientAddress,
        origin: context.origin,
        purpose: 'owner',
        intro: continueToPayment ? CLAIM_INTRO.paid : CLAIM_INTRO.free,
        ...(continueToPayment ? { next: `/subscription?spaId=${created.spaId}&billing=${signup.billing}` } : {}),
      });
      magicLinkSent = sent.ok;
      if (!sent.ok) log.warn(`signup: spa ${created.spaId} listed, but its sign-in link was rate limited; the owner can ask for one at /owner/login`);
    } catch (error) {
      // The listing is stored and claimable: any later sign-in link to the address hands it over.
      log.error(`signup: spa ${created.spaId} listed, but its sign-in link could not be sent`, error);
    }
  }
  return {
    kind: 'created',
    status: 201,
    spaId: created.spaId,
    tier,
    billing: signup.billing,
    signedIn: Boolean(user),
    magicLinkSent,
    continueToPayment,
    paymentsUnavailable,
  };
}

/** The JSON answer of POST /api/owner/create-spa for an outcome (the one error shape of http.ts). */
export function signupJson(outcome: SignupOutcome): { status: number; body: unknown; headers?: Record<string, string> } {
  switch (outcome.kind) {
    case 'created':
      return {
        status: 201,
        body: {
          spaId: outcome.spaId,
          tier: outcome.tier,
          status: 'awaiting_review',
          signedIn: outcome.signedIn,
          magicLinkSent: outcome.magicLinkSent,
          continueToPayment: outcome.continueToPayment,
          paymentsUnavailable: outcome.paymentsUnavailable,
          next: '/owner/login',
        },
      };
    case 'checkout':
      return { status: 200, body: { url: outcome.url } };
    case 'invalid':
      return { status: 422, body: { error: { code: outcome.code, message: outcome.message, fields: outcome.fields } } };
    case 'rate_limited':
      return {
        status: 429,
        body: { error: { code: 'rate_limited', message: outcome.message } },
        headers: { 'Retry-After': String(outcome.retryAfterSeconds) },
      };
    case 'failed':
      return { status: outcome.status, body: { error: { code: outcome.code, message: outcome.message } } };
  }
}
