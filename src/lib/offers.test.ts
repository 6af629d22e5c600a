import { describe, expect, it } from 'vitest';
import { availableOfferCount, groupOffers, offerCountLabel, offerDisplay, type OfferTerms } from './offers.ts';

const today = '2026-11-22';
const terms = (overrides: Partial<OfferTerms> = {}): OfferTerms => ({
  originalPriceCents: 28000,
  offerPriceCents: 22000,
  savingsCents: 6000,
  validFrom: '2026-11-08',
  validTo: '2027-01-06',
  ...overrides,
});

describe('offer display', () => {
  it('shows whole-dollar prices, the saving and the percent off', () => {
    const view = offerDisplay(terms(), today);
    expect(view).toMatchObject({
      offerPrice: '$220',
      originalPrice: '$280',
      savings: 'Save $60',
      percentOff: '21% Off',
      expired: false,
      upcoming: false,
      validity: 'Valid until January 6, 2027',
    });
  });

  it('rounds cents to whole dollars, half a dollar up', () => {
    const view = offerDisplay(terms({ originalPriceCents: 92050, offerPriceCents: 79949, savingsCents: 12101 }), today);
    expect(view.originalPrice).toBe('$921');
    expect(view.offerPrice).toBe('$799');
    expect(view.savings).toBe('Save $121');
  });

  it('hides the percent, the struck price and the saving when nothing is off', () => {
    const view = offerDisplay(terms({ originalPriceCents: 20000, offerPriceCents: 20000, savingsCents: 0 }), today);
    expect(view.percentOff).toBeNull();
    expect(view.originalPrice).toBeNull();
    expect(view.savings).toBeNull();
    expect(view.offerPrice).toBe('$200');
  });

  it('hides a percent that rounds to 0', () => {
    expect(offerDisplay(terms({ originalPriceCents: 100000, offerPriceCents: 99900, savingsCents: 100 }), today).percentOff).toBeNull();
  });

  it('expires after the last valid day in Pacific time, never without an end date', () => {
    expect(offerDisplay(terms({ validTo: '2026-11-21' }), today).expired).toBe(true);
    // Ended: not "valid until" a day gone by (issue 26).
    expect(offerDisplay(terms({ validTo: '2026-11-21' }), today).validity).toBe('Ended November 21, 2026');
    expect(offerDisplay(terms({ validTo: '2026-11-22' }), today).validity).toBe('Valid until November 22, 2026');
    expect(offerDisplay(terms({ validTo: '2026-11-22' }), today).expired).toBe(false);
    const ongoing = offerDisplay(terms({ validTo: null }), today);
    expect(ongoing.expired).toBe(false);
    expect(ongoing.validity).toBe('Ongoing offer');
    expect(ongoing.validUntil).toBeNull();
  });

  it('knows an offer that has not started yet', () => {
    const view = offerDisplay(terms({ validFrom: '2026-12-01' }), today);
    expect(view.upcoming).toBe(true);
    expect(view.validFrom).toBe('December 1, 2026');
  });
});

describe('the offers list', () => {
  it('counts in the spec wording', () => {
    expect(offerCountLabel(48)).toBe('48 offer(s) available');
    expect(offerCountLabel(1)).toBe('1 offer(s) available');
    expect(offerCountLabel(0)).toBe('0 offer(s) available');
  });

  it('counts as available only the offers that have not ended (issue 26)', () => {
    const offers = [{ validTo: '2026-11-21' }, { validTo: '2026-11-22' }, { validTo: null }, { validTo: '2025-01-01' }];
    expect(availableOfferCount(offers, today)).toBe(2);
    expect(availableOfferCount([], today)).toBe(0);
  });

  it('puts featured offers apart and ended offers last, keeping the order otherwise', () => {
    const offers = [
      { id: 1, featured: false, validTo: '2026-11-01' },
      { id: 2, featured: true, validTo: '2026-12-01' },
      { id: 3, featured: false, validTo: '2026-12-01' },
      { id: 4, featured: true, validTo: '2026-11-20' },
      { id: 5, featured: false, validTo: null },
      { id: 6, featured: true, validTo: '2027-01-01' },
    ];
    const { featured, others } = groupOffers(offers, today);
    expect(featured.map((o) => o.id)).toEqual([2, 6, 4]);
    expect(others.map((o) => o.id)).toEqual([3, 5, 1]);
  });
});
