// Stores analytics events (POST /api/analytics/event). The owner dashboard
// counts these rows, so an event is stored once, as validated, with who sent it
// known only as a keyed hash of their address (docs/decisions/0003, 0006).
import { analyticsEvents } from '#db/schema.ts';
import type { AnalyticsEvent } from '#lib/analytics-event.ts';
import { CLIENT_ADDRESS_HEADER } from '#lib/proxy.ts';
import { ok, rateLimited, type Result } from '#lib/result.ts';
import { hashClientAddress } from '../client-address.ts';
import { db } from '../db.ts';
import { hit } from '../rate-limit.ts';

/**
 * The visitor's address: what server/serve.ts decided (it honours TRUST_PROXY
 * and replaces anything a client sent under that header), else the socket's
 * peer as Astro saw it (the dev server). Astro's getter throws when the
 * adapter cannot tell (e.g. at build time).
 */
export function clientAddressOf(context: { clientAddress: string; request?: Request }): string | null {
  const decided = context.request?.headers.get(CLIENT_ADDRESS_HEADER);
  if (decided) return decided;
  try {
    return context.clientAddress || null;
  } catch {
    return null;
  }
}

export interface EventContext {
  /** The visitor's address; only its keyed hash is stored. */
  address: string | null;
  /** The signed-in user, from the session: never from the request body. */
  userId?: number | null;
}

/**
 * Per client (IPv6 by /64): a person clicking about sends a few events a
 * minute; 60 leaves room for a busy office, not for a script inflating a
 * spa's numbers. A view of one thing (a spa, an offer, a page) counts once
 * per client per VIEW_WINDOW_MS, so reloads and replays add nothing.
 */
export const EVENT_LIMITS = { perClientPerMinute: 60, viewWindowMs: 30 * 60_000 } as const;

export function recordEvent(event: AnalyticsEvent, context: EventContext): number {
  const row = db
    .insert(analyticsEvents)
    .values({
      eventType: event.eventType,
      entityType: event.entityType,
      entityId: event.entityId,
      tier: event.tier,
      source: event.source,
      metadata: event.metadata,
      sessionId: event.sessionId,
      userId: context.userId ?? null,
      // Nobody reads the user agent: not kept (the column stays for old rows).
      userAgent: null,
      // Already cut to its origin by the schema.
      referrer: event.referrer,
      ipHash: context.address ? hashClientAddress(context.address) : null,
      occurredAt: event.timestamp,
    })
    .returning({ id: analyticsEvents.id })
    .get();
  return row.id;
}

/** Stored (its row id), or a view already counted (not stored); refused when the client sends too many. */
export type EventOutcome = Result<{ id: number } | { duplicate: true }, 'rate_limited'>;

/**
 * Counts the event against its client's limit, drops a view that client
 * already reported within the window, and stores the rest. An unknown address
 * (only outside a real server) skips the limits.
 */
export function acceptEvent(event: AnalyticsEvent, context: EventContext, now = Date.now()): EventOutcome {
  if (context.address) {
    const client = hashClientAddress(context.address);
    const limit = hit(`analytics:client:${client}`, EVENT_LIMITS.perClientPerMinute, 60_000, now);
    if (!limit.allowed) return rateLimited(limit.retryAfterSeconds, 'Too many events.');
    if (event.eventType === 'view') {
      const seen = hit(`analytics:view:${event.entityType}:${event.entityId ?? ''}:${client}`, 1, EVENT_LIMITS.viewWindowMs, now);
      if (!seen.allowed) return ok({ duplicate: true });
    }
  }
  return ok({ id: recordEvent(event, context) });
}
