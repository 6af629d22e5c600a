// The body of POST /api/analytics/event (spec 7): one schema for the endpoint,
// and its input type for the browser module (which imports only the type, so
// zod never ships to browsers). Pure: no server imports.
import { z } from 'zod';
import type { ANALYTICS_ENTITY_TYPES as StoredEntityTypes, ANALYTICS_EVENT_TYPES as StoredEventTypes } from '#db/schema.ts';

// The table's CHECK constraints list the same values; `satisfies` keeps the two
// from drifting without importing the schema (and drizzle) into this module.
export const EVENT_TYPES = ['view', 'click', 'booking', 'conversion'] as const satisfies typeof StoredEventTypes;
export const ENTITY_TYPES = ['spa', 'page', 'offer'] as const satisfies typeof StoredEntityTypes;
export const EVENT_TIERS = ['FREE', 'PREMIUM', 'ELITE'] as const;

export const METADATA_MAX_KEYS = 20;
export const METADATA_MAX_BYTES = 2048;
/** How old an event may be: a page kept open overnight still reports, a replay of last week does not. */
export const TIMESTAMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How far ahead of the server's clock a browser's clock may run. */
export const TIMESTAMP_MAX_AHEAD_MS = 5 * 60 * 1000;

/** Optional short text: trimmed, capped, and null when absent or empty. */
export const optionalText = (max: number) =>
  z
    .string({ message: 'Must be text' })
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((value) => value || null);

const metadataValue = z.union([z.string().max(500), z.number(), z.boolean()], {
  message: 'Values must be text (at most 500 characters), numbers or true/false',
});

const metadata = z
  .record(z.string().max(50, 'Keys must be at most 50 characters'), metadataValue, { message: 'Must be an object' })
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `Must have at most ${METADATA_MAX_KEYS} keys`)
  .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= METADATA_MAX_BYTES, `Must be at most ${METADATA_MAX_BYTES} bytes as JSON`)
  .nullish()
  .transform((value) => value ?? null);

/** The origin of an http(s) referrer, else null: the path and query are not ours to keep. */
export function referrerOrigin(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * When the event happened in the browser: an ISO date-time with a zone, or
 * epoch milliseconds. A value that is not a date, or lies outside the window,
 * is refused (422), never clamped: a clamped time would be a made-up fact.
 * Absent means "now" (the server's time).
 */
const timestamp = z
  .union([z.string(), z.number()], { message: 'Must be an ISO date-time or epoch milliseconds' })
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return new Date();
    const ms = typeof value === 'number' ? value : ISO_DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
    if (!Number.isSafeInteger(ms)) {
      ctx.addIssue({ code: 'custom', message: 'Must be an ISO date-time or epoch milliseconds' });
      return z.NEVER;
    }
    const now = Date.now();
    if (ms < now - TIMESTAMP_MAX_AGE_MS || ms > now + TIMESTAMP_MAX_AHEAD_MS) {
      ctx.addIssue({ code: 'custom', message: 'Must be within the last 24 hours and at most 5 minutes ahead' });
      return z.NEVER;
    }
    return new Date(ms);
  });

export const analyticsEventSchema = z.object({
  eventType: z.enum(EVENT_TYPES, { message: 'Must be view, click, booking or conversion' }),
  entityType: z.enum(ENTITY_TYPES, { message: 'Must be spa, page or offer' }),
  entityId: z
    .union([z.string().trim().min(1).max(100), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)], {
      message: 'Must be text (at most 100 characters) or a whole number',
    })
    .nullish()
    .transform((value) => (value === undefined || value === null ? null : String(value))),
  tier: z
    .enum(EVENT_TIERS, { message: 'Must be FREE, PREMIUM or ELITE' })
    .nullish()
    .transform((value) => value ?? null),
  source: optionalText(100),
  metadata,
  sessionId: optionalText(100),
  // userId is not read: whoever the browser claims to be, the server takes the
  // user from the session (z.object drops unknown keys, this one included).
  // Accepted so older pages still validate, never stored: the server sees the
  // User-Agent header itself, and nobody reads either.
  userAgent: optionalText(500).transform(() => null),
  // Only the origin is kept: the full address of the page a visitor came from
  // can hold a secret (a manage or unsubscribe link's token).
  referrer: optionalText(2048).transform(referrerOrigin),
  timestamp,
});

/** What the browser sends. */
export type AnalyticsEventInput = z.input<typeof analyticsEventSchema>;
/** What the server stores. */
export type AnalyticsEvent = z.output<typeof analyticsEventSchema>;

export const parseAnalyticsEvent = (body: unknown) => analyticsEventSchema.safeParse(body);
