// Outbound clicks (POST /api/clicks): a visitor followed a spa's phone,
// website, booking, directions or social link. Stored for the spa's owner to
// count later. The target is computed from the listing, never taken from the
// request; the visitor is known only by a salted hash of the address
// (docs/decisions/0003, 0015).
import { and, eq } from 'drizzle-orm';
import { clicks, spas } from '#db/schema.ts';
import type { ClickEvent } from '#lib/click-event.ts';
import { outboundTarget } from '#lib/outbound.ts';
import { invalid, notFound, ok, rateLimited, type Result } from '#lib/result.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';
import { hit } from '../rate-limit.ts';

/** Clicks one client may record per minute: far above a person's, far below a script's. */
export const CLICKS_PER_MINUTE = 30;
const USER_AGENT_MAX = 500;

export interface ClickContext {
  address: string | null;
  userAgent: string | null;
  userId: number | null;
  /** The Referer the server saw: the page, when the body does not name it; only a path of this site is kept. */
  referer: string | null;
  origin: string;
}

export type ClickResult = Result<{ id: number }, 'not_found' | 'invalid'>;

/** Counts the hit: may this client record another click now? */
export function allowClick(address: string | null, now = Date.now()): Result<void, 'rate_limited'> {
  const limit = hit(`clicks:client:${address ? hashClientAddress(address) : 'unknown'}`, CLICKS_PER_MINUTE, 60_000, now);
  return limit.allowed ? ok() : rateLimited(limit.retryAfterSeconds, 'Too many clicks recorded from this address. Try again later.');
}

const pathOf = (referer: string | null, origin: string): string | null => {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.origin === origin ? url.pathname.slice(0, 300) : null;
  } catch {
    return null;
  }
};

export function recordClick(event: ClickEvent, context: ClickContext): ClickResult {
  const spa = db
    .select()
    .from(spas)
    .where(and(eq(spas.id, event.spaId), eq(spas.active, true)))
    .get();
  if (!spa) return notFound('Spa not found.');
  const target = outboundTarget(spa, event.kind);
  if (!target) return invalid({}, `This spa has no ${event.kind} link.`);
  const page = event.page ?? pathOf(context.referer, context.origin);
  const row = db
    .insert(clicks)
    .values({
      url: page ?? '',
      targetUrl: target,
      userId: context.userId,
      sessionId: event.sessionId,
      ipHash: context.address ? hashClientAddress(context.address) : null,
      userAgent: context.userAgent?.slice(0, USER_AGENT_MAX) || null,
      // Where the visitor came from before our page is not collected: another
      // site's address can carry anything, personal data included.
      referer: null,
      utmSource: event.utmSource,
      utmMedium: event.utmMedium,
      utmCampaign: event.utmCampaign,
      spaId: spa.id,
    })
    .returning({ id: clicks.id })
    .get();
  return ok({ id: row.id });
}
