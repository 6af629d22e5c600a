// Stores analytics events (POST /api/analytics/event). The owner dashboard
// counts these rows, so an event is stored once, as validated, with who sent it
// known only as a salted hash of their address (docs/decisions/0003).
import { createHash } from 'node:crypto';
import { ANALYTICS_SALT } from 'astro:env/server';
import { analyticsEvents } from '../../../db/schema.ts';
import type { AnalyticsEvent } from '../analytics-event.ts';
import { CLIENT_ADDRESS_HEADER } from '../proxy.ts';
import { db } from './db.ts';

/** SHA-256 hex of salt + address: equal visitors group together, the address itself is never kept. */
export function hashAddress(address: string, salt: string): string {
  return createHash('sha256').update(salt).update(address).digest('hex');
}

/**
 * The visitor's address: what scripts/serve.ts decided (it honours TRUST_PROXY
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
  /** The visitor's address; hashed before it is stored. */
  address: string | null;
  /** The User-Agent header the server saw; preferred over the body's copy. */
  userAgent?: string | null;
  /** The signed-in user, from the session: never from the request body. */
  userId?: number | null;
}

const USER_AGENT_MAX = 500;

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
      userAgent: context.userAgent?.slice(0, USER_AGENT_MAX) || event.userAgent,
      referrer: event.referrer,
      ipHash: context.address ? hashAddress(context.address, ANALYTICS_SALT) : null,
      occurredAt: event.timestamp,
    })
    .returning({ id: analyticsEvents.id })
    .get();
  return row.id;
}
