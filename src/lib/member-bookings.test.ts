import { describe, expect, it } from 'vitest';
import { bookingPriceLabel, canManage, nextVisit } from './member-bookings.ts';

describe('bookingPriceLabel', () => {
  it('states the unit a price is per (SB 478)', () => {
    expect(bookingPriceLabel({ priceCents: 1400, priceUnit: 'per unit' })).toBe('$14.00 per unit');
    expect(bookingPriceLabel({ priceCents: 15000, priceUnit: null })).toBe('$150.00');
    expect(bookingPriceLabel({ priceCents: 0 })).toBe('Complimentary');
    expect(bookingPriceLabel(null)).toBe('—');
  });
});

describe('canManage', () => {
  it('offers the manage page only while a booking can still change', () => {
    expect(canManage('pending')).toBe(true);
    expect(canManage('confirmed')).toBe(true);
    expect(canManage('completed')).toBe(false);
    expect(canManage('cancelled')).toBe(false);
  });
});

describe('nextVisit', () => {
  const now = new Date('2026-12-01T18:00:00Z'); // 10:00 in Irvine
  const booking = (id: number, status: 'pending' | 'confirmed' | 'completed' | 'cancelled', when: { date?: string; at?: string }) => ({
    id,
    status,
    preferredDate: when.date ?? null,
    scheduledAt: when.at ? new Date(when.at) : null,
  });

  it('is the soonest visit still to come, pending or confirmed', () => {
    const list = [
      booking(1, 'confirmed', { at: '2026-12-09T18:00:00Z' }),
      booking(2, 'pending', { date: '2026-12-04' }),
      booking(3, 'completed', { at: '2026-12-02T18:00:00Z' }),
      booking(4, 'cancelled', { date: '2026-12-02' }),
    ];
    expect(nextVisit(list, now)?.id).toBe(2);
  });

  it('keeps a preferred day until it ends, drops a time that has passed, and puts undated requests last', () => {
    expect(nextVisit([booking(1, 'pending', { date: '2026-12-01' })], now)?.id).toBe(1);
    expect(nextVisit([booking(1, 'pending', { date: '2026-11-30' })], now)).toBeNull();
    expect(nextVisit([booking(1, 'confirmed', { at: '2026-12-01T17:00:00Z' })], now)).toBeNull();
    expect(nextVisit([booking(1, 'pending', {}), booking(2, 'confirmed', { at: '2026-12-20T18:00:00Z' })], now)?.id).toBe(2);
    expect(nextVisit([booking(1, 'pending', {})], now)?.id).toBe(1);
    expect(nextVisit([], now)).toBeNull();
  });
});
