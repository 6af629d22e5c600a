import { describe, expect, it } from 'vitest';
import { clinicianFormInput, clinicianSchema, isValidLicence, normaliseLicence } from './licences.ts';

describe('licence numbers by role', () => {
  it('accepts each board’s format and refuses another board’s', () => {
    expect(isValidLicence('MD', 'A123456')).toBe(true);
    expect(isValidLicence('MD', 'g 98765')).toBe(true);
    expect(isValidLicence('MD', 'C-45678')).toBe(true);
    expect(isValidLicence('MD', '123456')).toBe(false);
    expect(isValidLicence('MD', '20A12345')).toBe(false);
    expect(isValidLicence('DO', '20A12345')).toBe(true);
    expect(isValidLicence('DO', 'A12345')).toBe(false);
    expect(isValidLicence('PA', 'PA23456')).toBe(true);
    expect(isValidLicence('PA', '23456')).toBe(false);
    expect(isValidLicence('RN', '95012345')).toBe(true);
    expect(isValidLicence('RN', 'RN95012345')).toBe(false);
    expect(isValidLicence('NP', '95012')).toBe(true);
    expect(isValidLicence('NP', '123')).toBe(false);
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
