// Rate limits in the end-to-end run. Specs on the fixtures' `test`
// (./fixtures.ts) are clients of their own and reset nothing; the others
// connect from 127.0.0.1, so the whole of them is one client to the server:
// those that book or report events clear that one client's counters first,
// as an hour having passed would. Tests of the limits themselves
// (security-abuse.spec.ts) connect from other loopback addresses and are not
// touched by this.
import { createHmac } from 'node:crypto';
import { eq, inArray, like } from 'drizzle-orm';
import { rateLimits } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { analyticsSalt } from './env.ts';

/** The server's keyed hash of a client address (src/lib/server/client-address.ts, IPv4). */
export const clientHash = (address: string) => createHmac('sha256', analyticsSalt).update(address).digest('hex');

/** Forgets the per-client booking, signup, checkout and analytics counts of 127.0.0.1 (not per-address or per-spa ones). */
export function forgetLoopbackLimits(): void {
  const hash = clientHash('127.0.0.1');
  const keys = ['booking:client', 'analytics:client', 'signup:client', 'signup:client-day', 'checkout:client'].map((name) => `${name}:${hash}`);
  db.delete(rateLimits).where(inArray(rateLimits.key, keys)).run();
}

/** Forgets how many sign-in links every client has asked for (20 per 15 minutes each); the per-address limits stay. */
export function forgetClientLinkLimits(): void {
  db.delete(rateLimits).where(like(rateLimits.key, 'magic:client:%')).run();
}

/** Forgets that 127.0.0.1 has viewed this spa (a view counts once per client per half hour). */
export function forgetLoopbackView(entityType: string, entityId: string | number): void {
  db.delete(rateLimits)
    .where(eq(rateLimits.key, `analytics:view:${entityType}:${entityId}:${clientHash('127.0.0.1')}`))
    .run();
}
