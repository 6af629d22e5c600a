import { describe, expect, it } from 'vitest';
import { CLINICIAN_ROLES, clinicianFormInput, clinicianSchema, isValidLicence, normaliseLicence, type ClinicianRole } from './licences.ts';

describe('licence numbers by role', () => {
  // Per board: numbers in its format, then numbers it must refuse (some in another board's format). Typed by role, so a new role needs cases.
  const numbers: Record<ClinicianRole, { valid: string[]; invalid: string[] }> = {
    MD: { valid: ['A123456', 'g 98765', 'C-45678'], invalid: ['123456', '20A12345'] },
    DO: { valid: ['20A12345'], invalid: ['A12345'] },
    PA: { valid: ['PA23456'], invalid: ['23456'] },
    RN: { valid: ['95012345'], invalid: ['RN95012345'] },
    NP: { valid: ['95012'], invalid: ['123'] },
  };
  const cases = CLINICIAN_ROLES.flatMap((role) => [
    ...numbers[role].valid.map((licence) => [role, licence, true] as const),
    ...numbers[role].invalid.map((licence) => [role, licence, false] as const),
  ]);
  it.each(cases)('accepts each board’s format and refuses another board’s: %s %j is valid: %s', (role, licence, valid) => {
    expect(isValidLicence(role, licence)).toBe(valid);
  });

  it('stores one spelling of a number', () => {
    expect(normaliseLicence(' a 123-456 ')).toBe('A123456');
  });
});

describe('the clinician form', () => {
  const form = (fields: Record<string, string | string[]>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(key, v);
    return clinicianFormInput(params);
  };

  it('reads a plain form post, checkboxes included', () => {
    const parsed = clinicianSchema.parse(
      form({ name: ' Dr. Ana Ruiz ', role: 'MD', licenseNumber: 'a 12345', isMedicalDirector: 'on', treatments: ['botox', 'laser'] }),
    );
    expect(parsed).toEqual({ name: 'Dr. Ana Ruiz', role: 'MD', licenseNumber: 'A12345', isMedicalDirector: true, treatments: ['botox', 'laser'] });
  });

  it('names the field and the expected format', () => {
    const result = clinicianSchema.safeParse(form({ name: 'Kim', role: 'PA', licenseNumber: '12345' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['licenseNumber'],
      message: 'Enter the Physician Assistant Board licence number, for example PA12345',
    });
  });

  it('refuses a nurse as medical director and unknown treatments', () => {
    const director = clinicianSchema.safeParse(form({ name: 'Kim', role: 'RN', licenseNumber: '95012345', isMedicalDirector: 'on' }));
    expect(director.error?.issues.map((i) => i.path.join('.'))).toEqual(['isMedicalDirector']);
    const treatment = clinicianSchema.safeParse(form({ name: 'Kim', role: 'RN', licenseNumber: '95012345', treatments: 'tattoos' }));
    expect(treatment.success).toBe(false);
  });
});
