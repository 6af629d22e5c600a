import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '#db/schema.ts';
import {
  appointmentStart,
  cancellationPolicyLine,
  canMoveLead,
  decideBookingChange,
  decideClientMove,
  leadMoves,
  leadStatusForBooking,
  selfCancelDeadline,
  type BookingActor,
  type BookingState,
  type LeadStatus,
} from './booking-lifecycle.ts';

// 22:30 PST on Sunday, Nov 22, 2026.
const NOW = new Date('2026-11-23T06:30:00Z');
const HOUR = 3_600_000;
const later = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

const pending = (preferredDate: string | null = '2026-12-01'): BookingState => ({ status: 'pending', preferredDate, scheduledAt: null });
const confirmed = (scheduledAt: Date = later(48), cancellationWindowHours?: number): BookingState => ({
  status: 'confirmed',
  preferredDate: '2026-12-01',
  scheduledAt,
  cancellationWindowHours,
});
const inStatus = (status: BookingStatus): BookingState => ({ status, preferredDate: '2026-12-01', scheduledAt: status === 'pending' ? null : later(48) });

const STAFF: BookingActor[] = ['owner', 'admin'];
const EVERYONE: BookingActor[] = ['client', 'owner', 'admin'];

describe('appointmentStart', () => {
  it('is the confirmed time when there is one', () => {
    const at = new Date('2026-12-01T22:30:00Z');
    expect(appointmentStart({ status: 'confirmed', preferredDate: '2026-11-30', scheduledAt: at })).toBe(at);
  });

  it('is the start of the preferred day in California otherwise (PST and PDT)', () => {
    expect(appointmentStart(pending('2026-12-01'))?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(appointmentStart(pending('2027-07-01'))?.toISOString()).toBe('2027-07-01T07:00:00.000Z');
  });

  it('is unknown without a time or a date', () => {
    expect(appointmentStart(pending(null))).toBeNull();
  });
});

describe('confirming', () => {
  it.each(STAFF)('lets the %s confirm a pending booking for a future time', (actor) => {
    const at = later(24);
    expect(decideBookingChange(pending(), { status: 'confirmed', scheduledAt: at }, actor, NOW)).toEqual({
      ok: true,
      value: { status: 'confirmed', scheduledAt: at },
    });
  });

  it('forbids the client to confirm (403)', () => {
    expect(decideBookingChange(pending(), { status: 'confirmed', scheduledAt: later(24) }, 'client', NOW)).toMatchObject({
      ok: false,
      reason: 'forbidden',
    });
  });

  it.each(['confirmed', 'completed', 'cancelled'] as const)('refuses to confirm a %s booking (409)', (status) => {
    for (const actor of STAFF) {
      expect(decideBookingChange(inStatus(status), { status: 'confirmed', scheduledAt: later(24) }, actor, NOW)).toMatchObject({
        ok: false,
        reason: 'conflict',
        code: 'invalid_transition',
      });
    }
  });

  it('refuses a time in the past or right now (422 on scheduledAt)', () => {
    for (const at of [later(-1), new Date(NOW.getTime() - 1), NOW]) {
      const decision = decideBookingChange(pending(), { status: 'confirmed', scheduledAt: at }, 'owner', NOW);
      expect(decision, at.toISOString()).toMatchObject({ ok: false, reason: 'invalid', fields: { scheduledAt: expect.any(String) } });
    }
    expect(decideBookingChange(pending(), { status: 'confirmed', scheduledAt: new Date(NOW.getTime() + 1) }, 'owner', NOW).ok).toBe(true);
  });

  it('uses the current time when none is given', () => {
    expect(decideBookingChange(pending(), { status: 'confirmed', scheduledAt: new Date(Date.now() - 60_000) }, 'owner')).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decideBookingChange(pending(), { status: 'confirmed', scheduledAt: new Date(Date.now() + HOUR) }, 'owner').ok).toBe(true);
  });
});

