// The reminders bar (issue 14): a test clock walks a few days around the
// November clock change with 50 confirmed bookings, some moved, some
// cancelled, and the background process down for three hours. Through the real
// database module, the real lifecycle (changeBooking), the app's own
// announcement path (announceBookingChange) and the real durable queue; only
// the SMTP server is replaced, by a list.
//
// The expected reminders are worked out independently of reminders.ts: the
// Pacific days and their 8:00 instants around Nov 1, 2026 are written out below.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// This file walks a clock through the past: it gets its own database file
// (migrated like the site's, opened by the same client), so the queues of other
// test files, on the real clock and the shared file, cannot take its mail.
const harness = await vi.hoisted(async () => {
  const { createTestDb } = await import('#db/test-db.ts');
  return { made: createTestDb(), queue: null as null | import('../mail/queue.ts').MailQueue };
});

vi.mock('../db.ts', () => ({ db: harness.made.db }));

vi.mock('../mail/mail.ts', () => ({
  sendMailInBackground: () => {},
  scheduleMail: (...args: Parameters<import('../mail/queue.ts').MailQueue['schedule']>) => harness.queue!.schedule(...args),
  unscheduleMail: (keys: readonly string[]) => harness.queue!.unschedule(keys),
}));

import { cities, services, spas, users } from '#db/schema.ts';
import { announceBookingChange } from './booking-mail.ts';
import { bookingDetails, changeBooking, createBooking } from './bookings.ts';
import { db } from '../db.ts';
import { createMailQueue } from '../mail/queue.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { SessionUser } from '../auth/sessions.ts';

const ORIGIN = 'https://directory.example';
const MIN = 60_000;
const H = 60 * MIN;
const t = (iso: string) => Date.parse(iso);

// The Pacific days of the walk: where each begins (UTC) and its 8:00.
// Nov 1 begins in daylight time (UTC-7) and its 8:00 is in standard time (UTC-8).
const DAYS = [
  { starts: t('2026-10-30T07:00:00Z'), eight: t('2026-10-30T15:00:00Z') },
  { starts: t('2026-10-31T07:00:00Z'), eight: t('2026-10-31T15:00:00Z') },
  { starts: t('2026-11-01T07:00:00Z'), eight: t('2026-11-01T16:00:00Z') },
  { starts: t('2026-11-02T08:00:00Z'), eight: t('2026-11-02T16:00:00Z') },
  { starts: t('2026-11-03T08:00:00Z'), eight: t('2026-11-03T16:00:00Z') },
];
const eightOnDayOf = (at: number) => [...DAYS].reverse().find((day) => day.starts <= at)!.eight;

const WALK_START = t('2026-10-29T15:00:00Z');
const WALK_END = t('2026-11-03T08:00:00Z');
const STEP = 5 * MIN;
// The background process is down from 14:00 to 17:00 UTC on Oct 31 (07:00-10:00 PDT).
const DOWN = { from: t('2026-10-31T14:00:00Z'), to: t('2026-10-31T17:00:00Z') };

type Event = { at: number; index: number; what: 'confirm' | 'reschedule' | 'client-cancel' | 'owner-cancel'; to?: number };

interface Sent {
  index: number;
  kind: 'day-before' | 'morning-of';
  appointment: number;
  sentAt: number;
}

let owner: SessionUser;
let lateCancels = 0;
let now = WALK_START;
const sent: Sent[] = [];
const mailOf = new Map<string, MailMessage[]>();
const bookingsByEmail = new Map<string, { index: number; id: number; token: string }>();
const ids: { id: number; token: string }[] = [];

function startQueue() {
  harness.queue = createMailQueue({
    db,
    now: () => now,
    log: { info: () => {}, warn: () => {}, error: () => {} },
    mailer: {
      send: async (message) => {
        const booking = bookingsByEmail.get(message.to)!;
        const details = bookingDetails(booking.id)!;
        // Whatever the booking says at the moment the reminder leaves.
        expect(details.booking.status).toBe('confirmed');
        sent.push({
          index: booking.index,
          kind: message.subject.startsWith('Today:') ? 'morning-of' : 'day-before',
          appointment: details.booking.scheduledAt!.getTime(),
          sentAt: now,
        });
        mailOf.set(message.to, [...(mailOf.get(message.to) ?? []), message]);
        return { messageId: `<${sent.length}@test>` };
      },
    },
  });
}

/** Appointment i: every 50 minutes from 07:00 PDT on Oct 31, with four inside the repeated hour of Nov 1. */
function appointment(i: number): number {
  const repeated: Record<number, string> = {
    22: '2026-11-01T08:20:00Z', // 1:20 AM PDT
    23: '2026-11-01T09:10:00Z', // 1:10 AM PST
    24: '2026-11-01T08:30:00Z', // 1:30 AM PDT (the first 1:30)
    25: '2026-11-01T09:30:00Z', // 1:30 AM PST (the second)
  };
  if (repeated[i]) return t(repeated[i]);
  if (i === 1) return t('2026-10-31T16:00:00Z'); // starts while the background process is down
  if (i === 2) return t('2026-11-01T15:30:00Z'); // its day-before falls in the downtime
  return t('2026-10-31T14:00:00Z') + i * 50 * MIN;
}

