import { describe, expect, it } from 'vitest';
import { citySpas, openingHours, spaPictures, type CitySpa } from './build.ts';

describe('the demo-data builders', () => {
  it('spells out a week of opening hours from day spans, closed where no span names the day', () => {
    expect(openingHours({ 'tue-thu': '9:00 AM – 6:00 PM', sat: '10:00 AM – 2:00 PM' })).toEqual({
      mon: [],
      tue: [['09:00', '18:00']],
      wed: [['09:00', '18:00']],
      thu: [['09:00', '18:00']],
      fri: [],
      sat: [['10:00', '14:00']],
      sun: [],
    });
  });

  it.each([
    [{ 'fri-mon': '9:00 AM – 5:00 PM' }, /fri-mon runs backwards/],
    [{ 'mon-wed': '9:00 AM – 5:00 PM', wed: '9:00 AM – 7:00 PM' }, /wed is given twice/],
    [{ mon: 'By appointment' }, /mon does not read as hours/],
  ])('refuses opening hours %o', (spans, message) => {
    expect(() => openingHours(spans)).toThrow(message);
  });

  it('names placeholder pictures by number and refuses one that is not drawn', () => {
    expect(spaPictures(3, 24)).toEqual(['/images/spas/spa-03.svg', '/images/spas/spa-24.svg']);
    expect(() => spaPictures(25)).toThrow(/no placeholder spa picture 25/);
  });

  it('gives a spa its city, no links it does not name, its first photo as image, and its services their kind’s terms', () => {
    const spa: CitySpa = {
      slug: 'glow',
      name: 'Glow',
      tier: 'PREMIUM',
      featured: false,
      verified: false,
      description: 'A spa.',
      address: '1 Main Street',
      phone: '(949) 555-0100',
      email: 'hello@glow.example',
      website: 'https://glow.example',
      socialFeedUrl: 'https://www.instagram.com/glow/',
      socialPlatform: 'instagram',
      openingHours: null,
      photos: spaPictures(5, 6),
      createdDaysAgo: 10,
      services: [
        { kind: 'neurotoxin', name: 'Botox', description: 'Per unit.', priceCents: 1300, duration: 30 },
        { kind: 'neurotoxin', name: 'Baby Botox', description: 'Whole treatment.', priceCents: 30000, priceUnit: null, duration: 30 },
        { kind: 'laser', name: 'Tattoo Removal', description: 'Per session.', priceCents: 22500, priceUnit: 'per session', duration: 30 },
      ],
    };
    const [built] = citySpas('irvine', [spa]);
    expect(built).toMatchObject({
      citySlug: 'irvine',
      bookingLink: null,
      socialFeedUrl: 'https://www.instagram.com/glow/',
      socialPlatform: 'instagram',
      videoUrl: null,
      imageUrl: '/images/spas/spa-05.svg',
    });
    expect(built!.services).toEqual([
      { name: 'Botox', description: 'Per unit.', priceCents: 1300, duration: 30, category: 'injectable', treatment: 'botox', priceUnit: 'per unit' },
      { name: 'Baby Botox', description: 'Whole treatment.', priceCents: 30000, duration: 30, category: 'injectable', treatment: 'botox' },
      { name: 'Tattoo Removal', description: 'Per session.', priceCents: 22500, duration: 30, category: 'laser', treatment: 'laser', priceUnit: 'per session' },
    ]);
  });
});
