import { describe, expect, it } from 'vitest';
import { durationLabel, isComplimentary, priceLabel } from './services.ts';

describe('service presentation', () => {
  it('calls a free or consultation service complimentary', () => {
    expect(isComplimentary({ name: 'HydraFacial', priceCents: 0 })).toBe(true);
    expect(isComplimentary({ name: 'Laser CONSULTATION', priceCents: 5000 })).toBe(true);
    expect(isComplimentary({ name: 'HydraFacial', priceCents: 19900 })).toBe(false);
  });

  it('labels prices and durations as the spec says', () => {
    expect(priceLabel({ name: 'HydraFacial', priceCents: 19900 })).toBe('From $199.00');
    expect(priceLabel({ name: 'Botox', priceCents: 1400, priceUnit: 'per unit' })).toBe('From $14.00 per unit');
    expect(priceLabel({ name: 'Consultation', priceCents: 0 })).toBe('Complimentary');
    expect(durationLabel(60)).toBe('60 minutes');
    expect(durationLabel(null)).toBe('Duration TBD');
  });
});
