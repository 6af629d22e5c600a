// Copy, claims, contact details and navigation: the words an editor may change
// without touching a component (rulings, Content). Defaults are the spec's.

export const brand = {
  name: 'Orange County Med Spa Directory',
  shortName: 'OC Med Spa Directory',
  tagline: 'The premier medical spa destination in Orange County',
  county: 'Orange County',
  state: 'California',
  stateCode: 'CA',
  copyrightYear: 2024,
} as const;

export const contact = {
  phone: '(949) 555-0100',
  phoneHref: 'tel:+19495550100',
  email: 'info@ocmedspadirectory.com',
  emailLabel: 'Directory Inquiries',
  access: '24/7 Online Directory Access',
  replyPromise: 'We reply to every booking request within 24 hours.',
} as const;

/** Marketing claims shown on the site (spec 1). */
export const claims = {
  providers: '500+',
  providersLabel: 'Licensed providers',
  spas: '500+',
  monthlySearches: '2,500+',
  monthlySearchesLabel: 'Monthly searches',
  monthlySearchesOwnerPitch: '50K+',
  leadQuality: '95%',
  leadQualityLabel: 'Lead quality',
  badges: ['Licensed provider network', 'HIPAA compliant', 'County verified', '24/7 online directory access'],
} as const;

export interface NavLink {
  label: string;
  href: string;
  /** On the home page the link scrolls to this section instead. */
  section?: string;
}

export const navLinks: NavLink[] = [
  { label: 'Home', href: '/' },
  { label: 'Services', href: '/services' },
  { label: 'About', href: '/#about', section: 'about' },
  { label: 'Contact', href: '/#contact', section: 'contact' },
];

export const authLinks = {
  signIn: { label: 'Sign In', href: '/api/login' },
  bookNow: { label: 'Book Now', href: '/#contact' },
} as const;

export const footer = {
  about: 'Orange County’s directory of licensed medical spas: compare providers, treatments and offers, and request an appointment in a minute.',
  newsletter: {
    heading: 'Newsletter',
    lead: 'New providers, offers and treatment guides, at most twice a month.',
  },
  quickLinks: [
    { label: 'Our Services', href: '/services' },
    { label: 'About Us', href: '/#about' },
    { label: 'Book Consultation', href: '/#contact' },
    { label: 'Search Providers', href: '/search-results' },
    { label: 'Sitemap', href: '/sitemap' },
  ],
  legalLinks: [
    { label: 'Privacy Policy', href: '/privacy-policy' },
    { label: 'Terms of Service', href: '/terms-of-service' },
    { label: 'Sitemap', href: '/sitemap' },
    { label: 'Contact', href: `mailto:${contact.email}` },
  ],
} as const;

export const notFound = {
  badge: 'Page Not Found',
  heading: 'This Page Has Wandered Away',
  intro:
    'The page you were looking for has moved or never existed. Let us guide you back to Orange County’s finest licensed medical spas and aesthetic providers.',
  popularHeading: 'Explore Our Most Popular Services',
  popular: [
    {
      label: 'Botox Cosmetic',
      href: '/search-results?service=botox',
      category: 'injectable',
      blurb: 'Soften lines with licensed nurse injectors.',
    },
    {
      label: 'HydraFacial MD',
      href: '/search-results?service=hydrafacial',
      category: 'facial',
      blurb: 'Cleanse, exfoliate and hydrate in one visit.',
    },
    {
      label: 'Body Contouring',
      href: '/search-results?service=coolsculpting',
      category: 'body',
      blurb: 'Non-surgical sculpting with CoolSculpting.',
    },
  ],
} as const;

/** The treatments visitors search by (spec 2, Search results), with display names and copy. */
export const treatments = [
  { slug: 'botox', name: 'Botox', category: 'injectable', blurb: 'Soften expression lines with licensed nurse injectors.' },
  { slug: 'hydrafacial', name: 'HydraFacial', category: 'facial', blurb: 'Cleanse, exfoliate and hydrate in a single visit.' },
  { slug: 'fillers', name: 'Dermal Fillers', category: 'injectable', blurb: 'Restore volume to lips, cheeks and jawline.' },
  { slug: 'laser', name: 'Laser Treatments', category: 'laser', blurb: 'Hair removal, resurfacing and sun-damage repair.' },
  { slug: 'coolsculpting', name: 'CoolSculpting', category: 'body', blurb: 'Non-surgical fat reduction, one area at a time.' },
  { slug: 'microneedling', name: 'Microneedling', category: 'facial', blurb: 'Collagen induction for texture, scars and pores.' },
  { slug: 'chemical-peels', name: 'Chemical Peels', category: 'facial', blurb: 'Brighter, smoother skin from medical-grade peels.' },
  { slug: 'iv-therapy', name: 'IV Therapy', category: 'wellness', blurb: 'Hydration and vitamin infusions under medical care.' },
] as const;