describe('rescheduling', () => {
  it.each(STAFF)('lets the %s move a confirmed booking to a new future time', (actor) => {
    const at = later(72);
    expect(decideBookingChange(confirmed(), { reschedule: at }, actor, NOW)).toEqual({ ok: true, value: { status: 'confirmed', scheduledAt: at } });
  });

  it('forbids the client to reschedule (403)', () => {
    expect(decideBookingChange(confirmed(), { reschedule: later(72) }, 'client', NOW)).toMatchObject({ ok: false, reason: 'forbidden' });
  });

  it.each(['pending', 'completed', 'cancelled'] as const)('refuses to reschedule a %s booking (409)', (status) => {
    expect(decideBookingChange(inStatus(status), { reschedule: later(72) }, 'owner', NOW)).toMatchObject({
      ok: false,
      reason: 'conflict',
      code: 'invalid_transition',
    });
  });

  it('refuses a new time in the past (422 on scheduledAt)', () => {
    expect(decideBookingChange(confirmed(), { reschedule: later(-2) }, 'admin', NOW)).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { scheduledAt: expect.any(String) },
    });
  });
});

describe('completing', () => {
  it.each(STAFF)('lets the %s complete a confirmed booking once its time has come', (actor) => {
    const at = later(-2);
    expect(decideBookingChange(confirmed(at), { status: 'completed' }, actor, NOW)).toEqual({ ok: true, value: { status: 'completed', scheduledAt: at } });
    // At the very minute of the appointment too.
    expect(decideBookingChange(confirmed(NOW), { status: 'completed' }, actor, NOW).ok).toBe(true);
  });

  it('refuses to complete before the appointment time (409)', () => {
    expect(decideBookingChange(confirmed(later(1)), { status: 'completed' }, 'owner', NOW)).toMatchObject({
      ok: false,
      reason: 'conflict',
      code: 'invalid_transition',
    });
  });

  it('forbids the client to complete (403)', () => {
    expect(decideBookingChange(confirmed(later(-2)), { status: 'completed' }, 'client', NOW)).toMatchObject({ ok: false, reason: 'forbidden' });
  });

  it.each(['pending', 'completed', 'cancelled'] as const)('refuses to complete a %s booking (409)', (status) => {
    for (const actor of STAFF) {
      expect(decideBookingChange(inStatus(status), { status: 'completed' }, actor, NOW)).toMatchObject({
        ok: false,
        reason: 'conflict',
        code: 'invalid_transition',
      });
    }
  });
});

