// What each listing tier may show (spec 3, tier feature table; spec 9). The
// server enforces these when a listing is saved and the pages obey them when
// rendering, so a downgraded spa loses its extras at once.
import type { Tier } from '#db/schema.ts';
import { httpUrl } from './urls.ts';

export interface TierFeatures {
  photos: number;
  featuredPlacement: boolean;
  socialFeed: boolean;
  bookingLink: boolean;
  carousel: boolean;
  verifiedBadge: boolean;
  video: boolean;
  newsletterFeaturesPerYear: number;
  analytics: 'basic' | 'advanced' | 'premium';
}

export const TIER_FEATURES: Record<Tier, TierFeatures> = {
  FREE: {
    photos: 3,
    featuredPlacement: false,
    socialFeed: false,
    bookingLink: false,
    carousel: false,
    verifiedBadge: false,
    video: false,
    newsletterFeaturesPerYear: 0,
    analytics: 'basic',
  },
  PREMIUM: {
    photos: 10,
    featuredPlacement: true,
    socialFeed: true,
    bookingLink: true,
    carousel: false,
    verifiedBadge: false,
    video: false,
    newsletterFeaturesPerYear: 0,
    analytics: 'advanced',
  },
  ELITE: {
    photos: 999,
    featuredPlacement: true,
    socialFeed: true,
    bookingLink: true,
    carousel: true,
    verifiedBadge: true,
    video: true,
    newsletterFeaturesPerYear: 2,
    analytics: 'premium',
  },
};

export const ELITE_PER_CITY = 3;

/** Sort weight: ELITE 3, PREMIUM 2, anything else 1 (spec 9). */
export function tierWeight(tier: string): number {
  return tier === 'ELITE' ? 3 : tier === 'PREMIUM' ? 2 : 1;
}

export function featuresOf(tier: string): TierFeatures {
  return TIER_FEATURES[tier as Tier] ?? TIER_FEATURES.FREE;
}

/** The external booking link a card may show: only when the tier allows one and it is set. */
export function allowedBookingLink(spa: { tier: string; bookingLink: string | null }): string | null {
  return featuresOf(spa.tier).bookingLink ? httpUrl(spa.bookingLink) : null;
}

export function allowedSocialFeed(spa: { tier: string; socialFeedUrl: string | null }): string | null {
  return featuresOf(spa.tier).socialFeed ? httpUrl(spa.socialFeedUrl) : null;
}

export function allowedVideo(spa: { tier: string; videoUrl: string | null }): string | null {
  return featuresOf(spa.tier).video ? httpUrl(spa.videoUrl) : null;
}

export function isVerified(spa: { tier: string; verified: boolean }): boolean {
  return featuresOf(spa.tier).verifiedBadge && spa.verified;
}

/** The photos a spa may show: the first N of its gallery, N by tier. */
export function visiblePhotos<T>(spa: { tier: string }, photos: T[]): T[] {
  return photos.slice(0, featuresOf(spa.tier).photos);
}