export type TreatmentSlug = (typeof treatments)[number]['slug'];

export const home = {
  heroEyebrow: 'Orange County, California',
  heroHeading: 'Find your trusted medical spa in Orange County',
  heroLead: 'Compare licensed providers for Botox, HydraFacial, laser and body treatments across the county, then request an appointment in under a minute.',
  aboutHeading: 'A directory you can trust with your skin',
  aboutParagraphs: [
    'We list medical spas across Orange County, from Newport Beach to Anaheim, and check each listing against county and state records before it goes live.',
    'Every provider on the directory works under a licensed medical director. Prices you see are all-in, and every booking request gets a reply within 24 hours.',
  ],
  contactHeading: 'Book a consultation',
  eliteHeading: 'Elite spotlight',
  eliteLead: 'Verified Elite partners: the county’s most established medical spas.',
  servicesEyebrow: 'Services',
  servicesHeading: 'Featured services',
  servicesLead: 'A treatment from each specialty, at the county’s best-listed spas. All prices are all-in.',
  treatmentsHeading: 'Popular treatments',
  treatmentsLead: 'Compare providers across Orange County for the treatments people ask about most.',
  contactLead: 'Tell us what you are looking for and a coordinator will match you with the right provider. We reply within 24 hours.',
} as const;

/** Messages of the error catalogue (spec 8) shown outside a form island. */
export const authMessages = {
  /** The owner dashboard could not verify the visitor's session: a destructive toast. */
  sessionFailed: { title: 'Authentication Error', description: 'Unable to verify your session. Please log in again.' },
} as const;

/** The home page's pitch to spa owners (spec 2, Home); Explore Plans opens /spa-owners in a new tab. */
export const ownerPitch = {
  eyebrow: 'For spa owners',
  heading: 'Grow your practice with Orange County’s directory',
  lead: 'List for free, or reach more clients with Premium and Elite placement.',
  cta: 'Explore Plans',
  /** The /spa-owners landing page's own heading. */
  landingHeading: 'Grow your practice with Orange County’s med spa directory',
  /** How listing works, beside the landing page's heading. */
  steps: {
    heading: 'How listing works',
    items: [
      { title: 'List your spa', text: 'Tell us your name, city and services. The Essential listing is free.' },
      { title: 'An editor reviews it', text: 'We check every new listing before it appears in the directory, and e-mail you when it is live.' },
      { title: 'Clients find you', text: 'Requests arrive by e-mail and in your dashboard; the directory promises a reply within 24 hours.' },
      { title: 'Upgrade when you are ready', text: 'Premium and Elite add featured placement, your own booking link and more.' },
    ],
  },
} as const;

/** The static package promo of /services and /booking (spec 2, 9): $650, was $825, save $175. */
export const packagePromo = {
  eyebrow: 'Package offer',
  title: 'The Radiance Package',
  blurb: 'A HydraFacial, a chemical peel and an LED session, booked together.',
  priceCents: 65_000,
  wasCents: 82_500,
} as const;

/** Listing plans (spec 1, 9): Premium $97 a month or $970 a year, Elite $197 or $1,970. */
export const plans = {
  FREE: { name: 'Essential', summary: 'A basic listing with up to 3 photos and offers.' },
  PREMIUM: {
    name: 'Premium',
    monthlyCents: 9_700,
    yearlyCents: 97_000,
    summary: 'Featured placement, social feed, booking link and advanced analytics.',
  },
  ELITE: {
    name: 'Elite',
    monthlyCents: 19_700,
    yearlyCents: 197_000,
    summary: 'Homepage carousel, verified badge, video spotlight and newsletter features. At most 3 per city.',
  },
  annualBadge: 'Save 20%',
} as const;
