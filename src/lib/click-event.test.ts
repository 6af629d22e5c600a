import { describe, expect, it } from 'vitest';
import { parseClickEvent } from './click-event.ts';
import { directionsUrl, outboundTarget } from './outbound.ts';

describe('parseClickEvent', () => {
  it('accepts a spa id, a kind and a path of this site', () => {
    const parsed = parseClickEvent({ spaId: 4, kind: 'website', page: '/spas/harborlight', sessionId: 'abc', utmSource: 'google' });
    expect(parsed.success && parsed.data).toEqual({
      spaId: 4,
      kind: 'website',
      page: '/spas/harborlight',
      sessionId: 'abc',
      utmSource: 'google',
      utmMedium: null,
      utmCampaign: null,
    });
  });

  it('refuses a missing or odd spa id and an unknown kind', () => {
    for (const body of [
      { kind: 'phone' },
      { spaId: '4', kind: 'phone' },
      { spaId: 0, kind: 'phone' },
      { spaId: 1.5, kind: 'phone' },
      { spaId: 4, kind: 'email' },
      { spaId: 4 },
      null,
      [],
    ]) {
      expect(parseClickEvent(body).success, JSON.stringify(body)).toBe(false);
    }
  });

  it('takes only a path as the page: no other origin, no query', () => {
    for (const page of ['https://evil.example/', '//evil.example/x', '/bookings/manage/x?token=1', 'spas/x', `/${'a'.repeat(300)}`]) {
      expect(parseClickEvent({ spaId: 1, kind: 'phone', page }).success, page).toBe(false);
    }
  });
});

describe('outboundTarget', () => {
  const spa = {
    name: 'Glow Spa',
    tier: 'FREE',
    address: '1 Main St, Irvine, CA',
    phone: '(949) 555-0123',
    website: 'https://glow.example',
    bookingLink: 'https://book.example/glow',
    socialFeedUrl: 'https://instagram.com/glow',
  };

  it('computes each link from the listing, obeying the tier', () => {
    expect(outboundTarget(spa, 'phone')).toBe('tel:+19495550123');
    expect(outboundTarget(spa, 'website')).toBe('https://glow.example');
    expect(outboundTarget(spa, 'directions')).toBe(directionsUrl(spa));
    expect(directionsUrl(spa)).toBe('https://www.google.com/maps/search/?api=1&query=Glow%20Spa%2C%201%20Main%20St%2C%20Irvine%2C%20CA');
    // A Free listing has no booking link or social feed, whatever is stored.
    expect(outboundTarget(spa, 'booking')).toBeNull();
    expect(outboundTarget(spa, 'social')).toBeNull();
    expect(outboundTarget({ ...spa, tier: 'PREMIUM' }, 'booking')).toBe('https://book.example/glow');
    expect(outboundTarget({ ...spa, phone: null, address: null }, 'phone')).toBeNull();
    expect(outboundTarget({ ...spa, address: null }, 'directions')).toBeNull();
  });
});
