// A spa's booking policies: read for its owner's form, saved from it. Who may
// is decided by the page (findEditableSpa); the values by spa-policy-schema.ts.
import { eq } from 'drizzle-orm';
import { spas } from '#db/schema.ts';
import type { SpaPolicy } from '#lib/spa-policy-schema.ts';
import { db } from '../db.ts';

export function readSpaPolicy(spaId: number): SpaPolicy | null {
  const row = db.select({ cancellationWindowHours: spas.cancellationWindowHours }).from(spas).where(eq(spas.id, spaId)).get();
  return row ?? null;
}

/** Saves the policy; the spa's page shows the new window after the next rebuild (the spas triggers mark it changed). */
export function saveSpaPolicy(spaId: number, policy: SpaPolicy, now = new Date()): void {
  db.update(spas).set({ cancellationWindowHours: policy.cancellationWindowHours, updatedAt: now }).where(eq(spas.id, spaId)).run();
}
