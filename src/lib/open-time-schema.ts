// The payload of booking an open time (issue 24): one schema for
// POST /api/spas/{id}/bookings (JSON) and the plain form post of /booking/time,
// which adds the consent box as the request form does. The person's fields
// are the booking request's own (src/lib/booking-schema.ts), so a name or an
// address refused there is refused here too. The picker's island does not
// ship it: it sends what is in the form, consent box included, and shows the
// endpoint's messages under the fields.
import * as z from 'zod/mini';
import { BOOKING_MESSAGES, bookingRequestSchema } from './booking-schema.ts';

export const OPEN_TIME_MESSAGES = {
  service: 'Choose a service',
  start: 'Choose one of the open times',
  clinician: 'Choose a clinician from the list',
  taken: 'That time was just taken',
} as const;

const id = (message: string) => z.int(message).check(z.positive(message), z.lte(Number.MAX_SAFE_INTEGER, message));

/** An instant with its zone ('2027-03-14T16:00:00.000Z' as the slots endpoint gives it, or with an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Epoch milliseconds of an instant written as the slots endpoint writes it (or with an offset); null for anything else. */
export function parseInstant(value: string): number | null {
  const at = value.length <= 40 && INSTANT.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  return Number.isNaN(at) ? null : at;
}

const start = z.pipe(
  z.string(OPEN_TIME_MESSAGES.start).check(z.maxLength(40, OPEN_TIME_MESSAGES.start)),
  z.transform((value, context) => {
    const at = parseInstant(value) ?? Number.NaN;
    if (Number.isNaN(at)) {
      context.issues.push({ code: 'custom', message: OPEN_TIME_MESSAGES.start, input: value });
      return z.NEVER;
    }
    return at;
  }),
);

export const openTimeBookingSchema = z.extend(
  z.pick(bookingRequestSchema, { name: true, email: true, phone: true, message: true, source: true, medium: true, campaign: true }),
  {
    serviceId: id(OPEN_TIME_MESSAGES.service),
    /** The chosen start, as an instant: epoch milliseconds once parsed. */
    start,
    /** The clinician the client chose; absent: the spa's first free one. */
    clinicianId: z.optional(z.nullable(id(OPEN_TIME_MESSAGES.clinician))),
    /** The consent box, when the payload comes from a form that has one (the picker sends it as it stands); the API may leave it out. */
    consent: z.optional(z.literal(true, BOOKING_MESSAGES.consent)),
  },
);

/** The no-JavaScript form's fields: the booking plus the consent box. */
export const openTimeFormSchema = z.extend(openTimeBookingSchema, {
  consent: z.literal(true, BOOKING_MESSAGES.consent),
});

export type OpenTimeBooking = z.output<typeof openTimeBookingSchema>;
