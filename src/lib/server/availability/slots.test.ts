// The slots endpoint's answers kept briefly (slots.ts slotsJsonFor), through
// this file's own copy of the database: a spa with one clinician and one
// service, `now` fixed at Tuesday 1 June 2027, 8:00 AM PDT (15:00Z). A booking
// written straight into the database stands for one made by another server
// process, which this process's cache does not hear of.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '#db/schema.ts';
import { db } from '../db.ts';
import { forgetSlots, SLOTS_CACHE_MS, SLOTS_STALE_MS, slotsJsonFor, type SlotsAnswer } from './slots.ts';
import { insertCity, insertClinician, insertService, insertSpa, nineToFiveOn } from './test-spa.ts';

const NOW = Date.parse('2027-06-01T15:00:00Z');
const fixture = { spaId: 0, serviceId: 0, clinicianId: 0 };

beforeAll(() => {
  const cityId = insertCity('Slots City', 'slots-cache-city');
  fixture.spaId = insertSpa({
    name: 'Slots Cache Spa',
    slug: 'slots-cache-spa',
    cityId,
    openingHours: nineToFiveOn('mon', 'tue', 'wed', 'thu', 'fri'),
    bookingMode: 'instant',
  });
  fixture.serviceId = insertService({ spaId: fixture.spaId, name: 'Botox', duration: 60 });
  fixture.clinicianId = insertClinician({ spaId: fixture.spaId, name: 'Ana', licenseNumber: 'SLOTS1' });
});

const query = new URLSearchParams({ service: '', from: '2027-06-01', days: '1' });
/** The first open time's start, as the endpoint would answer at `at`. */
function firstTime(at: number) {
  query.set('service', String(fixture.serviceId));
  const answer = slotsJsonFor(fixture.spaId, query, at);
  if (!answer.ok) throw new Error(answer.message);
  return (JSON.parse(answer.value) as SlotsAnswer).dates[0]!.times[0]!.start;
}
/** Books the time the way another server process would: in the database only. */
function bookElsewhere(start: string) {
  const at = Date.parse(start);
  db.insert(bookings)
    .values({
      spaId: fixture.spaId,
      serviceId: fixture.serviceId,
      name: 'Other Process',
      email: 'other-process@example.com',
      status: 'confirmed',
      scheduledAt: new Date(at),
      endsAt: new Date(at + 60 * 60_000),
      clinicianId: fixture.clinicianId,
      bookedVia: 'instant',
    })
    .run();
}
const turnsOfTheEventLoop = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the slots answers kept briefly', () => {
  it('serves a kept answer while fresh, sends it once more when stale and works it out again after the request, and works it out in the request when too old', async () => {
    const first = firstTime(NOW);
    // Two hours' notice from 8:00 AM: 10:00 AM PDT.
    expect(first).toBe('2027-06-01T17:00:00.000Z');
    bookElsewhere(first);

    expect(firstTime(NOW + SLOTS_CACHE_MS - 1)).toBe(first);
    const stale = NOW + SLOTS_CACHE_MS + 1;
    expect(firstTime(stale)).toBe(first);
    await turnsOfTheEventLoop(3);
    expect(firstTime(stale + 1)).toBe('2027-06-01T18:00:00.000Z');

    bookElsewhere('2027-06-01T18:00:00.000Z');
    // Past SLOTS_STALE_MS the kept answer is not sent at all.
    expect(firstTime(stale + SLOTS_STALE_MS)).toBe('2027-06-01T19:00:00.000Z');
  });

  it('forgets a spa at once when this process books there', () => {
    const at = NOW + 10 * SLOTS_STALE_MS;
    const first = firstTime(at);
    bookElsewhere(first);
    expect(firstTime(at + 1)).toBe(first);
    forgetSlots(fixture.spaId);
    expect(firstTime(at + 2)).not.toBe(first);
  });
});
