import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bookings, cities, mailQueue, spas, users } from '#db/schema.ts';
import { createTestDb } from '#db/test-db.ts';
import { createMailQueue } from '../mail/queue.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { remindUnansweredRequests } from './unanswered-requests.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

const ORIGIN = 'https://directory.example';
const H = 3_600_000;
const T0 = Date.parse('2026-11-20T17:00:00Z');

function setUp() {
  const made = createTestDb();
  cleanups.push(made.cleanup);
  const { db } = made;
  const owner = db.insert(users).values({ email: 'owner@glow.example', role: 'owner' }).returning().get();
  const city = db.insert(cities).values({ name: 'Irvine', slug: 'irvine' }).returning().get();
  const spa = db.insert(spas).values({ name: 'Glow Spa', slug: 'glow', cityId: city.id, ownerId: owner.id, email: 'desk@glow.example' }).returning().get();
  const orphan = db.insert(spas).values({ name: 'No Owner Spa', slug: 'no-owner', cityId: city.id, email: 'desk@noowner.example' }).returning().get();
  const request = (name: string, hoursBeforeT0: number, extra: Partial<typeof bookings.$inferInsert> = {}) =>
    db
      .insert(bookings)
      .values({
        name,
        email: `${name.toLowerCase()}@example.com`,
        spaId: spa.id,
        createdAt: new Date(T0 - hoursBeforeT0 * H),
        updatedAt: new Date(T0 - hoursBeforeT0 * H),
        ...extra,
      })
      .returning()
      .get();
  return { db, spa, orphan, request };
}

const subjects = (db: ReturnType<typeof setUp>['db']) =>
  db
    .select()
    .from(mailQueue)
    .all()
    .map((row) => [(row.message as MailMessage).to, (row.message as MailMessage).subject]);

describe('remindUnansweredRequests', () => {
  it('reminds the owner once a request has waited 24 hours, and never again', () => {
    const { db, request } = setUp();
    request('Ana', 0);
    expect(remindUnansweredRequests(db, ORIGIN, T0 + 24 * H - 1)).toBe(0);
    expect(subjects(db)).toEqual([]);
    expect(remindUnansweredRequests(db, ORIGIN, T0 + 24 * H)).toBe(1);
    expect(subjects(db)).toEqual([['owner@glow.example', "Waiting for your answer: Ana's request"]]);
    // The job runs every 15 minutes, and may run in two processes: still one mail.
    for (let step = 1; step <= 8; step++) expect(remindUnansweredRequests(db, ORIGIN, T0 + 24 * H + step * 15 * 60_000)).toBe(0);
    expect(subjects(db)).toHaveLength(1);
  });

  it('leaves alone requests answered, withdrawn, or older than a week; a spa without an owner hears at its own address', () => {
    const { db, request, orphan } = setUp();
    request('Answered', 30, { status: 'confirmed', firstAnsweredAt: new Date(T0 - 29 * H), scheduledAt: new Date(T0 + 48 * H) });
    request('Declined', 30, { status: 'cancelled', firstAnsweredAt: new Date(T0 - 2 * H) });
    request('Withdrawn', 30, { status: 'cancelled' });
    request('Ancient', 24 * 8);
    request('Orphan', 25, { spaId: orphan.id });
    request('Directory', 25, { spaId: null });
    expect(remindUnansweredRequests(db, ORIGIN, T0)).toBe(1);
    expect(subjects(db)).toEqual([['desk@noowner.example', "Waiting for your answer: Orphan's request"]]);
  });

  it('stores the mark and the mail together, and the queue delivers it with the dashboard link', async () => {
    const { db, request } = setUp();
    const row = request('Bea', 25);
    remindUnansweredRequests(db, ORIGIN, T0);
    expect(db.select({ at: bookings.ownerRemindedAt }).from(bookings).where(eq(bookings.id, row.id)).get()?.at).toEqual(new Date(T0));
    const delivered: MailMessage[] = [];
    const queue = createMailQueue({
      db,
      mailer: { send: async (m) => (delivered.push(m), { messageId: '<1@test>' }) },
      log: { info() {}, warn() {}, error() {} },
      now: () => T0,
    });
    cleanups.push(() => queue.stop());
    await queue.drain();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain('Bea asked Glow Spa for a consultation on Thursday, November 19, 2026 at 8:00 AM PST');
    expect(delivered[0]!.text).toContain(`${ORIGIN}/owner/dashboard`);
  });
});
