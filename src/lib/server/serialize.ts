// The JSON shapes of spec section 7. Money leaves the server as decimal strings.
import { centsToDecimal } from '../money.ts';
import { allowedBookingLink, allowedSocialFeed, allowedVideo, isVerified } from '../tiers.ts';
import type { OfferCardData, ServiceCardData, SpaCardData } from './directory/directory.ts';
import { httpUrl } from '../urls.ts';

export function serviceJson(service: ServiceCardData) {
  return {
    id: service.id,
    name: service.name,
    description: service.description,
    price: centsToDecimal(service.priceCents),
    priceUnit: service.priceUnit,
    duration: service.duration,
    category: service.category,
    imageUrl: service.imageUrl,
    active: true,
    spaId: service.spaId,
    spa: { name: service.spaName, slug: service.spaSlug },
    city: { name: service.cityName },
  };
}

export function spaJson(spa: SpaCardData) {
  return {
    id: spa.id,
    name: spa.name,
    slug: spa.slug,
    tier: spa.tier,
    featured: spa.featured,
    verified: isVerified(spa),
    description: spa.description,
    address: spa.address,
    phone: spa.phone,
    email: spa.email,
    website: httpUrl(spa.website),
    imageUrl: spa.imageUrl,
    // Only what the spa's tier allows leaves the server (rulings: tier rules).
    bookingLink: allowedBookingLink(spa),
    socialFeedUrl: allowedSocialFeed(spa),
    videoUrl: allowedVideo(spa),
    cityId: spa.cityId,
    city: { name: spa.cityName, slug: spa.citySlug },
    createdAt: spa.createdAt.toISOString(),
  };
}

export function offerJson(offer: OfferCardData, serviceIds: number[]) {
  return {
    id: offer.id,
    title: offer.title,
    slug: offer.slug,
    description: offer.description,
    originalPrice: centsToDecimal(offer.originalPriceCents),
    offerPrice: centsToDecimal(offer.offerPriceCents),
    savings: centsToDecimal(offer.savingsCents),
    validFrom: offer.validFrom,
    validTo: offer.validTo,
    cityId: offer.cityId,
    spaId: offer.spaId,
    serviceIds,
    imageUrl: offer.imageUrl,
    active: true,
    featured: offer.featured,
    spa: { name: offer.spaName, slug: offer.spaSlug },
    city: { name: offer.cityName },
  };
}
