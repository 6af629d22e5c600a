import { describe, expect, it } from 'vitest';
import { allowedBookingLink, allowedSocialFeed, allowedVideo, isFeatured, isVerified, tierWeight, visiblePhotos } from './tiers.ts';

describe('tier rules', () => {
  it('weighs tiers ELITE 3, PREMIUM 2, anything else 1', () => {
    expect(tierWeight('ELITE')).toBe(3);
    expect(tierWeight('PREMIUM')).toBe(2);
    expect(tierWeight('FREE')).toBe(1);
    expect(tierWeight('GOLD')).toBe(1);
  });

  it('shows a booking link only when the tier allows it and one is set', () => {
    expect(allowedBookingLink({ tier: 'FREE', bookingLink: 'https://x/book' })).toBeNull();
    expect(allowedBookingLink({ tier: 'PREMIUM', bookingLink: null })).toBeNull();
    expect(allowedBookingLink({ tier: 'PREMIUM', bookingLink: 'https://x/book' })).toBe('https://x/book');
    expect(allowedBookingLink({ tier: 'ELITE', bookingLink: 'https://x/book' })).toBe('https://x/book');
  });

  it('keeps social feeds, video and the verified badge to the tiers that have them', () => {
    expect(allowedSocialFeed({ tier: 'FREE', socialFeedUrl: 'https://instagram.com/x' })).toBeNull();
    expect(allowedSocialFeed({ tier: 'PREMIUM', socialFeedUrl: 'https://instagram.com/x' })).not.toBeNull();
    expect(allowedVideo({ tier: 'PREMIUM', videoUrl: 'https://youtube.com/watch?v=x' })).toBeNull();
    expect(allowedVideo({ tier: 'ELITE', videoUrl: 'https://youtube.com/watch?v=x' })).not.toBeNull();
    expect(isVerified({ tier: 'PREMIUM', verified: true })).toBe(false);
    expect(isVerified({ tier: 'ELITE', verified: true })).toBe(true);
    expect(isVerified({ tier: 'ELITE', verified: false })).toBe(false);
  });

  it('shows featured placement only while the tier pays for it', () => {
    expect(isFeatured({ tier: 'FREE', featured: true })).toBe(false);
    expect(isFeatured({ tier: 'PREMIUM', featured: true })).toBe(true);
    expect(isFeatured({ tier: 'ELITE', featured: false })).toBe(false);
  });

  it('limits photos by tier: Free 3, Premium 10, Elite effectively unlimited', () => {
    const photos = Array.from({ length: 20 }, (_, i) => i);
    expect(visiblePhotos({ tier: 'FREE' }, photos)).toHaveLength(3);
    expect(visiblePhotos({ tier: 'PREMIUM' }, photos)).toHaveLength(10);
    expect(visiblePhotos({ tier: 'ELITE' }, photos)).toHaveLength(20);
  });
});
