// The shapes of the demo data, in the schema's own types (tiers, categories,
// platforms, clinician roles) and the site's treatments, so a value the
// database would refuse does not type-check here either.
import type { ClinicianRole, ServiceCategory, SOCIAL_PLATFORMS, Tier } from '#db/schema.ts';
import type { TreatmentSlug } from '#content/site.ts';
import type { Weekday } from '#lib/listing-schema.ts';

export interface DemoCity {
  slug: string;
  name: string;
  zipCode: string;
  address: string;
  phone: string;
  email: string;
  description: string;
  imageUrl: string;
}

export interface DemoService {
  name: string;
  description: string;
  priceCents: number;
  priceUnit?: string;
  duration: number;
  category: ServiceCategory;
  treatment?: TreatmentSlug;
}

export interface DemoSpa {
  slug: string;
  name: string;
  citySlug: string;
  tier: Tier;
  featured: boolean;
  verified: boolean;
  description: string;
  address: string;
  phone: string;
  email: string;
  website: string;
  bookingLink: string | null;
  socialFeedUrl: string | null;
  socialPlatform: (typeof SOCIAL_PLATFORMS)[number] | null;
  videoUrl: string | null;
  hours: Record<Weekday, string | null> | null;
  imageUrl: string;
  photos: string[];
  createdDaysAgo: number;
  services: DemoService[];
}

export interface DemoOffer {
  slug: string;
  title: string;
  spaSlug: string;
  description: string;
  originalPriceCents: number;
  offerPriceCents: number;
  validFromDaysFromToday: number | null;
  validToDaysFromToday: number | null;
  featured: boolean;
  serviceNames: string[];
  imageUrl: string;
}

export interface DemoClinician {
  spaSlug: string;
  name: string;
  role: ClinicianRole;
  licenseNumber: string;
  isMedicalDirector: boolean;
  treatments: TreatmentSlug[];
  /** Days before the seeding day an editor checked the licence; null: not checked. */
  checkedDaysAgo: number | null;
}

export interface DemoReview {
  spaSlug: string;
  /** The completed booking behind the review: the client's address is its key. */
  clientEmail: string;
  clientName: string;
  serviceName: string;
  visitDaysAgo: number;
  rating: number;
  body: string;
  treatment: string | null;
  reply: string | null;
}
