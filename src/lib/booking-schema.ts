// The payload of a booking request: one schema for the booking form and for
// POST /api/bookings (spec 5). The form adds the consent box, which is checked
// in the browser and never sent. Written with zod/mini because the form ships
// it to browsers.
import * as z from 'zod/mini';
import type { BookingChange } from './booking-lifecycle.ts';
import { fromPacificWallClock, pacificDate } from './dates.ts';

export const BOOKING_LIMITS = { name: 100, email: 254, phone: 30, message: 2000, tracking: 100, reason: 500 } as const;

export const BOOKING_MESSAGES = {
  name: 'Name is required',
  email: 'Valid email is required',
  consent: 'You must agree to continue',
  phone: 'Enter a valid phone number',
  date: 'Enter a valid date',
  pastDate: 'Preferred date cannot be in the past',
} as const;

// Control characters (other than line breaks and tabs in the message) have no
// business in a name or a phone number, and lone surrogates are not text.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const wellFormed = (message: string) => z.refine<string>((value) => value.isWellFormed() && !CONTROL.test(value), message);
const SINGLE_LINE = /[\r\n\u2028\u2029]/;
const VISIBLE = /[\p{L}\p{N}]/u;
/** Hangul fillers: letters to Unicode, blank on screen. */
const INVISIBLE_LETTERS = /[\u115f\u1160\u3164\uffa0]/g;
/** Embeddings, overrides and isolates, which can make a name read backwards in the spa's inbox. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

/** Optional text: absent, null and blank all mean "not given". */
function optionalText(max: number, message: string, checks: ((value: string) => boolean)[] = []) {
  return z.optional(
    z.nullable(
      z.pipe(
        z
          .string(message)
          .check(z.trim(), z.maxLength(max, `At most ${max} characters`), wellFormed(message), ...checks.map((fn) => z.refine<string>(fn, message))),
        z.transform((value) => value || undefined),
      ),
    ),
  );
}

const optionalId = (message: string) => z.optional(z.nullable(z.int(message).check(z.positive(message), z.lte(Number.MAX_SAFE_INTEGER, message))));

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

/** 'YYYY-MM-DD' for a calendar date, or for the date a browser's `new Date('YYYY-MM-DD')` serialises to. */
export function toCalendarDate(value: string): string | null {
  const match = DATE_PREFIX.exec(value.trim());
  if (!match) return null;
  const date = match[1]!;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date ? date : null;
}

const preferredDate = z.optional(
  z.nullable(
    z.pipe(
      z.string(BOOKING_MESSAGES.date).check(z.maxLength(40, BOOKING_MESSAGES.date)),
      z.transform((value, context) => {
        if (value.trim() === '') return undefined;
        const date = toCalendarDate(value);
        if (date === null) {
          context.issues.push({ code: 'custom', message: BOOKING_MESSAGES.date, input: value });
          return z.NEVER;
        }
        // Spec 5: the minimum is today, and today is Orange County's (rulings).
        if (date < pacificDate()) {
          context.issues.push({ code: 'custom', message: BOOKING_MESSAGES.pastDate, input: value });
          return z.NEVER;
        }
        return date;
      }),
    ),
  ),
);

const phoneDigits = (value: string) => {
  if (value === '') return true;
  const digits = value.replace(/\D/g, '').length;
  return /^[0-9+().\-\s]+$/.test(value) && digits >= 7 && digits <= 15;
};