describe('cancelling', () => {
  it.each(STAFF)('lets the %s cancel a pending or confirmed booking, even on the day', (actor) => {
    expect(decideBookingChange(pending(), { status: 'cancelled' }, actor, NOW)).toEqual({ ok: true, value: { status: 'cancelled', scheduledAt: null } });
    const at = later(24);
    expect(decideBookingChange(confirmed(at), { status: 'cancelled' }, actor, NOW)).toEqual({ ok: true, value: { status: 'cancelled', scheduledAt: at } });
    expect(decideBookingChange(pending('2026-11-22'), { status: 'cancelled' }, actor, NOW).ok).toBe(true);
    expect(decideBookingChange(confirmed(later(-1)), { status: 'cancelled' }, actor, NOW).ok).toBe(true);
  });

  it('lets the client cancel before the appointment starts (a spa without a cancellation window)', () => {
    // Tomorrow (Nov 23) starts at 08:00 UTC, after NOW.
    expect(decideBookingChange(pending('2026-11-23'), { status: 'cancelled' }, 'client', NOW)).toEqual({
      ok: true,
      value: { status: 'cancelled', scheduledAt: null },
    });
    expect(decideBookingChange(pending(null), { status: 'cancelled' }, 'client', NOW).ok).toBe(true);
    expect(decideBookingChange(confirmed(later(1), 0), { status: 'cancelled' }, 'client', NOW).ok).toBe(true);
    expect(decideBookingChange(confirmed(new Date(NOW.getTime() + 1), 0), { status: 'cancelled' }, 'client', NOW).ok).toBe(true);
  });

  it('refuses the client once the preferred day has begun in California (409 too_late)', () => {
    // Nov 22 began at 08:00 UTC on the 22nd; it is 22:30 on the 22nd in California.
    expect(decideBookingChange(pending('2026-11-22'), { status: 'cancelled' }, 'client', NOW)).toMatchObject({
      ok: false,
      reason: 'conflict',
      code: 'too_late',
    });
    expect(decideBookingChange(pending('2026-11-01'), { status: 'cancelled' }, 'client', NOW)).toMatchObject({
      ok: false,
      reason: 'conflict',
      code: 'too_late',
    });
  });

  it('refuses the client at or after the confirmed time (409 too_late), whatever the preferred date', () => {
    expect(decideBookingChange(confirmed(NOW), { status: 'cancelled' }, 'client', NOW)).toMatchObject({ ok: false, reason: 'conflict', code: 'too_late' });
    expect(decideBookingChange(confirmed(later(-3)), { status: 'cancelled' }, 'client', NOW)).toMatchObject({
      ok: false,
      reason: 'conflict',
      code: 'too_late',
    });
    // The confirmed time decides, not the (later) preferred date.
    expect(
      decideBookingChange({ status: 'confirmed', preferredDate: '2026-12-24', scheduledAt: later(-3) }, { status: 'cancelled' }, 'client', NOW),
    ).toMatchObject({ ok: false, reason: 'conflict' });
    // And a confirmed time later than a past preferred date lets the client cancel.
    expect(
      decideBookingChange(
        { status: 'confirmed', preferredDate: '2026-11-20', scheduledAt: later(3), cancellationWindowHours: 2 },
        { status: 'cancelled' },
        'client',
        NOW,
      ).ok,
    ).toBe(true);
  });

  describe('the cancellation window', () => {
    it('lets the client cancel a confirmed booking up to the window, not inside it (409 inside_cancellation_window)', () => {
      expect(decideBookingChange(confirmed(later(24), 24), { status: 'cancelled' }, 'client', new Date(NOW.getTime() - 1)).ok).toBe(true);
      const refused = decideBookingChange(confirmed(later(24), 24), { status: 'cancelled' }, 'client', NOW);
      expect(refused).toEqual({
        ok: false,
        reason: 'conflict',
        code: 'inside_cancellation_window',
        message: 'Your appointment is less than 24 hours away, so it can no longer be cancelled online. Call the spa to cancel or change it.',
      });
      expect(decideBookingChange(confirmed(later(47), 48), { status: 'cancelled' }, 'client', NOW)).toMatchObject({
        ok: false,
        code: 'inside_cancellation_window',
      });
      expect(decideBookingChange(confirmed(later(49), 48), { status: 'cancelled' }, 'client', NOW).ok).toBe(true);
      expect(decideBookingChange(confirmed(later(0.5), 1), { status: 'cancelled' }, 'client', NOW)).toMatchObject({
        message: expect.stringContaining('less than 1 hour away'),
      });
    });

    it('is 24 hours when the spa has not set one', () => {
      expect(decideBookingChange(confirmed(later(23)), { status: 'cancelled' }, 'client', NOW)).toMatchObject({
        ok: false,
        code: 'inside_cancellation_window',
      });
      expect(decideBookingChange(confirmed(later(25)), { status: 'cancelled' }, 'client', NOW).ok).toBe(true);
      expect(selfCancelDeadline(confirmed(later(30)))).toEqual(later(6));
    });

    it.each(STAFF)('does not bind the %s', (actor) => {
      expect(decideBookingChange(confirmed(later(1), 48), { status: 'cancelled' }, actor, NOW).ok).toBe(true);
    });

    it('does not apply to a pending request, which has no appointment yet', () => {
      expect(selfCancelDeadline({ ...pending('2026-11-23'), cancellationWindowHours: 48 })).toBeNull();
      expect(decideBookingChange({ ...pending('2026-11-23'), cancellationWindowHours: 48 }, { status: 'cancelled' }, 'client', NOW).ok).toBe(true);
    });

    it('reads as one line on the spa page', () => {
      expect(cancellationPolicyLine(24)).toBe('Free cancellation up to 24 hours before');
      expect(cancellationPolicyLine(1)).toBe('Free cancellation up to 1 hour before');
      expect(cancellationPolicyLine(0)).toBe('Free cancellation up to the time of your appointment');
    });
  });

  it.each(['completed', 'cancelled'] as const)('refuses to cancel a %s booking for anyone (409)', (status) => {
    for (const actor of EVERYONE) {
      expect(decideBookingChange(inStatus(status), { status: 'cancelled' }, actor, NOW)).toMatchObject({
        ok: false,
        reason: 'conflict',
        code: 'invalid_transition',
      });
    }
  });
});

