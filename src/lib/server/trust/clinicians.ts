// Who treats clients at a spa: the owner's list of clinicians (one of them the
// medical director) and the editors' licence checks. Pages guard who may call
// what (findEditableSpa for owners, role admin for checks); this module keeps
// the rules that hold whoever calls: a clinician belongs to one spa, a spa has
// one medical director, and a check is cleared when the number it vouched for
// changes.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { clinicians, spas, users } from '#db/schema.ts';
import type { ClinicianInput } from '#lib/licences.ts';
import { logger } from '#lib/log.ts';
import { conflict, forbidden, invalid, notFound, ok, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { ofSpa } from '../db-helpers.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { recordAudit } from '../admin/audit.ts';

const log = logger('clinicians');

export type Clinician = typeof clinicians.$inferSelect;
export type ClinicianResult = Result<{ id: number }, 'not_found' | 'invalid'>;

export const CLINICIAN_NOT_FOUND = 'That clinician is not listed for this spa.';

/** Director first, then physicians, NPs, PAs, RNs, each by name. */
const roleOrder = sql`case ${clinicians.role} when 'MD' then 1 when 'DO' then 1 when 'NP' then 2 when 'PA' then 3 else 4 end`;

export function listClinicians(spaId: number): Clinician[] {
  return db
    .select()
    .from(clinicians)
    .where(eq(clinicians.spaId, spaId))
    .orderBy(desc(clinicians.isMedicalDirector), roleOrder, asc(clinicians.name), asc(clinicians.id))
    .all();
}

/** The unique indexes' refusals, as the form's field messages. */
function uniqueRefusal(error: unknown): ClinicianResult | null {
  const message = error instanceof Error ? error.message : '';
  if (message.includes('clinicians.spa_id, clinicians.role, clinicians.license_number')) {
    return invalid({ licenseNumber: 'This licence number is already listed for this spa' });
  }
  if (message.includes('UNIQUE constraint failed: clinicians.spa_id')) {
    return invalid({ isMedicalDirector: 'This spa already lists a medical director; edit that entry first' });
  }
  return null;
}

export function addClinician(spaId: number, input: ClinicianInput, now = new Date()): ClinicianResult {
  try {
    const row = db
      .insert(clinicians)
      .values({ spaId, ...input, createdAt: now, updatedAt: now })
      .returning({ id: clinicians.id })
      .get();
    return ok({ id: row.id });
  } catch (error) {
    const refused = uniqueRefusal(error);
    if (refused) return refused;
    throw error;
  }
}

/**
 * Saves an owner's edit. A changed number or role is a different licence from
 * the one an editor looked up, so its check is cleared in the same statement.
 */
export function updateClinician(spaId: number, clinicianId: number, input: ClinicianInput, now = new Date()): ClinicianResult {
  const current = db
    .select({ role: clinicians.role, licenseNumber: clinicians.licenseNumber })
    .from(clinicians)
    .where(ofSpa(clinicians, clinicianId, spaId))
    .get();
  if (!current) return notFound(CLINICIAN_NOT_FOUND);
  const licenceChanged = current.role !== input.role || current.licenseNumber !== input.licenseNumber;
  try {
    const result = db
      .update(clinicians)
      .set({ ...input, updatedAt: now, ...(licenceChanged ? { licenseCheckedAt: null, licenseCheckedBy: null } : {}) })
      .where(ofSpa(clinicians, clinicianId, spaId))
      .run();
    if (result.changes === 0) return notFound(CLINICIAN_NOT_FOUND);
    if (licenceChanged) log.info('licence changed, check cleared', { clinicianId, spaId });
    return ok({ id: clinicianId });
  } catch (error) {
    const refused = uniqueRefusal(error);
    if (refused) return refused;
    throw error;
  }
}

export function removeClinician(spaId: number, clinicianId: number): boolean {
  return (
    db
      .delete(clinicians)
      .where(ofSpa(clinicians, clinicianId, spaId))
      .run().changes === 1
  );
}

/**
 * An editor's statement that the licence matched the state's public record
 * today (or its withdrawal). Only for role admin; the page answers others first,
 * this refuses them too. Conditional on the number the editor saw, so a number
 * changed meanwhile is not marked checked.
 */
export function setLicenceChecked(
  user: Pick<SessionUser, 'id' | 'role'>,
  clinicianId: number,
  seenLicence: string,
  checked: boolean,
  now = new Date(),
): Result<void, 'forbidden' | 'not_found' | 'conflict'> {
  if (user.role !== 'admin') return forbidden('Only editors may check licences.');
  const row = db.select({ licenseNumber: clinicians.licenseNumber, spaId: clinicians.spaId }).from(clinicians).where(eq(clinicians.id, clinicianId)).get();
  if (!row) return notFound('That clinician is not listed any more.');
  const result = db
    .update(clinicians)
    .set(checked ? { licenseCheckedAt: now, licenseCheckedBy: user.id } : { licenseCheckedAt: null, licenseCheckedBy: null })
    .where(and(eq(clinicians.id, clinicianId), eq(clinicians.licenseNumber, seenLicence)))
    .run();
  if (result.changes === 0) return conflict('The licence number changed while you were looking at it. Check the new number.');
  recordAudit(user, checked ? 'check-licence' : 'uncheck-licence', `spa:${row.spaId}`, `${row.licenseNumber} (clinician ${clinicianId})`);
  return ok();
}

/** Every clinician for the editors' page: unchecked first, then the oldest checks. */
export function listCliniciansForReview() {
  return db
    .select({
      clinician: clinicians,
      spaName: spas.name,
      spaSlug: spas.slug,
      checkedByEmail: users.email,
    })
    .from(clinicians)
    .innerJoin(spas, eq(clinicians.spaId, spas.id))
    .leftJoin(users, eq(clinicians.licenseCheckedBy, users.id))
    .orderBy(sql`${clinicians.licenseCheckedAt} is not null`, asc(clinicians.licenseCheckedAt), asc(spas.name), asc(clinicians.name))
    .all();
}
