import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bookings, cities, leads, spas } from '#db/schema.ts';
import { BOOKING_MESSAGES, bookingFormSchema } from '#lib/booking-schema.ts';
import { BOOKING_LIMITS } from './bookings.ts';
import { requestBooking } from './request.ts';
import { db } from '../db.ts';
import { testTag } from '#tests/support/tagged-rows.ts';

// The two mails are booking-mail.ts's concern (and its test's); here: were they sent, for which booking.
const announced = vi.hoisted(() => [] as number[]);
vi.mock('./booking-mail.ts', () => ({ announceNewBooking: (details: { booking: { id: number } }) => announced.push(details.booking.id) }));

const TAG = testTag('request-test');
const email = (who: string) => `${TAG}-${who}@example.com`;
const context = { clientAddress: null, origin: 'https://example.com' };
let spaId = 0;

beforeAll(() => {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get();
  if (!city) throw new Error('the seed should have a city');
  spaId = db
    .insert(spas)
    .values({ name: 'Request Test Spa', slug: `${TAG}-spa`, cityId: city.id, active: true, address: '1 Test Way' })
    .returning({ id: spas.id })
    .get().id;
});

beforeEach(() => {
  announced.length = 0;
});

describe('requestBooking: one flow for the API and the no-JS form', () => {
  it('stores the request and its lead, announces it, and answers 201', () => {
    const result = requestBooking({ name: ' Ana ', email: email('ok').toUpperCase(), spaId }, context);
    expect(result).toMatchObject({ ok: true, value: { id: expect.any(Number) } });
    if (!result.ok) return;
    expect(result.value.details.booking).toMatchObject({ name: 'Ana', email: email('ok'), spaId });
    expect(db.select().from(leads).where(eq(leads.bookingId, result.value.id)).get()).toMatchObject({ spaId });
    expect(announced).toEqual([result.value.id]);
  });

  it('refuses invalid fields with 422 and the schema’s messages, storing nothing', () => {
    const result = requestBooking({ name: '', email: 'nope' }, context);
    expect(result).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Some fields are not valid.',
      fields: { name: BOOKING_MESSAGES.name, email: BOOKING_MESSAGES.email },
    });
    expect(announced).toEqual([]);
  });

  it('refuses a spa that is not listed with 422 on spaId', () => {
    const result = requestBooking({ name: 'Ana', email: email('gone'), spaId: 2 ** 31 - 2 }, context);
    expect(result).toMatchObject({ ok: false, reason: 'invalid', fields: { spaId: expect.any(String) } });
    expect(
      db
        .select()
        .from(bookings)
        .where(eq(bookings.email, email('gone')))
        .all(),
    ).toEqual([]);
  });

  it('takes the form’s schema: consent is required, then dropped', () => {
    expect(requestBooking({ name: 'Ana', email: email('form') }, { ...context, schema: bookingFormSchema })).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Some fields are not valid.',
      fields: { consent: BOOKING_MESSAGES.consent },
    });
    expect(requestBooking({ name: 'Ana', email: email('form'), consent: true }, { ...context, schema: bookingFormSchema })).toMatchObject({
      ok: true,
      value: { id: expect.any(Number) },
    });
  });

  it('answers 429 with the wait once an address is over its limit, storing and mailing nothing', () => {
    for (let n = 0; n < BOOKING_LIMITS.perEmail; n++) expect(requestBooking({ name: 'Ana', email: email('flood'), spaId }, context).ok).toBe(true);
    announced.length = 0;
    const refused = requestBooking({ name: 'Ana', email: email('flood'), spaId }, context);
    expect(refused).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(!refused.ok && refused.reason === 'rate_limited' && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(
      db
        .select()
        .from(bookings)
        .where(eq(bookings.email, email('flood')))
        .all(),
    ).toHaveLength(BOOKING_LIMITS.perEmail);
    expect(announced).toEqual([]);
  });
});
