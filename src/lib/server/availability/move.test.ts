// The picker as pages render it, and a client moving their booking to another
// open time (issue 24), through the real database: two spas of this file's
// own (one books instantly, one holds times for the owner), `now` fixed at
// Tuesday 1 June 2027, 8:00 AM PDT (15:00Z); 9:00 AM Pacific is 16:00Z.
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, mailQueue } from '#db/schema.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import { db } from '../db.ts';
import { bookOpenTime } from './book.ts';
import { moveBooking, movableBooking, movableBookingId } from './move.ts';
import { pickerFor } from './picker.ts';
import { insertCity, insertClinician, insertService, insertSpa, nineToFiveOn } from './test-spa.ts';
import { bookingDetails } from '../bookings/bookings.ts';
import { manageAction } from '../bookings/manage.ts';

const TAG = testTag('move-time');
const NOW = Date.parse('2027-06-01T15:00:00Z');
const ORIGIN = 'http://127.0.0.1:4321';
let n = 0;
const email = () => `${TAG}-${++n}@example.com`;
const fixture = { instant: 0, request: 0, botox: 0, heldBotox: 0, laser: 0 };

beforeAll(() => {
  const owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  const cityId = insertCity('Move City', `${TAG}-city`);
  const spa = (name: string, mode: 'instant' | 'request') =>
    insertSpa({
      name,
      slug: `${TAG}-${mode}`,
      cityId,
      ownerId: owner.id,
      openingHours: nineToFiveOn('mon', 'tue', 'wed', 'thu', 'fri'),
      bookingMode: mode,
      bookingHorizonDays: 30,
      cancellationWindowHours: 24,
    });
  fixture.instant = spa('Move Spa', 'instant');
  fixture.request = spa('Hold Spa', 'request');
  fixture.botox = insertService({ spaId: fixture.instant, name: 'Botox' });
  fixture.laser = insertService({ spaId: fixture.instant, name: 'Laser', treatment: 'laser', duration: 60, bookableOnline: false });
  fixture.heldBotox = insertService({ spaId: fixture.request, name: 'Botox' });
  for (const spaId of [fixture.instant, fixture.request]) insertClinician({ spaId, name: 'Ana', licenseNumber: `${TAG}${spaId}` });
});

afterAll(() => {
  for (const spaId of [fixture.instant, fixture.request]) db.delete(bookings).where(eq(bookings.spaId, spaId)).run();
});

const mailTo = (to: string) =>
  db
    .select()
    .from(mailQueue)
    .where(like(sql`json_extract(${mailQueue.message}, '$.to')`, to))
    .all()
    .map((row) => ({ ...row, message: row.message as { subject: string; text: string; icalEvent?: { method: string; content: string } } }));

function booked(spaId: number, serviceId: number, start: string, to = email()) {
  const result = bookOpenTime(spaId, { name: 'Moving Client', email: to, serviceId, start }, { clientAddress: null, origin: ORIGIN, now: NOW });
  if (!result.ok) throw new Error(result.message);
  return { ...result.value.details.booking, email: to };
}

