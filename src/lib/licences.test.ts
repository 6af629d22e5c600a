import { describe, expect, it } from 'vitest';
import { clinicianFormInput, clinicianSchema, isValidLicence, normaliseLicence } from './licences.ts';

describe('licence numbers by role', () => {
  it.each([
    { role: 'MD', licence: 'A123456', valid: true },
    { role: 'MD', licence: 'g 98765', valid: true },
    { role: 'MD', licence: 'C-45678', valid: true },
    { role: 'MD', licence: '123456', valid: false },
    { role: 'MD', licence: '20A12345', valid: false },
    { role: 'DO', licence: '20A12345', valid: true },
    { role: 'DO', licence: 'A12345', valid: false },
    { role: 'PA', licence: 'PA23456', valid: true },
    { role: 'PA', licence: '23456', valid: false },
    { role: 'RN', licence: '95012345', valid: true },
    { role: 'RN', licence: 'RN95012345', valid: false },
    { role: 'NP', licence: '95012', valid: true },
    { role: 'NP', licence: '123', valid: false },
  ] as const)('accepts each board’s format and refuses another board’s: $role $licence is valid: $valid', ({ role, licence, valid }) => {
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