describe('every transition at once', () => {
  // The complete table: status x change x actor -> allowed?
  const changes = {
    confirm: { status: 'confirmed', scheduledAt: later(24) },
    reschedule: { reschedule: later(24) },
    complete: { status: 'completed' },
    cancel: { status: 'cancelled' },
  } as const;
  const allowed = new Set([
    'pending confirm owner',
    'pending confirm admin',
    'pending cancel owner',
    'pending cancel admin',
    'pending cancel client',
    'confirmed reschedule owner',
    'confirmed reschedule admin',
    'confirmed cancel owner',
    'confirmed cancel admin',
    'confirmed cancel client',
  ]);

  it('allows exactly the documented moves (for a booking two days ahead)', () => {
    for (const status of ['pending', 'confirmed', 'completed', 'cancelled'] as const) {
      for (const [name, change] of Object.entries(changes)) {
        for (const actor of EVERYONE) {
          const key = `${status} ${name} ${actor}`;
          const booking = { status, preferredDate: '2026-11-25', scheduledAt: status === 'pending' ? null : later(48) };
          expect(decideBookingChange(booking, change, actor, NOW).ok, key).toBe(allowed.has(key));
        }
      }
    }
  });
});

describe('leads', () => {
  const STATUSES: LeadStatus[] = ['new', 'contacted', 'converted', 'lost'];
  // Rulings: new -> contacted -> converted, "or lost": a new lead that never
  // answers can be given up without pretending it was contacted.
  const ALLOWED = new Set(['new>contacted', 'new>lost', 'contacted>converted', 'contacted>lost']);

  it('moves new -> contacted -> converted, or new or contacted -> lost, and nothing else', () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        expect(canMoveLead(from, to), `${from} -> ${to}`).toBe(ALLOWED.has(`${from}>${to}`));
      }
    }
  });

  it('lists the next statuses of each', () => {
    expect(leadMoves('new')).toEqual(['contacted', 'lost']);
    expect([...leadMoves('contacted')].sort()).toEqual(['converted', 'lost']);
    expect(leadMoves('converted')).toEqual([]);
    expect(leadMoves('lost')).toEqual([]);
  });
});

describe('a lead follows its booking (issue 26)', () => {
  it.each([
    ['pending', 'new', 'new'],
    ['confirmed', 'new', 'contacted'],
    ['confirmed', 'contacted', 'contacted'],
    ['completed', 'new', 'converted'],
    ['completed', 'contacted', 'converted'],
    ['cancelled', 'new', 'lost'],
    ['cancelled', 'contacted', 'lost'],
    ['completed', 'lost', 'lost'],
    ['cancelled', 'converted', 'converted'],
  ] as const)('a %s booking takes a %s lead to %s', (booking, lead, next) => {
    expect(leadStatusForBooking(booking, lead)).toBe(next);
  });
});

describe('the client moving an open time (manage link)', () => {
  const held = (scheduledAt: Date = later(48)): BookingState => ({ status: 'pending', preferredDate: '2026-12-01', scheduledAt });

  it('moves a held time at either kind of spa, and a confirmed one at an instant spa, while it could still be cancelled', () => {
    expect(decideClientMove(held(), 'request', NOW).ok).toBe(true);
    expect(decideClientMove(held(), 'instant', NOW).ok).toBe(true);
    expect(decideClientMove(confirmed(later(48), 24), 'instant', NOW).ok).toBe(true);
  });

  it('refuses inside the cancellation window, once the time has come, without a time, and a time the spa itself confirmed', () => {
    expect(decideClientMove(confirmed(later(10), 24), 'instant', NOW)).toMatchObject({
      ok: false,
      code: 'inside_cancellation_window',
      message: 'Your appointment is less than 24 hours away, so it can no longer be changed online. Call the spa to change it.',
    });
    expect(decideClientMove(held(later(-1)), 'request', NOW)).toMatchObject({ ok: false, code: 'too_late' });
    expect(decideClientMove(pending(), 'request', NOW)).toMatchObject({ ok: false, reason: 'conflict' });
    expect(decideClientMove(confirmed(later(48), 24), 'request', NOW)).toMatchObject({ ok: false, reason: 'conflict' });
    expect(decideClientMove(inStatus('cancelled'), 'instant', NOW)).toMatchObject({ ok: false, reason: 'conflict' });
  });
});
