// Passwordless sign-in by e-mailed link. The token (256 bits from the CSPRNG)
// is stored only as its SHA-256, lives 15 minutes and is spent once. The link
// opens a confirmation page; the token is spent only when the person confirms
// (POST), so mail scanners that open links cannot use it up.
import { SMTP_URL } from 'astro:env/server';
import { and, eq, gt } from 'drizzle-orm';
import { magicTokens, users } from '#db/schema.ts';
import { brand } from '#content/site.ts';
import { logger } from '#lib/log.ts';
import { rateLimitKeyForEmail } from '#lib/rate-limit-key.ts';
import { ok, rateLimited, upstreamFailed, type Result } from '#lib/result.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';
import { publicOrigin } from '../http.ts';
import { claimListings } from '../listings/pending.ts';
import { sendMail } from '../mail/mail.ts';
import { renderEmail } from '../mail/layout.ts';
import { hit } from '../rate-limit.ts';
import { hashToken, randomToken } from './tokens.ts';

const log = logger('auth');

export const MAGIC_LINK_TTL_MS = 15 * 60_000;
const TOKEN_BYTES = 32; // 52 base32 characters
export const MAGIC_TOKEN_PATTERN = /^[a-z2-7]{52}$/;
const WINDOW_MS = 15 * 60_000;
/** Per e-mail address: the 6th request in a window is refused. */
export const LIMIT_PER_EMAIL = 5;
/** Per client address: generous enough for a shared office connection. */
export const LIMIT_PER_CLIENT = 20;

export type MagicLinkPurpose = 'client' | 'owner';

export interface MagicLinkRequest {
  email: string;
  clientAddress: string | null;
  origin: string;
  purpose: MagicLinkPurpose;
  /** Where to go after signing in: a path on this site. */
  next?: string;
  /**
   * A first paragraph saying why the link was sent (a spa signup). Our own
   * words only: the address is not proven yet, so nothing a visitor typed
   * may reach its inbox through us.
   */
  intro?: string;
}

/** Sent; or refused by a limit (per inbox, per client), or the mail could not be handed over. */
export type MagicLinkResult = Result<void, 'rate_limited' | 'upstream_failed'>;

function tooManyLinks(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return rateLimited(retryAfterSeconds, `Too many sign-in links requested. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
}

/**
 * Only a path on this site may be a destination after sign-in. The value is
 * resolved against the public origin and must stay on it; control characters
 * and backslashes are refused outright, since browsers drop or rewrite them
 * ("/\t/evil.example" is followed as "//evil.example").
 */
export function safeNextPath(next: string | null | undefined, origin = publicOrigin): string | undefined {
  if (!next || next.length > 2048 || !next.startsWith('/')) return undefined;
  if (/[\u0000-\u001f\u007f\\]/.test(next) || next.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return undefined;
  }
  const path = url.pathname + url.search + url.hash;
  // "/.//evil.example" normalises to "//evil.example": check what we would send, too.
  if (url.origin !== new URL(origin).origin || path.startsWith('//')) return undefined;
  return path;
}

export const landingPath = (purpose: MagicLinkPurpose, next?: string) => next ?? (purpose === 'owner' ? '/owner/dashboard' : '/');

/**
 * Sends a sign-in link. The answer is the same whether or not the address
 * belongs to anyone: users are created only when a link is confirmed. A mail
 * server that refuses is logged and answered upstream_failed (the token is
 * stored, but nobody has it).
 */
export async function requestMagicLink(request: MagicLinkRequest, now = Date.now()): Promise<MagicLinkResult> {
  const email = request.email.trim().toLowerCase();
  // victim+1@, victim+2@ ... reach one inbox: one count for all of them. The
  // client is counted by the keyed hash of its address, never the address.
  const limits = [hit(`magic:email:${rateLimitKeyForEmail(email)}`, LIMIT_PER_EMAIL, WINDOW_MS, now)];
  if (request.clientAddress) limits.push(hit(`magic:client:${hashClientAddress(request.clientAddress)}`, LIMIT_PER_CLIENT, WINDOW_MS, now));
  const refused = limits.find((limit) => !limit.allowed);
  if (refused) return tooManyLinks(refused.retryAfterSeconds);

  const token = randomToken(TOKEN_BYTES);
  db.insert(magicTokens)
    .values({ tokenHash: hashToken(token), email, expiresAt: new Date(now + MAGIC_LINK_TTL_MS) })
    .run();

  const url = new URL('/auth/confirm', request.origin);
  url.searchParams.set('token', token);
  url.searchParams.set('for', request.purpose);
  const next = safeNextPath(request.next);
  if (next) url.searchParams.set('next', next);

  const content = renderEmail({
    preheader: 'Your sign-in link expires in 15 minutes.',
    heading: `Sign in to ${brand.name}`,
    paragraphs: [
      ...(request.intro ? [request.intro] : []),
      'Use the button below to sign in. The link works once and expires in 15 minutes.',
      'If you did not ask for it, you can ignore this message: nobody can sign in without opening it.',
    ],
    action: { label: 'Sign in', url: url.href },
  });
  try {
    await sendMail({ to: email, subject: `Your sign-in link for ${brand.shortName}`, ...content });
  } catch (error) {
    log.error('could not send a sign-in link', error);
    return upstreamFailed('Failed to send magic link. Please try again.', { code: 'mail_failed' });
  }
  // Without SMTP the message sits in the outbox; the link in the log saves opening it.
  if (!SMTP_URL) log.info(`sign-in link for ${email}: ${url.href}`);
  return ok();
}

/** The address a link signs in, when it is still usable; spends nothing. */
export function peekMagicLink(token: string, now = Date.now()): { email: string } | null {
  if (!MAGIC_TOKEN_PATTERN.test(token)) return null;
  const row = db
    .select({ email: magicTokens.email })
    .from(magicTokens)
    .where(and(eq(magicTokens.tokenHash, hashToken(token)), eq(magicTokens.used, false), gt(magicTokens.expiresAt, new Date(now))))
    .get();
  return row ?? null;
}

/**
 * Spends a link and returns its user, creating a client account for a new
 * address, and hands over the listings claimed with the address. One UPDATE both checks and spends the token, so two confirmations
 * racing each other cannot both succeed.
 */
export function redeemMagicLink(token: string, now = Date.now()): { userId: number; email: string; created: boolean } | null {
  if (!MAGIC_TOKEN_PATTERN.test(token)) return null;
  return db.transaction((tx) => {
    const spent = tx
      .update(magicTokens)
      .set({ used: true, usedAt: new Date(now) })
      .where(and(eq(magicTokens.tokenHash, hashToken(token)), eq(magicTokens.used, false), gt(magicTokens.expiresAt, new Date(now))))
      .returning({ email: magicTokens.email })
      .get();
    if (!spent) return null;
    const existing = tx.select({ id: users.id }).from(users).where(eq(users.email, spent.email)).get();
    const user = existing ?? tx.insert(users).values({ email: spent.email }).returning({ id: users.id }).get();
    // Listings signed up with this address are theirs now that they have proved it.
    claimListings({ id: user.id, email: spent.email });
    return { userId: user.id, email: spent.email, created: !existing };
  });
}
