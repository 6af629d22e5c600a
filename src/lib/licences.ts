// California licence numbers of the people who treat clients, checked by form
// only: whether a number is real and current is for an editor to look up on
// the state's public licence search (DCA), which the admin page links to.
// Formats (docs/decisions/0023): the Medical Board issues physician's and
// surgeon's licences as type A, C or G followed by digits (A 123456); the
// Osteopathic Medical Board's DO licences read 20A followed by digits; the
// Physician Assistant Board's read PA followed by digits; the Board of
// Registered Nursing's RN licences and NP certificates are digits only. The
// digit counts are deliberately loose (4-8) so that an older or newer number
// is not refused; a prefix from another board is.
import { z } from 'zod';
import { CLINICIAN_ROLES, type ClinicianRole } from '#db/schema.ts';
import { treatments } from '#content/site.ts';

export { CLINICIAN_ROLES, type ClinicianRole };

export const ROLE_LABELS: Record<ClinicianRole, string> = {
  MD: 'Physician (MD)',
  DO: 'Physician (DO)',
  NP: 'Nurse practitioner (NP)',
  PA: 'Physician assistant (PA)',
  RN: 'Registered nurse (RN)',
};

const FORMATS: Record<ClinicianRole, { pattern: RegExp; example: string; board: string }> = {
  MD: { pattern: /^[ACG]\d{4,8}$/, example: 'A123456', board: 'Medical Board of California' },
  DO: { pattern: /^20A\d{4,8}$/, example: '20A12345', board: 'Osteopathic Medical Board of California' },
  PA: { pattern: /^PA\d{4,8}$/, example: 'PA12345', board: 'Physician Assistant Board' },
  NP: { pattern: /^\d{4,8}$/, example: '12345', board: 'Board of Registered Nursing' },
  RN: { pattern: /^\d{4,8}$/, example: '95012345', board: 'Board of Registered Nursing' },
};

/** Upper case without spaces, hyphens or dots: "a 123-456" and "A123456" are one number. */
export function normaliseLicence(raw: string): string {
  return raw.toUpperCase().replace(/[\s.-]/g, '');
}

export function isValidLicence(role: ClinicianRole, raw: string): boolean {
  return FORMATS[role].pattern.test(normaliseLicence(raw));
}

export const licenceBoard = (role: ClinicianRole) => FORMATS[role].board;

export function licenceFormatMessage(role: ClinicianRole): string {
  const { example, board } = FORMATS[role];
  return `Enter the ${board} licence number, for example ${example}`;
}

/** The state's public licence search: nothing is fetched, the editor opens it and types the number. */
export const LICENCE_SEARCH_URL = 'https://search.dca.ca.gov/';

const TREATMENT_SLUGS = treatments.map((t) => t.slug) as string[];
export const treatmentLabel = (slug: string) => treatments.find((t) => t.slug === slug)?.name ?? slug;

/** One clinician as the owner's form sends it. */
export const clinicianSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter the name').max(120, 'Must be at most 120 characters'),
    role: z.enum(CLINICIAN_ROLES, { message: 'Choose MD, DO, NP, PA or RN' }),
    licenseNumber: z.string().trim().min(1, 'Enter the licence number').max(20, 'Must be at most 20 characters').transform(normaliseLicence),
    isMedicalDirector: z.boolean().default(false),
    treatments: z
      .array(z.enum(TREATMENT_SLUGS as [string, ...string[]], { message: 'Choose treatments from the list' }))
      .max(TREATMENT_SLUGS.length)
      .default([]),
  })
  .superRefine((value, ctx) => {
    if (!isValidLicence(value.role, value.licenseNumber)) {
      ctx.addIssue({ code: 'custom', path: ['licenseNumber'], message: licenceFormatMessage(value.role) });
    }
    if (value.isMedicalDirector && value.role !== 'MD' && value.role !== 'DO') {
      ctx.addIssue({ code: 'custom', path: ['isMedicalDirector'], message: 'The medical director must be a physician (MD or DO)' });
    }
  });

export type ClinicianInput = z.output<typeof clinicianSchema>;

/** The form's fields as the schema reads them (checkboxes send "on" or nothing). */
export function clinicianFormInput(form: Pick<URLSearchParams, 'get' | 'getAll'>) {
  return {
    name: form.get('name') ?? '',
    role: form.get('role') ?? '',
    licenseNumber: form.get('licenseNumber') ?? '',
    isMedicalDirector: form.get('isMedicalDirector') === 'on',
    treatments: form.getAll('treatments'),
  };
}

/** What the public page says about supervision and the good-faith exam (California). */
export const SUPERVISION_NOTE =
  'In California, injectables and lasers are medical treatments: a physician performs them, or a registered nurse, nurse practitioner or physician assistant under a physician’s supervision, and a physician, NP or PA examines you before your first treatment.';