export const bookingRequestSchema = z.object({
  name: z.string(BOOKING_MESSAGES.name).check(
    z.trim(),
    z.minLength(1, BOOKING_MESSAGES.name),
    z.maxLength(BOOKING_LIMITS.name, `At most ${BOOKING_LIMITS.name} characters`),
    wellFormed('Name contains characters that are not allowed'),
    z.refine((value) => !SINGLE_LINE.test(value), 'Name must be on one line'),
    // Zero-width and filler characters alone look like nothing at all.
    z.refine((value) => value === '' || VISIBLE.test(value.replace(INVISIBLE_LETTERS, '')), BOOKING_MESSAGES.name),
    z.refine((value) => !BIDI_CONTROLS.test(value), 'Name contains characters that are not allowed'),
  ),
  email: z.pipe(
    z.string(BOOKING_MESSAGES.email).check(z.trim(), z.toLowerCase(), z.maxLength(BOOKING_LIMITS.email, BOOKING_MESSAGES.email)),
    z.email(BOOKING_MESSAGES.email),
  ),
  phone: optionalText(BOOKING_LIMITS.phone, BOOKING_MESSAGES.phone, [phoneDigits]),
  serviceId: optionalId('Choose a service from the list'),
  spaId: optionalId('Choose a provider from the list'),
  preferredDate,
  message: z.optional(
    z.nullable(
      z.pipe(
        z.string('Message must be text').check(
          z.trim(),
          z.maxLength(BOOKING_LIMITS.message, `At most ${BOOKING_LIMITS.message} characters`),
          z.refine((value) => value.isWellFormed(), 'Message contains characters that are not allowed'),
        ),
        z.transform((value) => value.replace(/\r\n?/g, '\n').replace(new RegExp(CONTROL.source, 'g'), '') || undefined),
      ),
    ),
  ),
  // Where the visit came from (utm_source, utm_medium, utm_campaign), for the lead.
  source: optionalText(BOOKING_LIMITS.tracking, 'Source must be short text'),
  medium: optionalText(BOOKING_LIMITS.tracking, 'Medium must be short text'),
  campaign: optionalText(BOOKING_LIMITS.tracking, 'Campaign must be short text'),
});

/** The form's fields: the request plus the consent box, which is removed before sending. */
export const bookingFormSchema = z.extend(bookingRequestSchema, {
  consent: z.literal(true, BOOKING_MESSAGES.consent),
});

export type BookingRequest = z.output<typeof bookingRequestSchema>;

/** 'YYYY-MM-DDTHH:MM' is Orange County wall-clock time (a datetime-local field); an ISO instant with a zone is taken as it is. */
export function parseAppointmentTime(value: string): Date | null {
  if (/(?:Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? null : at;
  }
  return fromPacificWallClock(value);
}

const APPOINTMENT_MESSAGE = 'Choose a date and time for the appointment';

const appointmentTime = z.pipe(
  z.string(APPOINTMENT_MESSAGE).check(z.maxLength(40, APPOINTMENT_MESSAGE)),
  z.transform((value, context) => {
    const at = parseAppointmentTime(value.trim());
    if (at) return at;
    context.issues.push({ code: 'custom', message: APPOINTMENT_MESSAGE, input: value });
    return z.NEVER;
  }),
);

/**
 * A change to a booking (PATCH /api/bookings/{id} and the dashboard's forms):
 * a new status, with the appointment time when confirming; or a new time alone.
 */
export const bookingChangeSchema = z.pipe(
  z.object({
    status: z.optional(z.enum(['confirmed', 'completed', 'cancelled'], 'Status must be confirmed, completed or cancelled')),
    scheduledAt: z.optional(appointmentTime),
  }),
  z.transform((change, context): BookingChange => {
    const { status, scheduledAt } = change;
    if (status === 'completed' || status === 'cancelled') return { status };
    if (scheduledAt) return status === 'confirmed' ? { status, scheduledAt } : { reschedule: scheduledAt };
    context.issues.push({ code: 'custom', message: APPOINTMENT_MESSAGE, path: ['scheduledAt'], input: change });
    return z.NEVER;
  }),
);

/** Why the spa declines or cancels a booking (optional; the client's mail carries it, issue 26). */
export const cancelReasonSchema = optionalText(BOOKING_LIMITS.reason, 'The reason contains characters that are not allowed');

export const leadChangeSchema = z.object({
  status: z.enum(['new', 'contacted', 'converted', 'lost'], 'Status must be new, contacted, converted or lost'),
});
