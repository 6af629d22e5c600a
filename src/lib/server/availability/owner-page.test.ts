// The availability page's posts through the real database: each form's
// refusals change nothing, and a change of hours that leaves bookings outside
// waits for the owner's word (keep or cancel, the client told).
import { eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings, clinicians, clinicianTimeOff, mailQueue, services, spaDateHours, spas } from '#db/schema.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { db } from '../db.ts';
import { bookOpenTime } from './book.ts';
import { handleAvailabilityPost } from './owner-page.ts';
import { insertCity, insertClinician, insertService, insertSpa, nineToFiveOn } from './test-spa.ts';

const TAG = testTag('availability-page');
const NOW = Date.parse('2027-06-01T15:00:00Z'); // Tuesday 8:00 AM PDT
const TODAY = '2027-06-01';
const fixture = { spaId: 0, serviceId: 0, clinicianId: 0 };
let owner: SessionUser;

beforeAll(() => {
  owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  const cityId = insertCity('Test City', `${TAG}-city`);
  fixture.spaId = insertSpa({
    name: 'Settings Spa',
    slug: `${TAG}-spa`,
    cityId,
    ownerId: owner.id,
    openingHours: nineToFiveOn('wed', 'thu'),
    bookingMode: 'instant',
  });
  fixture.serviceId = insertService({ spaId: fixture.spaId, name: 'Botox', priceCents: 100 });
  fixture.clinicianId = insertClinician({ spaId: fixture.spaId, name: 'Ana', licenseNumber: 'NP1' });
  // Wednesday 2 June, 4:00 PM PDT.
  const booked = bookOpenTime(
    fixture.spaId,
    { name: 'Kept Client', email: `${TAG}-client@example.com`, serviceId: fixture.serviceId, start: '2027-06-02T23:00:00Z' },
    { clientAddress: null, origin: 'http://127.0.0.1', now: NOW },
  );
  if (!booked.ok) throw new Error(`fixture booking refused: ${booked.message}`);
});

const post = (fields: Record<string, string>) =>
  handleAvailabilityPost(new URLSearchParams(fields), { spaId: fixture.spaId, user: owner, origin: 'http://127.0.0.1', today: TODAY, now: NOW });
const spa = () => db.select().from(spas).where(eq(spas.id, fixture.spaId)).get()!;
const theBooking = () => db.select().from(bookings).where(eq(bookings.spaId, fixture.spaId)).get()!;
const week = (wed: [string, string]) => ({ 'wed.open1': wed[0], 'wed.close1': wed[1], 'thu.open1': '09:00', 'thu.close1': '17:00' });

describe('the booking rules form', () => {
  it('saves valid rules and refuses bad ones field by field, saving nothing', () => {
    const saved = post({
      intent: 'rules',
      bookingMode: 'request',
      minNoticeMinutes: '60',
      bookingHorizonDays: '30',
      slotStepMinutes: '30',
      treatmentRooms: '2',
    });
    expect(saved).toBeInstanceOf(Response);
    expect((saved as Response).headers.get('Location')).toBe(`/owner/spas/${fixture.spaId}/availability?done=rules#rules-heading`);
    expect(spa()).toMatchObject({ bookingMode: 'request', minNoticeMinutes: 60, bookingHorizonDays: 30, slotStepMinutes: 30, treatmentRooms: 2 });
    const refused = post({
      intent: 'rules',
      bookingMode: 'instant',
      minNoticeMinutes: '99999',
      bookingHorizonDays: '0',
      slotStepMinutes: '15',
      treatmentRooms: 'many',
    });
    expect(refused).toMatchObject({ status: 422, values: { intent: 'rules' } });
    expect(Object.keys((refused as { errors: object }).errors).sort()).toEqual(['bookingHorizonDays', 'minNoticeMinutes', 'treatmentRooms']);
    expect(spa()).toMatchObject({ bookingMode: 'request', minNoticeMinutes: 60, slotStepMinutes: 30 });
    post({ intent: 'rules', bookingMode: 'instant', minNoticeMinutes: '120', bookingHorizonDays: '60', slotStepMinutes: '15', treatmentRooms: '' });
  });

  it('refuses online booking without weekly hours', () => {
    db.update(spas).set({ openingHours: null }).where(eq(spas.id, fixture.spaId)).run();
    try {
      const refused = post({
        intent: 'rules',
        bookingMode: 'instant',
        minNoticeMinutes: '120',
        bookingHorizonDays: '60',
        slotStepMinutes: '15',
        treatmentRooms: '',
      });
      expect(refused).toMatchObject({ status: 422, errors: { bookingMode: 'Set your weekly hours before clients can book online' } });
    } finally {
      db.update(spas)
        .set({ openingHours: nineToFiveOn('wed', 'thu') })
        .where(eq(spas.id, fixture.spaId))
        .run();
    }
  });
});

