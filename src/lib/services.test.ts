import { describe, expect, it } from 'vitest';
import { byCategoryThenName, durationLabel, isComplimentary, priceLabel, spotlightServices } from './services.ts';

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

describe('spotlightServices', () => {
  const s = (id: number, category: string, spaId: number) => ({ id, category, spaId });

  it('takes one service per category, in order, up to the limit', () => {
    const list = [s(1, 'body', 10), s(2, 'body', 11), s(3, 'facial', 12), s(4, 'laser', 13), s(5, 'wellness', 14)];
    expect(spotlightServices(list).map((x) => x.id)).toEqual([1, 3, 4, 5]);
    expect(spotlightServices(list, 2).map((x) => x.id)).toEqual([1, 3]);
  });

  it('prefers a spa not shown yet, and falls back to the first when every spa was', () => {
    const list = [s(1, 'body', 10), s(2, 'facial', 10), s(3, 'facial', 11), s(4, 'laser', 10)];
    expect(spotlightServices(list).map((x) => x.id)).toEqual([1, 3, 4]);
    expect(spotlightServices([])).toEqual([]);
  });
});

describe('byCategoryThenName', () => {
  it('groups by category and puts the same treatment at every spa together (issue 26)', () => {
    const services = [
      { category: 'injectable', name: 'Dysport', spaName: 'Harbor' },
      { category: 'facial', name: 'HydraFacial', spaName: 'Zen' },
      { category: 'injectable', name: 'Botox Cosmetic', spaName: 'Zen' },
      { category: 'injectable', name: 'Botox Cosmetic', spaName: 'Aqua' },
      { category: 'facial', name: 'Chemical Peel', spaName: 'Aqua' },
    ];
    expect(byCategoryThenName(services).map((s) => `${s.category}: ${s.name} at ${s.spaName}`)).toEqual([
      'facial: Chemical Peel at Aqua',
      'facial: HydraFacial at Zen',
      'injectable: Botox Cosmetic at Aqua',
      'injectable: Botox Cosmetic at Zen',
      'injectable: Dysport at Harbor',
    ]);
    // The list given is left as it was.
    expect(services[0]!.name).toBe('Dysport');
  });
});