describe('the picker as a page renders it', () => {
  it('lists the treatments clients may book online and shows a week once one is chosen', () => {
    const none = pickerFor(fixture.instant, {}, NOW)!;
    expect(none.services.map((s) => s.name)).toEqual(['Botox']);
    expect(none.services[0]!.label).toBe('Botox · 30 minutes · From $200.00');
    expect(none).toMatchObject({ serviceId: null, week: null, chosen: null });
    // A treatment of another spa, or one not bookable online, counts as none chosen.
    expect(pickerFor(fixture.instant, { service: String(fixture.laser) }, NOW)!.serviceId).toBeNull();
    expect(pickerFor(fixture.instant, { service: String(fixture.heldBotox) }, NOW)!.serviceId).toBeNull();

    const week = pickerFor(fixture.instant, { service: String(fixture.botox) }, NOW)!.week!;
    expect(week.from).toBe('2027-06-01');
    expect(week.dates).toHaveLength(7);
    // 8:00 AM with two hours' notice: the first time is 10:00 AM today.
    expect(week.nextAvailable).toEqual({ start: '2027-06-01T17:00:00.000Z', label: 'Tuesday, June 1, 2027, 10:00 AM Pacific', date: '2027-06-01' });
    expect(week.previous).toBeNull();
    expect(week.next).toBe('2027-06-08');
    // A week without a time says when the next one is: the Saturday and Sunday from the 5th are closed.
    const weekend = pickerFor(fixture.instant, { service: String(fixture.botox), from: '2027-06-05' }, NOW)!.week!;
    expect(weekend.dates[0]!.times).toEqual([]);
    expect(weekend.previous).toBe('2027-06-01');
    // The last window that starts inside the 30-day horizon has no later one.
    expect(pickerFor(fixture.instant, { service: String(fixture.botox), from: '2027-06-29' }, NOW)!.week!.next).toBeNull();
    // A spa that takes no online bookings has no picker.
    expect(pickerFor(0, {}, NOW)).toBeNull();
  });

  it('takes a chosen time that is still open, and shows the week of one that is not, with the reason', () => {
    const open = pickerFor(fixture.instant, { service: String(fixture.botox), start: '2027-06-02T16:00:00.000Z' }, NOW)!;
    expect(open.chosen).toEqual({ start: '2027-06-02T16:00:00.000Z', label: 'Wednesday, June 2, 2027, 9:00 AM Pacific', date: '2027-06-02' });
    expect(open.week).toBeNull();
    const sunday = pickerFor(fixture.instant, { service: String(fixture.botox), start: '2027-06-06T16:00:00.000Z' }, NOW)!;
    expect(sunday).toMatchObject({ chosen: null, refused: 'Move Spa is closed that day. Choose one of the open times.' });
    expect(sunday.week!.from).toBe('2027-06-06');
    expect(pickerFor(fixture.instant, { service: String(fixture.botox), start: 'tomorrow' }, NOW)!.refused).toBe('Choose one of the open times');
  });
});

