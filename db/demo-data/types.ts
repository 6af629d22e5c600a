// The shapes of the demo data, in the schema's own types (tiers, categories,
// platforms, clinician roles) and the site's treatments, so a value the
// database would refuse does not type-check here either.
import type { ClinicianRole, ServiceCategory, SOCIAL_PLATFORMS, Tier } from '#db/schema.ts';
import type { TreatmentSlug } from '#content/site.ts';
import type { DayHours, WeeklyHours } from '#lib/opening-hours.ts';

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
  openingHours: WeeklyHours | null;
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

/**
 * A spa that publishes its availability (issue 24): how it takes bookings, its
 * rules, closed dates and one-off hours (days from the seeding day), which
 * services are not bookable online or have a buffer, and its clinicians' hours
 * and time off (by name, as people.ts lists them).
 */
export interface DemoAvailability {
  spaSlug: string;
  bookingMode: 'instant' | 'request';
  minNoticeMinutes?: number;
  bookingHorizonDays?: number;
  slotStepMinutes?: number;
  treatmentRooms?: number | null;
  dates?: { daysFromToday: number; ranges: DayHours; note: string }[];
  services?: Record<string, { bookableOnline?: boolean; bufferAfterMinutes?: number }>;
  clinicians?: Record<string, { workingHours?: WeeklyHours; timeOff?: { fromDaysFromToday: number; days: number; note: string }[] }>;
}
