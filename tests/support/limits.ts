// Rate limits in the end-to-end run. Every test's browser and request context
// connects from 127.0.0.1, so the whole suite is one client to the server:
// tests that book or report events clear that one client's counters first,
// as an hour having passed would. Tests of the limits themselves
// (security-abuse.spec.ts) connect from other loopback addresses and are not
// touched by this.
import { createHmac } from 'node:crypto';
import { write } from './db.ts';
import { analyticsSalt } from './env.ts';

/** The server's keyed hash of a client address (src/lib/server/client-address.ts, IPv4). */
export const clientHash = (address: string) => createHmac('sha256', analyticsSalt).update(address).digest('hex');

/** Forgets the per-client booking, signup, checkout and analytics counts of 127.0.0.1 (not per-address or per-spa ones). */
export function forgetLoopbackLimits(): void {
  const hash = clientHash('127.0.0.1');
  const keys = ['booking:client', 'analytics:client', 'signup:client', 'signup:client-day', 'checkout:client'].map((name) => `${name}:${hash}`);
  write(`delete from rate_limits where key in (${keys.map(() => '?').join(', ')})`, ...keys);
}

/** Forgets that 127.0.0.1 has viewed this spa (a view counts once per client per half hour). */
export function forgetLoopbackView(entityType: string, entityId: string | number): void {
  write('delete from rate_limits where key = ?', `analytics:view:${entityType}:${entityId}:${clientHash('127.0.0.1')}`);
}
