import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, cities, clinicians, spas } from '#db/schema.ts';
import { clinicianSchema, type ClinicianInput } from '#lib/licences.ts';
import { addClinician, listClinicians, removeClinician, setLicenceChecked, updateClinician } from './clinicians.ts';
import { db } from '../db.ts';
import { listActiveSpaCards, searchSpas } from '../directory/directory.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import type { SessionUser } from '../auth/sessions.ts';

const TAG = testTag('clinicians-test');
let spaA = 0;
let spaB = 0;
let admin: SessionUser;
let owner: SessionUser;

const clinician = (overrides: Partial<Record<keyof ClinicianInput, unknown>> = {}): ClinicianInput =>
  clinicianSchema.parse({ name: 'Dr. Test Person', role: 'MD', licenseNumber: 'A54321', isMedicalDirector: false, treatments: ['botox'], ...overrides });
const rowOf = (id: number) => db.select().from(clinicians).where(eq(clinicians.id, id)).get()!;

beforeAll(() => {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  admin = insertUser(`${TAG}-admin@example.com`, 'admin');
  owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  spaA = db
    .insert(spas)
    .values({ name: 'Clinician Spa A', slug: `${TAG}-a`, cityId: city.id })
    .returning({ id: spas.id })
    .get().id;
  spaB = db
    .insert(spas)
    .values({ name: 'Clinician Spa B', slug: `${TAG}-b`, cityId: city.id })
    .returning({ id: spas.id })
    .get().id;
});

describe('the owner’s list', () => {
  it('keeps one medical director per spa', () => {
    const first = addClinician(spaA, clinician({ isMedicalDirector: true }));
    expect(first.ok).toBe(true);
    const second = addClinician(spaA, clinician({ name: 'Dr. Second', licenseNumber: 'G11111', isMedicalDirector: true }));
    expect(second).toMatchObject({ ok: false, reason: 'invalid', fields: { isMedicalDirector: expect.stringContaining('already lists a medical director') } });
    expect(addClinician(spaA, clinician())).toMatchObject({ ok: false, fields: { licenseNumber: 'This licence number is already listed for this spa' } });
    // The database refuses a nurse as director, whatever the caller.
    expect(() => db.insert(clinicians).values({ spaId: spaB, name: 'RN', role: 'RN', licenseNumber: '95000001', isMedicalDirector: true }).run()).toThrow(
      /CHECK/,
    );
    expect(listClinicians(spaA)[0]).toMatchObject({ isMedicalDirector: true });
  });

  it('clears an editor’s check when the licence number or role changes, not for a name', () => {
    const added = addClinician(spaA, clinician({ name: 'Jordan', role: 'RN', licenseNumber: '95012399' }));
    if (!added.ok) throw new Error('refused');
    expect(setLicenceChecked(admin, added.value.id, '95012399', true)).toEqual({ ok: true, value: undefined });
    expect(rowOf(added.value.id).licenseCheckedAt).toBeInstanceOf(Date);
    expect(rowOf(added.value.id).licenseCheckedBy).toBe(admin.id);
    // The check is in the editors' audit log, with the number it vouched for.
    const logged = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id), eq(auditLog.target, `spa:${spaA}`)))
      .all();
    expect(logged.map((row) => [row.action, row.detail])).toContainEqual(['check-licence', `95012399 (clinician ${added.value.id})`]);

    expect(updateClinician(spaA, added.value.id, clinician({ name: 'Jordan Reyes', role: 'RN', licenseNumber: '95012399' })).ok).toBe(true);
    expect(rowOf(added.value.id).licenseCheckedAt).toBeInstanceOf(Date);

    expect(updateClinician(spaA, added.value.id, clinician({ name: 'Jordan Reyes', role: 'RN', licenseNumber: '95012400' })).ok).toBe(true);
    expect(rowOf(added.value.id)).toMatchObject({ licenseNumber: '95012400', licenseCheckedAt: null, licenseCheckedBy: null });
  });

  it('cannot touch another spa’s clinician', () => {
    const other = addClinician(spaB, clinician({ name: 'Other', role: 'PA', licenseNumber: 'PA77777' }));
    if (!other.ok) throw new Error('refused');
    const before = rowOf(other.value.id);
    expect(updateClinician(spaA, other.value.id, clinician({ name: 'Hijacked', role: 'PA', licenseNumber: 'PA77777' }))).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    expect(removeClinician(spaA, other.value.id)).toBe(false);
    expect(rowOf(other.value.id)).toEqual(before);
  });
});

describe('licence checks', () => {
  it('are for editors only, and only for the number they saw', () => {
    const added = addClinician(spaB, clinician({ name: 'Dr. Dee', role: 'DO', licenseNumber: '20A55555', isMedicalDirector: true }));
    if (!added.ok) throw new Error('refused');
    expect(setLicenceChecked(owner, added.value.id, '20A55555', true)).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(setLicenceChecked(admin, added.value.id, '20A99999', true)).toMatchObject({ ok: false, reason: 'conflict' });
    expect(rowOf(added.value.id).licenseCheckedAt).toBeNull();
  });

  it('decide the spa card’s mark and the search filter', () => {
    const card = () => listActiveSpaCards().find((s) => s.id === spaB)!;
    const found = (trust: 'director' | 'checked') =>
      searchSpas({ page: 1, trust, city: undefined, service: undefined, tier: undefined, featured: undefined }).total;
    expect(card()).toMatchObject({ hasMedicalDirector: true, licencesChecked: false });
    const checkedBefore = found('checked');
    for (const c of listClinicians(spaB)) expect(setLicenceChecked(admin, c.id, c.licenseNumber, true).ok).toBe(true);
    expect(card()).toMatchObject({ hasMedicalDirector: true, licencesChecked: true });
    expect(found('checked')).toBe(checkedBefore + 1);
    expect(found('director')).toBeGreaterThanOrEqual(found('checked'));
  });
});
