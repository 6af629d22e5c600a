// How an offer is presented (spec 2, Offers; spec 4, expiry; spec 5, discount
// percent). Pure, so the card, the offer page and the tests agree on every word.
import { formatLongDate, isExpired } from './dates.ts';
import { discountPercent, formatWholeDollars } from './money.ts';

export interface OfferTerms {
  originalPriceCents: number;
  offerPriceCents: number;
  savingsCents: number;
  validFrom: string | null;
  validTo: string | null;
}

export interface OfferDisplay {
  expired: boolean;
  /** Starts after today: listed already, but not bookable yet. */
  upcoming: boolean;
  /** "21% Off", or null when there is no discount (spec 5: shown only above 0). */
  percentOff: string | null;
  offerPrice: string;
  /** Null when nothing is knocked off: striking through the same price would mislead. */
  originalPrice: string | null;
  /** "Save $60", null without savings. */
  savings: string | null;
  /** "Valid until December 31, 2026", "Ended November 30, 2026" once past, or "Ongoing offer" without an end date. */
  validity: string;
  validFrom: string | null;
  validUntil: string | null;
}

export const ONGOING = 'Ongoing offer';

/** `today` is Orange County's date; pages pass the build's, so a daily rebuild keeps it true. */
export function offerDisplay(offer: OfferTerms, today: string): OfferDisplay {
  const expired = isExpired(offer.validTo, today);
  const percent = discountPercent(offer.originalPriceCents, offer.offerPriceCents);
  const hasSavings = offer.savingsCents > 0;
  const validUntil = offer.validTo ? formatLongDate(offer.validTo) : null;
  return {
    expired,
    upcoming: offer.validFrom != null && offer.validFrom > today,
    percentOff: percent > 0 ? `${percent}% Off` : null,
    offerPrice: formatWholeDollars(offer.offerPriceCents),
    originalPrice: hasSavings ? formatWholeDollars(offer.originalPriceCents) : null,
    savings: hasSavings ? `Save ${formatWholeDollars(offer.savingsCents)}` : null,
    // An ended offer is not "valid until" a day gone by (issue 26).
    validity: validUntil ? `${expired ? 'Ended' : 'Valid until'} ${validUntil}` : ONGOING,
    validFrom: offer.validFrom ? formatLongDate(offer.validFrom) : null,
    validUntil,
  };
}

/** The spec's own wording, "N offer(s) available", whatever N is. */
export const offerCountLabel = (count: number) => `${count} offer(s) available`;

/** How many of the offers are still on `today`: "available" does not count ended ones (issue 26). */
export const availableOfferCount = (offers: readonly { validTo: string | null }[], today: string) =>
  offers.filter((offer) => !isExpired(offer.validTo, today)).length;

/**
 * Featured offers and the rest (spec 2: "Featured Deals", "All Offers"). Within
 * each, current offers come before ended ones; otherwise the query's order stands.
 */
export function groupOffers<T extends { featured: boolean; validTo: string | null }>(offers: readonly T[], today: string) {
  const currentFirst = (list: T[]) => [...list.filter((o) => !isExpired(o.validTo, today)), ...list.filter((o) => isExpired(o.validTo, today))];
  return {
    featured: currentFirst(offers.filter((o) => o.featured)),
    others: currentFirst(offers.filter((o) => !o.featured)),
  };
}
