// A spa's booking policies: read for its owner's form, saved from it. Who may
// is decided by the page (findEditableSpa); the values by spa-policy-schema.ts.
// No-show protection needs Stripe: without keys a spa cannot ask for a card
// (the form says why), and bookings ask nothing (billing/protection.ts).
import { eq } from 'drizzle-orm';
import { spas } from '#db/schema.ts';
import type { NoShowPolicy } from '#lib/no-show-policy.ts';
import { invalid, ok, type Result } from '#lib/result.ts';
import type { SpaPolicy } from '#lib/spa-policy-schema.ts';
import { paymentsConfigured } from '../billing/billing.ts';
import { db } from '../db.ts';

export function readSpaPolicy(spaId: number): (SpaPolicy & { noShowPolicy: NoShowPolicy | null }) | null {
  const row = db.select({ cancellationWindowHours: spas.cancellationWindowHours, noShowPolicy: spas.noShowPolicy }).from(spas).where(eq(spas.id, spaId)).get();
  return row ?? null;
}

/** Saves the policy; the spa's page shows the new window after the next rebuild (the spas triggers mark it changed). */
export function saveSpaPolicy(spaId: number, policy: SpaPolicy, now = new Date()): void {
  db.update(spas).set({ cancellationWindowHours: policy.cancellationWindowHours, updatedAt: now }).where(eq(spas.id, spaId)).run();
}

export const NO_PAYMENTS_MESSAGE =
  'Asking for a card or a deposit needs online payments, which are not set up on this site yet (no Stripe keys). Clients book as before meanwhile.';

/** Saves the no-show policy (null: none). It applies to bookings made from now on; those made before keep theirs. */
export function saveNoShowPolicy(spaId: number, policy: NoShowPolicy | null, now = new Date()): Result<void, 'invalid'> {
  if (policy && !paymentsConfigured()) return invalid({ protection: NO_PAYMENTS_MESSAGE }, NO_PAYMENTS_MESSAGE, { code: 'payments_not_configured' });
  db.update(spas).set({ noShowPolicy: policy, updatedAt: now }).where(eq(spas.id, spaId)).run();
  return ok();
}
