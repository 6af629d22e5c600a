// Booking an open time through the real database (the run's, migrated and
// seeded): a spa of this file's own with known hours, clinicians, a closed
// date and a day off, and `now` fixed at Tuesday 1 June 2027, 8:00 AM PDT
// (15:00Z). Pacific summer time is UTC-7, so 9:00 AM is 16:00Z.
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings, clinicianTimeOff, leads, mailQueue, spaDateHours, spas } from '#db/schema.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { db } from '../db.ts';
import { alternativesOf, bookOpenTime } from './book.ts';
import { openTimesFor } from './calendar.ts';
import { insertCity, insertClinician, insertService, insertSpa, nineToFiveOn } from './test-spa.ts';

const TAG = testTag('open-times');
const NOW = Date.parse('2027-06-01T15:00:00Z');
const ORIGIN = 'http://127.0.0.1:4321';
let n = 0;
const email = () => `${TAG}-${++n}@example.com`;
const fixture = { spaId: 0, botox: 0, filler: 0, laser: 0, ana: 0, ben: 0, cara: 0 };

beforeAll(() => {
  const owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  const cityId = insertCity('Test City', `${TAG}-city`);
  fixture.spaId = insertSpa({
    name: 'Open Times Spa',
    slug: `${TAG}-spa`,
    cityId,
    ownerId: owner.id,
    openingHours: nineToFiveOn('mon', 'tue', 'wed', 'thu', 'fri', 'sat'),
    bookingMode: 'instant',
    bookingHorizonDays: 30,
  });
  fixture.botox = insertService({ spaId: fixture.spaId, name: 'Botox' });
  fixture.filler = insertService({ spaId: fixture.spaId, name: 'Filler', treatment: 'fillers', duration: 45, bufferAfterMinutes: 15 });
  fixture.laser = insertService({ spaId: fixture.spaId, name: 'Laser', treatment: 'laser', duration: 60, bookableOnline: false });
  fixture.ana = insertClinician({ spaId: fixture.spaId, name: 'Ana', licenseNumber: 'ANA1', treatments: ['botox', 'fillers'] });
  fixture.ben = insertClinician({ spaId: fixture.spaId, name: 'Ben', licenseNumber: 'BEN1' });
  fixture.cara = insertClinician({ spaId: fixture.spaId, name: 'Cara', licenseNumber: 'CARA1', treatments: ['hydrafacial'] });
  db.insert(clinicianTimeOff).values({ clinicianId: fixture.ben, firstDay: '2027-06-04', lastDay: '2027-06-04', note: 'Off' }).run();
  db.insert(spaDateHours).values({ spaId: fixture.spaId, date: '2027-06-05', ranges: [], note: 'Holiday' }).run();
});

const book = (fields: Record<string, unknown>, now = NOW) =>
  bookOpenTime(fixture.spaId, { name: 'Test Client', email: email(), serviceId: fixture.botox, ...fields }, { clientAddress: null, origin: ORIGIN, now });

const counts = () => ({
  bookings: db
    .select({ n: sql<number>`count(*)` })
    .from(bookings)
    .get()!.n,
  leads: db
    .select({ n: sql<number>`count(*)` })
    .from(leads)
    .get()!.n,
});

const mailTo = (to: string) =>
  db
    .select()
    .from(mailQueue)
    .where(like(sql`json_extract(${mailQueue.message}, '$.to')`, to))
    .all();