/** What happens to each booking, and when. */
function plan(): Event[] {
  const events: Event[] = [];
  for (let i = 0; i < 50; i++) {
    const at = appointment(i);
    // A third are confirmed at the start, a third the next day, a third less than 24 hours ahead.
    const confirmAt = i % 3 === 0 || i === 1 || i === 2 ? WALK_START : i % 3 === 1 ? t('2026-10-30T12:00:00Z') : at - 20 * H;
    events.push({ at: confirmAt, index: i, what: 'confirm', to: at });
    if (i % 7 === 0) events.push({ at: t('2026-10-30T18:00:00Z'), index: i, what: 'reschedule', to: at + 3 * H });
    if (i % 11 === 5) events.push({ at: at - 12 * H, index: i, what: 'reschedule', to: at + 24 * H }); // after its day-before went out
    if (i % 5 === 3) events.push({ at: Math.max(t('2026-10-30T20:00:00Z'), confirmAt + H), index: i, what: 'client-cancel' });
    if (i % 13 === 4) events.push({ at: at - 2 * H, index: i, what: 'owner-cancel' });
  }
  // Nobody asks anything of a server that is down; what was asked then is asked again at its return.
  for (const event of events) if (event.at >= DOWN.from && event.at < DOWN.to) event.at = DOWN.to;
  return events.sort((a, b) => a.at - b.at || a.index - b.index);
}

/** Applies one event as the app does: the lifecycle, then the announcement (which schedules the reminders). */
function apply(event: Event): boolean {
  const { id, token } = ids[event.index]!;
  const at = new Date(event.at);
  const state = bookingDetails(id)!.booking;
  let result;
  switch (event.what) {
    case 'confirm':
      result = changeBooking(id, { status: 'confirmed', scheduledAt: new Date(event.to!) }, { user: owner }, at);
      break;
    case 'reschedule':
      if (state.status !== 'confirmed') return false;
      result = changeBooking(id, { reschedule: new Date(event.to!) }, { user: owner }, at);
      break;
    case 'client-cancel':
      result = changeBooking(id, { status: 'cancelled' }, { manageToken: token }, at);
      // Inside the spa's window the client may not cancel online: they call, and the spa cancels.
      if (!result.ok && result.code === 'inside_cancellation_window') {
        lateCancels++;
        result = changeBooking(id, { status: 'cancelled' }, { user: owner }, at);
      }
      break;
    case 'owner-cancel':
      if (state.status === 'cancelled') return false;
      result = changeBooking(id, { status: 'cancelled' }, { user: owner }, at);
      break;
  }
  if (!result.ok) throw new Error(`event ${JSON.stringify(event)} refused: ${result.message}`);
  announceBookingChange(result.value.before, result.value.after, event.what === 'client-cancel', ORIGIN);
  return true;
}

/** The reminders each booking should get, worked out from the applied events alone. */
function expectedReminders(applied: Event[]): Sent[] {
  const expected: Sent[] = [];
  const byBooking = new Map<number, Event[]>();
  for (const event of applied) byBooking.set(event.index, [...(byBooking.get(event.index) ?? []), event]);
  for (const [index, events] of byBooking) {
    events.forEach((event, n) => {
      if (event.what !== 'confirm' && event.what !== 'reschedule') return;
      const appointmentAt = event.to!;
      const setAt = event.at;
      const until = events[n + 1]?.at ?? Infinity; // the next change replaces or drops them
      const due: Sent[] = [];
      if (appointmentAt - 24 * H > setAt) due.push({ index, kind: 'day-before', appointment: appointmentAt, sentAt: appointmentAt - 24 * H });
      const eight = eightOnDayOf(appointmentAt);
      if (appointmentAt - setAt > 48 * H && eight < appointmentAt && eight > setAt)
        due.push({ index, kind: 'morning-of', appointment: appointmentAt, sentAt: eight });
      for (const reminder of due) {
        // While the process is down, nothing goes out; at its return, only what is still before the appointment.
        const leaves = reminder.sentAt >= DOWN.from && reminder.sentAt < DOWN.to ? DOWN.to : reminder.sentAt;
        if (leaves < until && leaves < appointmentAt && leaves < WALK_END) expected.push({ ...reminder, sentAt: leaves });
      }
    });
  }
  return expected;
}

const order = (list: Sent[]) => [...list].sort((a, b) => a.sentAt - b.sentAt || a.index - b.index || a.kind.localeCompare(b.kind));

