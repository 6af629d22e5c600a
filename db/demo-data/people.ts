// The demo's people: an owner to sign in as, the requests one spa answered,
// who treats you at some spas, and verified reviews (issue 14). Invented
// people; the licence numbers only have the right form and name nobody. A
// check date is shown for some, so the demo pages show both states.
import type { DemoClinician, DemoReview } from './types.ts';

/** A spa owner to sign in as locally (`/owner/login`), so the dashboard has a listing and its requests. */
export const demoOwner = { email: 'demo-owner@example.com', firstName: 'Olivia', lastName: 'Hart', spaSlug: 'harborlight-aesthetics' } as const;

/**
 * Past requests to one spa and how long the spa took to answer them, so its
 * page can show "Usually answers within N hours" (median of 0.5, 1.5, 2, 3, 4,
 * 6 and 26 hours: 3 hours). Dates are relative to the seeding day.
 */
export const demoAnsweredRequests = {
  spaSlug: 'saltwater-skin-atelier',
  requests: [
    { daysAgo: 8, answeredAfterHours: 2, outcome: 'completed' },
    { daysAgo: 15, answeredAfterHours: 0.5, outcome: 'completed' },
    { daysAgo: 21, answeredAfterHours: 6, outcome: 'completed' },
    { daysAgo: 30, answeredAfterHours: 3, outcome: 'completed' },
    { daysAgo: 37, answeredAfterHours: 26, outcome: 'declined' },
    { daysAgo: 44, answeredAfterHours: 1.5, outcome: 'completed' },
    { daysAgo: 59, answeredAfterHours: 4, outcome: 'completed' },
  ],
} as const;

export const demoClinicians: DemoClinician[] = [
  {
    spaSlug: 'harborlight-aesthetics',
    name: 'Dr. Elena Marsh',
    role: 'MD',
    licenseNumber: 'A123456',
    isMedicalDirector: true,
    treatments: ['botox', 'fillers', 'laser'],
    checkedDaysAgo: 12,
  },
  {
    spaSlug: 'harborlight-aesthetics',
    name: 'Priya Nair',
    role: 'NP',
    licenseNumber: '95012',
    isMedicalDirector: false,
    treatments: ['botox', 'fillers'],
    checkedDaysAgo: 12,
  },
  {
    spaSlug: 'harborlight-aesthetics',
    name: 'Jordan Reyes',
    role: 'RN',
    licenseNumber: '95012345',
    isMedicalDirector: false,
    treatments: ['botox', 'hydrafacial'],
    checkedDaysAgo: 11,
  },
  {
    spaSlug: 'saltwater-skin-atelier',
    name: 'Dr. Samuel Ortiz',
    role: 'DO',
    licenseNumber: '20A12345',
    isMedicalDirector: true,
    treatments: ['fillers'],
    checkedDaysAgo: 30,
  },
  {
    spaSlug: 'saltwater-skin-atelier',
    name: 'Maya Chen',
    role: 'PA',
    licenseNumber: 'PA23456',
    isMedicalDirector: false,
    treatments: ['botox', 'fillers'],
    checkedDaysAgo: null,
  },
  {
    spaSlug: 'lido-meridian-dermatology',
    name: 'Dr. Naomi Feld',
    role: 'MD',
    licenseNumber: 'G98765',
    isMedicalDirector: true,
    treatments: ['laser'],
    checkedDaysAgo: 5,
  },
  {
    spaSlug: 'bayfront-glow-studio',
    name: 'Alana Brooks',
    role: 'NP',
    licenseNumber: '123456',
    isMedicalDirector: false,
    treatments: ['botox'],
    checkedDaysAgo: null,
  },
];

export const demoReviews: DemoReview[] = [
  {
    spaSlug: 'harborlight-aesthetics',
    clientEmail: 'demo-client-1@example.com',
    clientName: 'Rachel K.',
    serviceName: 'Botox Cosmetic',
    visitDaysAgo: 9,
    rating: 5,
    body: 'Dr. Marsh examined me before anything was done and explained exactly how many units she suggested and why. Natural result, no bruising.',
    treatment: 'Botox',
    reply: 'Thank you, Rachel. We are glad the assessment helped; see you at your two-week check.',
  },
  {
    spaSlug: 'harborlight-aesthetics',
    clientEmail: 'demo-client-2@example.com',
    clientName: 'Daniel P.',
    serviceName: 'HydraFacial MD',
    visitDaysAgo: 24,
    rating: 4,
    body: 'Very clean clinic and a thorough facial. I waited about fifteen minutes past my appointment time, otherwise great.',
    treatment: 'HydraFacial',
    reply: null,
  },
  {
    spaSlug: 'harborlight-aesthetics',
    clientEmail: 'demo-client-3@example.com',
    clientName: 'Sofia',
    serviceName: 'Dermal Filler',
    visitDaysAgo: 47,
    rating: 5,
    body: 'Priya took her time, showed me the syringe and the lot number, and the follow-up visit was included as promised.',
    treatment: 'Cheek filler',
    reply: null,
  },
  {
    spaSlug: 'saltwater-skin-atelier',
    clientEmail: 'demo-client-4@example.com',
    clientName: 'Megan',
    serviceName: 'Signature HydraFacial',
    visitDaysAgo: 15,
    rating: 4,
    body: 'Relaxing and my skin looked brighter for days. The price matched what was listed here.',
    treatment: null,
    reply: null,
  },
  {
    spaSlug: 'saltwater-skin-atelier',
    clientEmail: 'demo-client-5@example.com',
    clientName: 'J. Alvarez',
    serviceName: 'Lip Filler',
    visitDaysAgo: 38,
    rating: 3,
    body: 'Good result in the end, but I needed the touch-up and had to call twice to get it booked.',
    treatment: 'Lip filler',
    reply: null,
  },
  {
    spaSlug: 'lido-meridian-dermatology',
    clientEmail: 'demo-client-6@example.com',
    clientName: 'Hannah',
    serviceName: 'Excel V Vascular Laser',
    visitDaysAgo: 20,
    rating: 5,
    body: 'Dr. Feld checked my skin type herself before the laser session. Redness was gone in two days, exactly as she said.',
    treatment: 'Vascular laser',
    reply: null,
  },
];