describe('changing hours never drops a booking silently', () => {
  it('shows the booking a shorter day leaves outside, and saves nothing until the owner answers', () => {
    const answer = post({ intent: 'hours', ...week(['09:00', '15:00']) });
    expect(answer).toMatchObject({
      status: 409,
      values: { intent: 'hours', affected: [{ name: 'Kept Client', serviceName: 'Botox', when: 'Wednesday, June 2, 2027, 4:00 PM Pacific' }] },
    });
    expect(spa().openingHours!.wed).toEqual([['09:00', '17:00']]);
  });

  it('keeps the booking when the owner says keep, and saves the hours', () => {
    const answer = post({ intent: 'hours', ...week(['09:00', '15:00']), decision: 'keep' });
    expect((answer as Response).headers.get('Location')).toContain('done=hours');
    expect(spa().openingHours!.wed).toEqual([['09:00', '15:00']]);
    expect(theBooking().status).toBe('confirmed');
  });

  it('cancels it, telling the client, when the owner says cancel', () => {
    // Time off on the booking's day: the same question, answered with cancel.
    const fields = { intent: 'time-off', id: String(fixture.clinicianId), firstDay: '2027-06-02', lastDay: '2027-06-02', note: 'Sick day' };
    expect(post(fields)).toMatchObject({ status: 409 });
    expect(db.select().from(clinicianTimeOff).where(eq(clinicianTimeOff.clinicianId, fixture.clinicianId)).all()).toHaveLength(0);
    const answer = post({ ...fields, decision: 'cancel' });
    expect((answer as Response).headers.get('Location')).toContain('done=cancelled');
    expect(theBooking().status).toBe('cancelled');
    expect(db.select().from(clinicianTimeOff).where(eq(clinicianTimeOff.clinicianId, fixture.clinicianId)).all()).toHaveLength(1);
    const told = db
      .select()
      .from(mailQueue)
      .where(like(sql`json_extract(${mailQueue.message}, '$.subject')`, 'Cancelled: Botox at Settings Spa'))
      .all();
    expect(told.map((m) => (m.message as { to: string }).to)).toEqual([`${TAG}-client@example.com`]);
  });
});

describe('dates, services and clinicians', () => {
  it('adds and removes a closed date; refuses a past one', () => {
    expect(post({ intent: 'date', date: '2027-05-01', closed: 'on' })).toMatchObject({ status: 422, errors: { date: 'Choose today or a later date' } });
    expect(post({ intent: 'date', date: '2027-07-05', closed: 'on', note: 'Holiday' })).toBeInstanceOf(Response);
    expect(db.select().from(spaDateHours).where(eq(spaDateHours.spaId, fixture.spaId)).all()).toMatchObject([
      { date: '2027-07-05', ranges: [], note: 'Holiday' },
    ]);
    expect(post({ intent: 'remove-date', date: '2027-07-05' })).toBeInstanceOf(Response);
    expect(db.select().from(spaDateHours).where(eq(spaDateHours.spaId, fixture.spaId)).all()).toEqual([]);
  });

  it('saves a service’s online booking and buffer; another spa’s service is not found', () => {
    expect(post({ intent: 'service', id: String(fixture.serviceId), bufferAfterMinutes: '10' })).toBeInstanceOf(Response);
    expect(db.select().from(services).where(eq(services.id, fixture.serviceId)).get()).toMatchObject({ bookableOnline: false, bufferAfterMinutes: 10 });
    expect(post({ intent: 'service', id: String(fixture.serviceId), bookableOnline: 'on', bufferAfterMinutes: '300' })).toMatchObject({ status: 422 });
    const other = db
      .select({ id: services.id })
      .from(services)
      .where(sql`${services.spaId} <> ${fixture.spaId}`)
      .get()!;
    expect(post({ intent: 'service', id: String(other.id), bookableOnline: 'on', bufferAfterMinutes: '5' })).toMatchObject({ status: 404 });
    expect(db.select().from(services).where(eq(services.id, other.id)).get()!.bufferAfterMinutes).not.toBe(5);
  });

  it('saves a clinician’s own week, or whenever the spa is open', () => {
    expect(post({ intent: 'clinician-hours', id: String(fixture.clinicianId), 'wed.open1': '10:00', 'wed.close1': '14:00' })).toBeInstanceOf(Response);
    expect(db.select().from(clinicians).where(eq(clinicians.id, fixture.clinicianId)).get()!.workingHours!.wed).toEqual([['10:00', '14:00']]);
    expect(post({ intent: 'clinician-hours', id: String(fixture.clinicianId), always: 'on' })).toBeInstanceOf(Response);
    expect(db.select().from(clinicians).where(eq(clinicians.id, fixture.clinicianId)).get()!.workingHours).toBeNull();
    expect(post({ intent: 'clinician-hours', id: String(fixture.clinicianId), 'wed.open1': '10:00' })).toMatchObject({
      status: 422,
      errors: { 'wed.open1': expect.any(String) },
    });
  });
});