describe('reminders over a walked clock', () => {
  const applied: Event[] = [];

  beforeAll(async () => {
    const userRow = db.insert(users).values({ email: 'owner@walk.example', role: 'owner' }).returning().get();
    owner = { ...userRow, role: 'owner' } as unknown as SessionUser;
    const city = db.insert(cities).values({ name: 'Irvine', slug: 'irvine' }).returning().get();
    const spa = db
      .insert(spas)
      .values({ name: 'Walk Spa', slug: 'walk-spa', cityId: city.id, ownerId: owner.id, address: '1 Clock Lane, Irvine, CA 92618', phone: '(949) 555-0199' })
      .returning()
      .get();
    const service = db.insert(services).values({ spaId: spa.id, name: 'HydraFacial', priceCents: 19_900, duration: 60, category: 'facial' }).returning().get();
    for (let i = 0; i < 50; i++) {
      const email = `client-${i}@walk.example`;
      const created = createBooking({ name: `Client ${i}`, email, serviceId: service.id } as Parameters<typeof createBooking>[0]);
      if (!created.ok) throw new Error('booking refused');
      ids.push({ id: created.value.id, token: created.value.manageToken });
      bookingsByEmail.set(email, { index: i, id: created.value.id, token: created.value.manageToken });
    }

    startQueue();
    const events = plan();
    for (now = WALK_START; now <= WALK_END; now += STEP) {
      const down = now >= DOWN.from && now < DOWN.to;
      if (now === DOWN.from) harness.queue!.stop();
      if (now === DOWN.to) {
        startQueue();
        harness.queue!.resumeInterrupted();
      }
      while (events.length > 0 && events[0]!.at <= now) {
        const event = events.shift()!;
        if (apply(event)) applied.push(event);
      }
      if (!down) await harness.queue!.drain();
    }
    harness.queue!.stop();
  }, 120_000);

  afterAll(() => harness.made.cleanup());

  it('sends every reminder at its time, none for cancelled or past bookings, none twice', () => {
    expect(order(sent)).toEqual(order(expectedReminders(applied)));
  });

  it('covers what the bar asks for (so the comparison above cannot pass empty)', () => {
    expect(applied.filter((e) => e.what === 'confirm')).toHaveLength(50);
    expect(applied.filter((e) => e.what === 'reschedule').length).toBeGreaterThanOrEqual(8);
    expect(applied.filter((e) => e.what.endsWith('cancel')).length).toBeGreaterThanOrEqual(10);
    expect(sent.length).toBeGreaterThan(40);
    expect(sent.filter((s) => s.kind === 'morning-of').length).toBeGreaterThan(5);
    // Both 1:30 AMs of Nov 1 got their day-before reminder, an hour apart.
    const repeated = sent.filter((s) => s.index === 24 || s.index === 25).map((s) => [s.index, s.kind, new Date(s.sentAt).toISOString()]);
    expect(repeated).toEqual([
      [24, 'day-before', '2026-10-31T08:30:00.000Z'],
      [25, 'day-before', '2026-10-31T09:30:00.000Z'],
    ]);
    // The downtime: one reminder went out late (its appointment was still ahead), one was dropped (it was not).
    expect(sent.filter((s) => s.index === 2)).toContainEqual({ index: 2, kind: 'day-before', appointment: t('2026-11-01T15:30:00Z'), sentAt: DOWN.to });
    expect(sent.filter((s) => s.index === 1)).toEqual([
      { index: 1, kind: 'day-before', appointment: t('2026-10-31T16:00:00Z'), sentAt: t('2026-10-30T16:00:00Z') },
    ]);
    // A booking cancelled by the client before its reminders got none.
    expect(sent.filter((s) => s.index === 28)).toEqual([]);
    // A booking moved a day after its reminder got a second one for the new time.
    expect(sent.filter((s) => s.index === 16).map((s) => s.kind)).toEqual(['day-before', 'day-before']);
    // Some clients were too late to cancel online (the window) and called instead.
    expect(lateCancels).toBeGreaterThan(0);
  });

  it('tells the time in Pacific time, with the address, a map link, the invitation and the manage link', () => {
    const [first] = mailOf.get('client-24@walk.example')!;
    const [second] = mailOf.get('client-25@walk.example')!;
    expect(first!.text).toContain('Sunday, November 1, 2026 at 1:30 AM PDT');
    expect(second!.text).toContain('Sunday, November 1, 2026 at 1:30 AM PST');
    expect(first!.text).toContain('Address: 1 Clock Lane, Irvine, CA 92618');
    expect(first!.text).toContain(`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent('Walk Spa, 1 Clock Lane, Irvine, CA 92618')}`);
    expect(first!.text).toContain(`${ORIGIN}/bookings/manage/${ids[24]!.token}`);
    expect(first!.icalEvent?.method).toBe('REQUEST');
    expect(first!.icalEvent?.content).toContain('DTSTART;TZID=America/Los_Angeles:20261101T013000');
    expect(first!.subject).toBe('Reminder: HydraFacial at Walk Spa');
  });
});
