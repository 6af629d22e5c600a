// A booking's lead follows the booking (issue 26): before, a lead stayed "new"
// after the spa confirmed, completed or declined the request it came from.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, leads, services, spas } from '#db/schema.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { db } from '../db.ts';
import { changeBooking, changeLeadStatus, createBooking } from './bookings.ts';

const TAG = testTag('lead-follows');
const DAY = 86_400_000;
let owner: SessionUser;
let serviceId = 0;

beforeAll(() => {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  owner = insertUser(`${TAG}-owner@example.com`, 'owner');
  const spaId = db
    .insert(spas)
    .values({ name: 'Lead Spa', slug: `${TAG}-spa`, cityId: city.id, ownerId: owner.id, active: true })
    .returning({ id: spas.id })
    .get().id;
  serviceId = db
    .insert(services)
    .values({ spaId, name: 'Lead Facial', priceCents: 15_000, duration: 60, category: 'facial' })
    .returning({ id: services.id })
    .get().id;
});

let count = 0;
function request() {
  const created = createBooking({ name: 'Lea Client', email: `${TAG}-client-${count++}@example.com`, serviceId, preferredDate: '2030-05-01' });
  if (!created.ok) throw new Error('booking refused');
  return created.value.id;
}
const leadOf = (bookingId: number) => db.select({ id: leads.id, status: leads.status }).from(leads).where(eq(leads.bookingId, bookingId)).get()!;
const soon = () => new Date(Date.now() + 2 * DAY);

describe('a lead follows its booking', () => {
  it('is contacted once the spa confirms, converted once the visit is completed', () => {
    const id = request();
    expect(leadOf(id).status).toBe('new');
    const at = soon();
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: at }, { user: owner }).ok).toBe(true);
    expect(leadOf(id).status).toBe('contacted');
    expect(changeBooking(id, { status: 'completed' }, { user: owner }, new Date(at.getTime() + 3_600_000)).ok).toBe(true);
    expect(leadOf(id).status).toBe('converted');
  });

  it('is lost when the spa declines, or the client cancels', () => {
    const declined = request();
    expect(changeBooking(declined, { status: 'cancelled' }, { user: owner }).ok).toBe(true);
    expect(leadOf(declined).status).toBe('lost');

    const cancelled = request();
    const client = insertUser(`${TAG}-client-${count - 1}@example.com`);
    expect(changeBooking(cancelled, { status: 'cancelled' }, { user: client }).ok).toBe(true);
    expect(leadOf(cancelled).status).toBe('lost');
  });

  it('keeps a lead the owner already decided, and a refused change moves nothing', () => {
    const id = request();
    expect(changeLeadStatus(leadOf(id).id, 'lost', owner).ok).toBe(true);
    expect(changeBooking(id, { status: 'confirmed', scheduledAt: soon() }, { user: owner }).ok).toBe(true);
    expect(leadOf(id).status).toBe('lost');

    const untouched = request();
    expect(changeBooking(untouched, { status: 'completed' }, { user: owner }).ok).toBe(false);
    expect(leadOf(untouched).status).toBe('new');
  });
});
