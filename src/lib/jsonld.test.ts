import { describe, expect, it } from 'vitest';
import { breadcrumbJsonLd, itemListJsonLd, offerJsonLd, priceRange, serializeJsonLd, spaJsonLd, splitAddress } from './jsonld.ts';

const origin = 'https://ocmedspadirectory.com';

describe('structured data', () => {
  it('splits an Orange County address into PostalAddress parts', () => {
    expect(splitAddress('3101 West Coast Highway, Suite 120, Newport Beach, CA 92663', 'Newport Beach')).toEqual({
      '@type': 'PostalAddress',
      streetAddress: '3101 West Coast Highway, Suite 120',
      addressLocality: 'Newport Beach',
      addressRegion: 'CA',
      postalCode: '92663',
      addressCountry: 'US',
    });
    expect(splitAddress('Somewhere odd', 'Irvine')).toMatchObject({ streetAddress: 'Somewhere odd', addressLocality: 'Irvine' });
  });

  it('offers a ReserveAction where the spa takes online bookings', () => {
    const base = { name: 'Glow', slug: 'glow', description: null, address: null, phone: null, website: null, imageUrl: null, cityName: 'Irvine', prices: [] };
    expect(spaJsonLd({ ...base, reserveUrl: '/booking?spa=7#open-times' }, origin)).toMatchObject({
      potentialAction: {
        '@type': 'ReserveAction',
        target: { '@type': 'EntryPoint', urlTemplate: 'https://ocmedspadirectory.com/booking?spa=7#open-times' },
        result: { '@type': 'Reservation', name: 'Appointment at Glow' },
      },
    });
  });

  it('lists clinicians as employees with their licence, and reviews with their aggregate', () => {
    const base = { name: 'Glow', slug: 'glow', description: null, address: null, phone: null, website: null, imageUrl: null, cityName: 'Irvine', prices: [] };
    const data = spaJsonLd(
      {
        ...base,
        clinicians: [
          { name: 'Dr. Ana Ruiz', role: 'MD', isMedicalDirector: true, licenseNumber: 'A12345', board: 'Medical Board of California', treatments: ['Botox'] },
        ],
        reviews: { count: 2, average: 4.5, items: [{ authorName: 'Kim', rating: 4, body: 'Good.', createdAt: new Date('2026-10-05T20:00:00Z') }] },
      },
      origin,
    );
    expect(data).toMatchObject({
      employee: [
        {
          '@type': 'Person',
          name: 'Dr. Ana Ruiz',
          jobTitle: 'Medical Director (MD)',
          hasCredential: {
            '@type': 'EducationalOccupationalCredential',
            credentialCategory: 'license',
            identifier: 'A12345',
            recognizedBy: { name: 'Medical Board of California' },
          },
          knowsAbout: ['Botox'],
        },
      ],
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2, bestRating: 5, worstRating: 1 },
      review: [{ '@type': 'Review', author: { name: 'Kim' }, reviewRating: { ratingValue: 4 }, reviewBody: 'Good.', datePublished: '2026-10-05' }],
    });
    // A spa that takes no online bookings offers no ReserveAction.
    expect(data).not.toHaveProperty('potentialAction');
    // No rating at all rather than an empty one, which search engines reject.
    const none = spaJsonLd({ ...base, clinicians: [], reviews: { count: 0, average: null, items: [] } }, origin);
    expect(none).not.toHaveProperty('aggregateRating');
    expect(none).not.toHaveProperty('employee');
  });

  it('describes a spa as MedicalBusiness and DaySpa with address and price range', () => {
    const data = spaJsonLd(
      {
        name: 'Glow',
        slug: 'glow',
        description: 'Calm.',
        address: '1 Main St, Irvine, CA 92618',
        phone: '(949) 555-0100',
        website: 'https://glow.example',
        imageUrl: '/images/spas/spa-01.svg',
        cityName: 'Irvine',
        prices: [0, 19900, 22500, 65000],
      },
      origin,
    );
    expect(data['@type']).toEqual(['MedicalBusiness', 'DaySpa']);
    expect(data).toMatchObject({ '@context': 'https://schema.org', url: `${origin}/spas/glow`, priceRange: '$$', image: `${origin}/images/spas/spa-01.svg` });
    expect(priceRange([0])).toBeUndefined();
    expect(priceRange([5000])).toBe('$');
    expect(priceRange([100000])).toBe('$$$$');
  });

  it('gives an offer its price, currency and last valid day', () => {
    const data = offerJsonLd(
      {
        title: 'Deal',
        slug: 'deal',
        description: 'd',
        offerPriceCents: 14900,
        validFrom: '2026-11-01',
        validTo: '2026-12-31',
        spaName: 'Glow',
        spaSlug: 'glow',
        expired: false,
      },
      origin,
    );
    expect(data).toMatchObject({
      '@type': 'Offer',
      price: '149.00',
      priceCurrency: 'USD',
      validThrough: '2026-12-31',
      availability: 'https://schema.org/InStock',
    });
  });

  it('numbers list items and breadcrumbs from 1, starting breadcrumbs at home', () => {
    const list = itemListJsonLd(
      'Spas',
      [
        { name: 'A', path: '/spas/a' },
        { name: 'B', path: '/spas/b' },
      ],
      origin,
    );
    expect(list.numberOfItems).toBe(2);
    expect(JSON.stringify(list.itemListElement)).toContain(`"position":2,"name":"B","url":"${origin}/spas/b"`);
    const crumbs = breadcrumbJsonLd([{ name: 'Irvine', path: '/cities/irvine' }], origin);
    expect(JSON.stringify(crumbs.itemListElement)).toContain(`"position":1,"name":"OC Med Spa Directory","item":"${origin}/"`);
  });

  it('cannot be broken out of its script element', () => {
    expect(serializeJsonLd({ description: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });
});
