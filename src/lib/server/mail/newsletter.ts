// The newsletter list: double opt-in, one-click unsubscribe, re-subscribe.
//   sign up      -> a row (not yet subscribed) and a confirmation mail
//   confirm      -> subscribed; a welcome mail that carries the unsubscribe link
//   unsubscribe  -> not subscribed; the row (and its address's uniqueness) stays
// Confirmation tokens are stored as hashes and expire; the unsubscribe token
// is long-lived by design (it sits in every mail's List-Unsubscribe header).
import { and, eq, gt } from 'drizzle-orm';
import { newsletterSubscribers } from '#db/schema.ts';
import { brand } from '#content/site.ts';
import { rateLimitKeyForEmail } from '#lib/rate-limit-key.ts';
import { gone, ok, rateLimited, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { sendMailInBackground } from './mail.ts';
import { renderEmail } from './layout.ts';
import { hit } from '../rate-limit.ts';
import { hashToken, randomToken } from '../auth/tokens.ts';

export const CONFIRM_TTL_MS = 7 * 24 * 3_600_000;
/** Confirmation mails per inbox (+tags folded) per hour: enough for "I didn't get it", too few to bomb someone's inbox. */
export const SIGNUPS_PER_ADDRESS = 3;
const TOKEN_PATTERN = /^[a-z2-7]{32}$/;

/** The visitor is told the same either way (sent, or already subscribed); a flood of sign-ups for one inbox is refused. */
export type SignupResult = Result<'sent' | 'already_subscribed', 'rate_limited'>;

const HOUR_MS = 3_600_000;

export function unsubscribeUrl(token: string, origin: string): string {
  const url = new URL('/newsletter/unsubscribe', origin);
  url.searchParams.set('token', token);
  return url.href;
}

/**
 * Starts (or restarts) a subscription. The answer the visitor sees is the
 * same in every case, so the form does not reveal who is on the list.
 */
export function signUp(email: string, options: { origin: string; source?: string }, now = new Date()): SignupResult {
  // Counted first, so a subscribed address and a new one answer alike.
  // victim+1@, victim+2@ ... reach one inbox: they share one count.
  const limit = hit(`newsletter:${rateLimitKeyForEmail(email)}`, SIGNUPS_PER_ADDRESS, HOUR_MS, now.getTime());
  if (!limit.allowed) {
    return rateLimited(
      limit.retryAfterSeconds,
      'We have sent several confirmation e-mails to this address in the last hour. Please check your inbox (and spam folder) or try again later.',
    );
  }
  const existing = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get();
  if (existing?.subscribed) return ok('already_subscribed');

  const confirmToken = randomToken(20);
  const pending = { confirmTokenHash: hashToken(confirmToken), confirmSentAt: now, active: true };
  if (existing) {
    db.update(newsletterSubscribers).set(pending).where(eq(newsletterSubscribers.id, existing.id)).run();
  } else {
    db.insert(newsletterSubscribers)
      .values({ email, unsubscribeToken: randomToken(20), subscribed: false, source: options.source ?? 'footer', ...pending })
      // Two sign-ups racing for one address: the second one updates the first's row.
      .onConflictDoUpdate({ target: newsletterSubscribers.email, set: pending })
      .run();
  }

  const url = new URL('/newsletter/confirm', options.origin);
  url.searchParams.set('token', confirmToken);
  sendMailInBackground({
    to: email,
    subject: `Confirm your subscription to ${brand.shortName} news`,
    ...renderEmail({
      preheader: 'One click to confirm; nothing is sent until you do.',
      heading: 'Confirm your subscription',
      paragraphs: [
        `Someone (we hope you) asked to receive ${brand.name} news: new providers, offers and treatment guides for Orange County, at most twice a month.`,
        'Confirm with the button below. If it was not you, ignore this message and you will hear nothing more from us.',
      ],
      action: { label: 'Confirm subscription', url: url.href },
    }),
  });
  return ok('sent');
}

/** Subscribed; or the link was spent already or is older than CONFIRM_TTL_MS. */
export type ConfirmResult = Result<{ email: string }, 'gone'>;

const LINK_GONE = 'This link was used already or is more than 7 days old.';

/** Spends a confirmation token: the address is subscribed and welcomed. */
export function confirmSubscription(token: string, origin: string, now = new Date()): ConfirmResult {
  if (!TOKEN_PATTERN.test(token)) return gone(LINK_GONE);
  const row = db
    .update(newsletterSubscribers)
    .set({ subscribed: true, active: true, confirmedAt: now, subscribedAt: now, unsubscribedAt: null, confirmTokenHash: null })
    .where(and(eq(newsletterSubscribers.confirmTokenHash, hashToken(token)), gt(newsletterSubscribers.confirmSentAt, new Date(now.getTime() - CONFIRM_TTL_MS))))
    .returning({ email: newsletterSubscribers.email, unsubscribeToken: newsletterSubscribers.unsubscribeToken })
    .get();
  if (!row) return gone(LINK_GONE);

  const unsubscribe = unsubscribeUrl(row.unsubscribeToken, origin);
  sendMailInBackground({
    to: row.email,
    subject: `Welcome to ${brand.shortName} news`,
    // RFC 8058: mail clients show their own Unsubscribe button and POST to this URL.
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    ...renderEmail({
      heading: 'You are subscribed',
      paragraphs: ['Thank you for confirming. Our next letter brings new providers, current offers and a treatment guide.'],
      action: { label: 'Browse current offers', url: new URL('/offers', origin).href },
      footer: `${brand.name}\nTo stop receiving these e-mails, unsubscribe with one click: ${unsubscribe}`,
    }),
  });
  return ok({ email: row.email });
}

export function findByUnsubscribeToken(token: string) {
  if (!TOKEN_PATTERN.test(token)) return null;
  return (
    db
      .select({ email: newsletterSubscribers.email, subscribed: newsletterSubscribers.subscribed })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.unsubscribeToken, token))
      .get() ?? null
  );
}

/** One click, no questions; doing it twice changes nothing. */
export function unsubscribe(token: string, now = new Date()): boolean {
  if (!TOKEN_PATTERN.test(token)) return false;
  const result = db
    .update(newsletterSubscribers)
    .set({ subscribed: false, unsubscribedAt: now })
    .where(eq(newsletterSubscribers.unsubscribeToken, token))
    .run();
  return result.changes > 0;
}

/** Undoing an unsubscribe from the page it led to: the token came by mail, so the address is proven already. */
export function resubscribe(token: string, now = new Date()): boolean {
  if (!TOKEN_PATTERN.test(token)) return false;
  const result = db
    .update(newsletterSubscribers)
    .set({ subscribed: true, active: true, subscribedAt: now, unsubscribedAt: null })
    .where(eq(newsletterSubscribers.unsubscribeToken, token))
    .run();
  return result.changes > 0;
}
