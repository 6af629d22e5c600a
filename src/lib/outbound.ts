// Outbound links of a listing (phone, website, booking link, directions,
// social feed): where each leads, computed from the spa alone. The pages link
// to these, and POST /api/clicks stores the same target, so a recorded click
// never carries a URL a browser made up. Pure.
import { telHref } from './text.ts';
import { allowedBookingLink, allowedSocialFeed } from './tiers.ts';

export const CLICK_KINDS = ['phone', 'website', 'booking', 'directions', 'social'] as const;
export type ClickKind = (typeof CLICK_KINDS)[number];

export interface OutboundSpa {
  name: string;
  tier: string;
  address: string | null;
  phone: string | null;
  website: string | null;
  bookingLink: string | null;
  socialFeedUrl: string | null;
}

/** A maps search for the spa's name and address. */
export function directionsUrl(spa: Pick<OutboundSpa, 'name' | 'address'>): string | null {
  return spa.address ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${spa.name}, ${spa.address}`)}` : null;
}

/** Where the spa's link of this kind leads, or null when the spa has none (or its tier does not allow it). */
export function outboundTarget(spa: OutboundSpa, kind: ClickKind): string | null {
  switch (kind) {
    case 'phone':
      return spa.phone ? telHref(spa.phone) : null;
    case 'website':
      return spa.website;
    case 'booking':
      return allowedBookingLink(spa);
    case 'directions':
      return directionsUrl(spa);
    case 'social':
      return allowedSocialFeed(spa);
  }
}