describe('a client moving their booking', () => {
  it('moves a confirmed time at an instant spa: the new time, end and sequence, the updated invitation, new reminders and the spa told', () => {
    const before = booked(fixture.instant, fixture.botox, '2027-06-03T16:00:00.000Z');
    const result = moveBooking(before.manageToken!, '2027-06-04T18:00:00.000Z', ORIGIN, NOW);
    expect(result.ok).toBe(true);
    const after = bookingDetails(before.id)!.booking;
    expect(after).toMatchObject({ status: 'confirmed', preferredDate: '2027-06-04', calendarSequence: before.calendarSequence + 1 });
    expect(after.scheduledAt!.toISOString()).toBe('2027-06-04T18:00:00.000Z');
    expect(after.endsAt!.toISOString()).toBe('2027-06-04T18:30:00.000Z');

    const moved = mailTo(before.email).find((m) => m.message.subject === 'New time: Botox at Move Spa');
    expect(moved, 'the client’s mail').toBeDefined();
    expect(moved!.message.text).toContain('is now on Friday, June 4, 2027, 11:00 AM Pacific (it was Thursday, June 3, 2027, 9:00 AM Pacific)');
    expect(moved!.message.icalEvent?.method).toBe('REQUEST');
    expect(moved!.message.icalEvent?.content).toContain(`SEQUENCE:${before.calendarSequence + 1}`);
    expect(moved!.message.icalEvent?.content).toContain('DTSTART;TZID=America/Los_Angeles:20270604T110000');
    // The reminders follow: the day before the new time.
    const reminder = db
      .select()
      .from(mailQueue)
      .where(eq(mailQueue.key, `booking-${before.id}:reminder-day-before`))
      .get();
    expect(reminder?.notBefore?.toISOString()).toBe('2027-06-03T18:00:00.000Z');
    expect(mailTo(`${TAG}-owner@example.com`).some((m) => m.message.subject.startsWith('Moved: Botox, Friday, June 4, 2027, 11:00 AM'))).toBe(true);
  });

  it('moves by a quarter of an hour across its own time, and refuses a time someone else holds, with other open times', () => {
    const mine = booked(fixture.instant, fixture.botox, '2027-06-07T16:00:00.000Z');
    expect(moveBooking(mine.manageToken!, '2027-06-07T16:15:00.000Z', ORIGIN, NOW).ok).toBe(true);
    booked(fixture.instant, fixture.botox, '2027-06-07T17:00:00.000Z');
    const taken = moveBooking(mine.manageToken!, '2027-06-07T17:00:00.000Z', ORIGIN, NOW);
    expect(taken).toMatchObject({ ok: false, reason: 'conflict', code: 'slot_taken', message: 'That time was just taken' });
    expect(!taken.ok && (taken.details?.alternatives as unknown[]).length).toBeGreaterThan(0);
    expect(bookingDetails(mine.id)!.booking.scheduledAt!.toISOString()).toBe('2027-06-07T16:15:00.000Z');
    // The same time again, a closed day and nonsense are refused, and nothing moves.
    expect(moveBooking(mine.manageToken!, '2027-06-07T16:15:00.000Z', ORIGIN, NOW)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(moveBooking(mine.manageToken!, '2027-06-06T16:15:00.000Z', ORIGIN, NOW)).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { start: expect.stringContaining('closed') },
    });
    expect(moveBooking(mine.manageToken!, 'soon', ORIGIN, NOW)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(moveBooking('a'.repeat(32), '2027-06-08T16:00:00.000Z', ORIGIN, NOW)).toMatchObject({ ok: false, reason: 'not_found' });
  });

  it('moves a held time at a request spa and keeps it held for the owner, without an invitation', () => {
    const hold = booked(fixture.request, fixture.heldBotox, '2027-06-08T16:00:00.000Z');
    expect(hold.status).toBe('pending');
    expect(moveBooking(hold.manageToken!, '2027-06-09T16:00:00.000Z', ORIGIN, NOW).ok).toBe(true);
    expect(bookingDetails(hold.id)!.booking).toMatchObject({ status: 'pending', calendarSequence: hold.calendarSequence + 1 });
    const mail = mailTo(hold.email).find((m) => m.message.subject === 'Requested: Botox at Hold Spa' && m.message.text.includes('instead of'));
    expect(mail?.message.icalEvent).toBeUndefined();
    expect(mailTo(`${TAG}-owner@example.com`).some((m) => m.message.subject.startsWith('New time requested: Botox'))).toBe(true);
  });

  it('refuses inside the cancellation window, and a time the request spa itself confirmed', () => {
    const soon = booked(fixture.instant, fixture.botox, '2027-06-01T22:00:00.000Z');
    expect(movableBooking(bookingDetails(soon.id)!, NOW)).toMatchObject({ ok: false, code: 'inside_cancellation_window' });
    expect(moveBooking(soon.manageToken!, '2027-06-10T16:00:00.000Z', ORIGIN, NOW)).toMatchObject({ ok: false, code: 'inside_cancellation_window' });

    const hold = booked(fixture.request, fixture.heldBotox, '2027-06-10T16:00:00.000Z');
    db.update(bookings).set({ status: 'confirmed' }).where(eq(bookings.id, hold.id)).run();
    expect(moveBooking(hold.manageToken!, '2027-06-11T16:00:00.000Z', ORIGIN, NOW)).toMatchObject({ ok: false, reason: 'conflict' });
    // The slots endpoint leaves out only a booking of that spa.
    expect(movableBookingId(hold.manageToken!, fixture.request)).toBe(hold.id);
    expect(movableBookingId(hold.manageToken!, fixture.instant)).toBeNull();
  });

  it('answers the manage page’s posts: moved, and cancelled', () => {
    const mine = booked(fixture.instant, fixture.botox, '2027-06-14T16:00:00.000Z');
    const moved = manageAction(new URLSearchParams({ intent: 'reschedule', start: '2027-06-15T16:00:00.000Z' }), mine.id, mine.manageToken!, ORIGIN, NOW);
    expect(moved).toMatchObject({ status: 200, values: { done: 'moved', when: 'Tuesday, June 15, 2027, 9:00 AM Pacific' } });
    const refused = manageAction(new URLSearchParams({ intent: 'reschedule', start: '2027-06-13T16:00:00.000Z' }), mine.id, mine.manageToken!, ORIGIN, NOW);
    expect(refused).toMatchObject({ status: 422, values: { done: null, start: '2027-06-13T16:00:00.000Z' }, errors: { _: expect.stringContaining('closed') } });
  });
});
