// Fixed-window rate limits kept in SQLite, so a restart does not reset them.
// One statement per hit: the upsert both counts and starts a new window.
import { sql } from 'drizzle-orm';
import { rateLimits } from '#db/schema.ts';
import { db } from './db.ts';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
  count: number;
}

export function hit(key: string, limit: number, windowMs: number, now = Date.now()): RateLimitResult {
  const windowStartFloor = now - windowMs;
  const row = db
    .insert(rateLimits)
    .values({ key, windowStart: new Date(now), count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${windowStartFloor} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${windowStartFloor} then ${now} else ${rateLimits.windowStart} end`,
      },
    })
    .returning()
    .get();
  const retryAfterSeconds = Math.max(1, Math.ceil((row.windowStart.getTime() + windowMs - now) / 1000));
  return { allowed: row.count <= limit, retryAfterSeconds, count: row.count };
}

export interface Limit {
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts a request against several limits in order and stops at the first
 * that refuses, so a refused request does not use up the later ones: a
 * client over its own limit cannot also spend a spa's or an address's budget.
 */
export function hitAll(limits: Limit[], now = Date.now()): RateLimitResult {
  let last: RateLimitResult = { allowed: true, retryAfterSeconds: 0, count: 0 };
  for (const { key, limit, windowMs } of limits) {
    last = hit(key, limit, windowMs, now);
    if (!last.allowed) return last;
  }
  return last;
}