describe('booking an open time at an instant spa', () => {
  it('confirms at once: the time, the end, a clinician, the confirmation mail with its invitation, the reminders and the spa told', () => {
    const to = email();
    const result = bookOpenTime(
      fixture.spaId,
      { name: 'Ana Client', email: to, serviceId: fixture.botox, start: '2027-06-02T16:00:00.000Z' },
      { clientAddress: null, origin: ORIGIN, now: NOW },
    );
    expect(result).toMatchObject({
      ok: true,
      value: { status: 'confirmed', message: 'Booked: Botox at Open Times Spa, Wednesday, June 2, 2027, 9:00 AM Pacific' },
    });
    if (!result.ok) return;
    const { booking } = result.value.details;
    expect(booking).toMatchObject({ status: 'confirmed', bookedVia: 'instant', clinicianId: fixture.ana, room: null, preferredDate: '2027-06-02' });
    expect(booking.scheduledAt!.toISOString()).toBe('2027-06-02T16:00:00.000Z');
    expect(booking.endsAt!.toISOString()).toBe('2027-06-02T16:30:00.000Z');
    const mails = mailTo(to);
    const confirmation = mails.find((m) => (m.message as { subject: string }).subject === 'Confirmed: Botox at Open Times Spa');
    expect(confirmation, 'the owner’s confirmation mail').toBeDefined();
    expect((confirmation!.message as { icalEvent?: { method: string } }).icalEvent?.method).toBe('REQUEST');
    // The day-before reminder is queued for 24 hours before, keyed to the booking.
    expect(mails.find((m) => m.key === `booking-${booking.id}:reminder-day-before`)?.notBefore?.toISOString()).toBe('2027-06-01T16:00:00.000Z');
    expect(mailTo(`${TAG}-owner@example.com`).some((m) => (m.message as { subject: string }).subject.startsWith('New booking: Botox'))).toBe(true);
    expect(db.select().from(leads).where(eq(leads.bookingId, booking.id)).get()).toMatchObject({ spaId: fixture.spaId, serviceId: fixture.botox });
  });

  it('gives the same time to the next free clinician, then answers "That time was just taken" with other open times', () => {
    const second = book({ start: '2027-06-02T16:00:00Z' });
    expect(second.ok && second.value.details.booking.clinicianId).toBe(fixture.ben);
    const before = counts();
    const third = book({ start: '2027-06-02T16:00:00Z' });
    expect(third).toMatchObject({ ok: false, reason: 'conflict', message: 'That time was just taken' });
    expect(counts()).toEqual(before);
    const alternatives = third.ok ? [] : alternativesOf(third);
    expect(alternatives.length).toBeGreaterThan(0);
    expect(alternatives[0]).toEqual({ start: '2027-06-02T16:30:00.000Z', label: '9:30 AM', date: '2027-06-02', dateLabel: 'Wednesday, June 2' });
    expect(alternatives.map((a) => a.start)).not.toContain('2027-06-02T16:00:00.000Z');
  });

  it('keeps the buffer after a treatment: the clinician is busy until it ends', () => {
    // Filler with Ana 11:00-11:45, then 15 minutes to clean up: free again at 12:00.
    expect(book({ serviceId: fixture.filler, clinicianId: fixture.ana, start: '2027-06-02T18:00:00Z' })).toMatchObject({ ok: true });
    expect(book({ clinicianId: fixture.ana, start: '2027-06-02T18:45:00Z' })).toMatchObject({ ok: false, reason: 'conflict' });
    expect(book({ clinicianId: fixture.ana, start: '2027-06-02T19:00:00Z' })).toMatchObject({ ok: true });
  });

  it('refuses every time the spa does not give with 422 reasons, and writes nothing', () => {
    const before = counts();
    const forged: [string, Record<string, unknown>, string, RegExp][] = [
      ['a time in the past', { start: '2027-05-31T16:00:00Z' }, 'start', /has passed/],
      ['inside the notice', { start: '2027-06-01T16:00:00Z' }, 'start', /at least 2 hours' notice/],
      ['beyond the horizon', { start: '2027-07-12T16:00:00Z' }, 'start', /up to 30 days ahead/],
      ['before opening', { start: '2027-06-02T15:00:00Z' }, 'start', /not one of the open times/],
      ['off the grid', { start: '2027-06-02T16:07:00Z' }, 'start', /not one of the open times/],
      ['a treatment running past closing', { serviceId: fixture.filler, start: '2027-06-02T23:30:00Z' }, 'start', /Nobody who performs/],
      ['a closed date', { start: '2027-06-05T17:00:00Z' }, 'start', /closed that day/],
      ['a Sunday', { start: '2027-06-06T17:00:00Z' }, 'start', /closed that day/],
      ['a clinician’s day off', { clinicianId: fixture.ben, start: '2027-06-04T17:00:00Z' }, 'clinicianId', /does not work at that time/],
      ['a clinician who does not perform it', { clinicianId: fixture.cara, start: '2027-06-03T17:00:00Z' }, 'clinicianId', /does not perform/],
      ['a service not bookable online', { serviceId: fixture.laser, start: '2027-06-03T17:00:00Z' }, 'serviceId', /cannot be booked online/],
      ['another spa’s clinician', { clinicianId: 999_999, start: '2027-06-03T17:00:00Z' }, 'clinicianId', /Choose a clinician/],
      ['no time at all', { start: 'tomorrow at nine' }, 'start', /Choose one of the open times/],
      // The picker sends its consent box as it stands; an API client may leave it out.
      ['the consent box left empty', { start: '2027-06-03T17:00:00Z', consent: false }, 'consent', /You must agree to continue/],
    ];
    for (const [what, fields, field, message] of forged) {
      const result = book(fields);
      expect(result, what).toMatchObject({ ok: false, reason: 'invalid' });
      expect(result.ok ? '' : result.fields?.[field], what).toMatch(message);
    }
    expect(counts()).toEqual(before);
  });

  it('answers not_found for a spa that takes no online bookings', () => {
    db.update(spas).set({ bookingMode: 'none' }).where(eq(spas.id, fixture.spaId)).run();
    try {
      expect(book({ start: '2027-06-03T17:00:00Z' })).toMatchObject({ ok: false, reason: 'not_found' });
      expect(openTimesFor(db, fixture.spaId, fixture.botox, '2027-06-02', 7, NOW)).toMatchObject({ ok: false, reason: 'not_found' });
    } finally {
      db.update(spas).set({ bookingMode: 'instant' }).where(eq(spas.id, fixture.spaId)).run();
    }
  });
});

describe('booking an open time at a request spa', () => {
  it('holds the time, pending, until the owner answers, and tells the client the spa will confirm', () => {
    db.update(spas).set({ bookingMode: 'request' }).where(eq(spas.id, fixture.spaId)).run();
    try {
      const to = email();
      const result = bookOpenTime(
        fixture.spaId,
        { name: 'Held Client', email: to, serviceId: fixture.filler, clinicianId: fixture.ana, start: '2027-06-03T17:00:00Z' },
        { clientAddress: null, origin: ORIGIN, now: NOW },
      );
      expect(result).toMatchObject({
        ok: true,
        value: { status: 'pending', message: 'Requested: Filler at Open Times Spa, Thursday, June 3, 2027, 10:00 AM Pacific. The spa will confirm.' },
      });
      if (!result.ok) return;
      expect(result.value.details.booking).toMatchObject({ bookedVia: 'hold', clinicianId: fixture.ana, bufferMinutes: 15 });
      expect(mailTo(to).map((m) => (m.message as { subject: string }).subject)).toEqual(['Requested: Filler at Open Times Spa']);
      // The held time is taken for Ana (with its buffer), and still open with Ben for Botox.
      expect(book({ clinicianId: fixture.ana, start: '2027-06-03T17:45:00Z' })).toMatchObject({ ok: false, reason: 'conflict' });
      expect(book({ start: '2027-06-03T17:45:00Z' })).toMatchObject({ ok: true, value: { status: 'pending' } });
    } finally {
      db.update(spas).set({ bookingMode: 'instant' }).where(eq(spas.id, fixture.spaId)).run();
    }
  });
});

describe('the database floor under the check (migration 0017 triggers)', () => {
  const taken = () =>
    db
      .select()
      .from(bookings)
      .where(and(eq(bookings.spaId, fixture.spaId), eq(bookings.clinicianId, fixture.ana)))
      .all()[0]!;

  it('refuses a second booking of the same clinician at an overlapping time, whoever writes it', () => {
    const first = taken();
    const overlap = () =>
      db
        .insert(bookings)
        .values({
          spaId: fixture.spaId,
          name: 'Raw Writer',
          email: email(),
          status: 'confirmed',
          scheduledAt: new Date(first.scheduledAt!.getTime() + 10 * 60_000),
          endsAt: new Date(first.scheduledAt!.getTime() + 40 * 60_000),
          clinicianId: fixture.ana,
          bookedVia: 'instant',
        })
        .run();
    expect(overlap).toThrow(/slot_taken/);
  });

  it('moves the end with the start when the owner sets a new time', () => {
    const first = taken();
    const length = first.endsAt!.getTime() - first.scheduledAt!.getTime();
    const later = new Date(first.scheduledAt!.getTime() + 7 * 86_400_000);
    db.update(bookings).set({ scheduledAt: later }).where(eq(bookings.id, first.id)).run();
    const moved = db.select().from(bookings).where(eq(bookings.id, first.id)).get()!;
    expect(moved.endsAt!.getTime() - moved.scheduledAt!.getTime()).toBe(length);
    expect(moved.scheduledAt!.toISOString()).toBe(later.toISOString());
  });
});
