// Search by open times (issue 24) through the real database: three spas of
// this file's own in a city of its own, `now` fixed at Tuesday 1 June 2027,
// 8:00 AM PDT (15:00Z). Soon books online and has a time this morning; Later
// books online but Ana, who gives its Botox, is away until the 14th (Ben, who
// does not, is in); Plain takes requests only. Later is Elite, so tier order
// puts it first.

import { beforeAll, describe, expect, it } from 'vitest';
import { clinicianTimeOff } from '#db/schema.ts';
import { parseSearchParams } from '#lib/search.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { db } from '../db.ts';
import { searchSpas } from '../directory/directory.ts';
import { bookOpenTime } from './book.ts';
import { forgetNextOpen, nextOpenLabel, nextOpenTimes } from './next-open.ts';
import { insertCity, insertClinician, insertService, insertSpa, nineToFiveOn } from './test-spa.ts';

const TAG = testTag('next-open');
const NOW = Date.parse('2027-06-01T15:00:00Z');
const fixture = { city: `${TAG}-city`, soon: 0, later: 0, plain: 0, botox: 0 };

beforeAll(() => {
  const cityId = insertCity('Next City', fixture.city);
  const week = nineToFiveOn('mon', 'tue', 'wed', 'thu', 'fri');
  const spa = (name: string, mode: 'instant' | 'request' | 'none', tier: 'FREE' | 'ELITE' = 'FREE') =>
    insertSpa({ name, slug: `${TAG}-${name.toLowerCase()}`, cityId, openingHours: week, bookingMode: mode, tier, active: true });
  fixture.soon = spa('Soon', 'instant');
  fixture.later = spa('Later', 'request', 'ELITE');
  fixture.plain = spa('Plain', 'none');
  for (const spaId of [fixture.soon, fixture.later, fixture.plain]) {
    const id = insertService({ spaId, name: 'Botox Cosmetic', priceCents: 1_400 });
    if (spaId === fixture.soon) fixture.botox = id;
    insertService({ spaId, name: 'Signature Peel', treatment: null, duration: 60, category: 'facial' });
    const clinician = insertClinician({ spaId, name: 'Ana', licenseNumber: `${TAG}${spaId}` });
    if (spaId === fixture.later) {
      db.insert(clinicianTimeOff).values({ clinicianId: clinician, firstDay: '2027-06-01', lastDay: '2027-06-13' }).run();
      insertClinician({ spaId, name: 'Ben', role: 'RN', licenseNumber: `${TAG}${spaId}b`, treatments: ['hydrafacial'] });
    }
  }
});

const search = (params: Record<string, string>) => {
  const parsed = parseSearchParams(new URLSearchParams({ city: fixture.city, ...params }));
  if (!parsed.success) throw new Error(parsed.error.message);
  return searchSpas(parsed.data, NOW).spas.map((spa) => [spa.name, spa.nextOpen ?? null]);
};

describe('search by open times', () => {
  it('shows the next open time on the cards of spas that book online (of the treatment searched), in tier order by default', () => {
    // Elite first, then the newest.
    expect(search({})).toEqual([
      ['Later', 'Today, 10:00 AM'],
      ['Plain', null],
      ['Soon', 'Today, 10:00 AM'],
    ]);
    expect(search({ service: 'botox' })).toEqual([
      ['Later', 'Monday, June 14, 9:00 AM'],
      ['Plain', null],
      ['Soon', 'Today, 10:00 AM'],
    ]);
  });

  it('filters on "available this week" and sorts by the next open time, spas without one last', () => {
    expect(search({ service: 'botox', available: 'week' })).toEqual([['Soon', 'Today, 10:00 AM']]);
    expect(search({ service: 'botox', sort: 'next' }).map(([name]) => name)).toEqual(['Soon', 'Later', 'Plain']);
    expect(search({ service: 'botox', sort: 'next', available: 'week' }).map(([name]) => name)).toEqual(['Soon']);
    expect(search({ available: 'week' }).map(([name]) => name)).toEqual(['Later', 'Soon']);
  });

  it('is the searched treatment’s time when a treatment is searched', () => {
    // The peel needs nobody in particular (no treatment key: Ben gives it), Botox needs Ana, who is away.
    expect(nextOpenTimes([fixture.later], undefined, NOW).get(fixture.later)).toBe(Date.parse('2027-06-01T17:00:00Z'));
    expect(nextOpenTimes([fixture.later], 'botox', NOW).get(fixture.later)).toBe(Date.parse('2027-06-14T16:00:00Z'));
    expect(nextOpenTimes([fixture.later], 'signature peel', NOW).get(fixture.later)).toBe(Date.parse('2027-06-01T17:00:00Z'));
  });

  it('follows a booking made in this process at once', () => {
    const before = nextOpenTimes([fixture.soon], 'botox', NOW).get(fixture.soon);
    expect(before).toBe(Date.parse('2027-06-01T17:00:00Z'));
    const booked = bookOpenTime(
      fixture.soon,
      { name: 'First', email: `${TAG}-first@example.com`, serviceId: fixture.botox, start: '2027-06-01T17:00:00Z' },
      { clientAddress: null, origin: 'http://127.0.0.1:4321', now: NOW },
    );
    expect(booked.ok).toBe(true);
    // Ana, Soon's only clinician, is busy for the half hour.
    expect(nextOpenTimes([fixture.soon], 'botox', NOW).get(fixture.soon)).toBe(Date.parse('2027-06-01T17:30:00Z'));
    forgetNextOpen(fixture.soon);
  });

  it('says the day as a person would', () => {
    expect(nextOpenLabel(Date.parse('2027-06-02T16:00:00Z'), NOW)).toBe('Tomorrow, 9:00 AM');
    expect(nextOpenLabel(Date.parse('2027-06-03T23:30:00Z'), NOW)).toBe('Thursday, June 3, 4:30 PM');
  });
});
