import { describe, expect, it } from 'vitest';
import {
  listingFromForm,
  listingSchema,
  listingTierViolations,
  offerFromForm,
  offerSchema,
  offerTierViolations,
  platformOf,
  serviceFromForm,
  serviceSchema,
  TIER_RULE_MESSAGES,
} from './listing-schema.ts';

const listing = (values: Record<string, string> = {}) => listingSchema.safeParse(listingFromForm({ name: 'Glow Studio', slug: 'glow-studio', ...values }));
const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).reduce<Record<string, string>>((first, issue) => ({ [issue.path.join('.')]: issue.message, ...first }), {});

describe('listingSchema', () => {
  it('uses the spec’s messages for a missing name and slug', () => {
    const result = listing({ name: '   ', slug: '' });
    expect(errorsOf(result)).toMatchObject({ name: 'Spa name is required', slug: 'Slug is required' });
  });

  it('takes only http(s) addresses, with the spec’s message', () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com', 'example', 'https://']) {
      expect(errorsOf(listing({ website: bad })).website, bad).toBe('Valid URL is required');
      expect(errorsOf(listing({ videoUrl: bad })).videoUrl, bad).toBe('Valid URL is required');
    }
    const ok = listing({ website: ' https://glow.example/ ', bookingLink: 'http://glow.example/book' });
    expect(ok.success && ok.data.website).toBe('https://glow.example/');
  });

  it('reads a bare host as an https address (issue 26)', () => {
    const ok = listing({ website: 'walkthroughglow.example', videoUrl: 'www.youtube.com/watch?v=glow' });
    expect(ok.success && ok.data.website).toBe('https://walkthroughglow.example');
    expect(ok.success && ok.data.videoUrl).toBe('https://www.youtube.com/watch?v=glow');
    expect(listing({ website: '' }).data?.website).toBeNull();
  });

  it('turns blank fields into null', () => {
    const result = listing({ description: '  ', phone: '' });
    expect(result.success && result.data).toMatchObject({ description: null, phone: null });
  });

  it('reads the social platform from the address, and asks when it cannot', () => {
    const insta = listing({ socialFeedUrl: 'https://www.instagram.com/glow/' });
    expect(insta.success && insta.data.socialPlatform).toBe('instagram');
    expect(errorsOf(listing({ socialFeedUrl: 'https://social.example/glow' })).socialPlatform).toBe('Choose the platform of the social feed');
    const chosen = listing({ socialFeedUrl: 'https://social.example/glow', socialPlatform: 'tiktok' });
    expect(chosen.success && chosen.data.socialPlatform).toBe('tiktok');
    expect(platformOf('https://youtu.be/abc')).toBe('youtube');
  });

  it('refuses a bad e-mail, phone or slug', () => {
    expect(errorsOf(listing({ email: 'not-mail', phone: 'call me', slug: 'Glow Studio!' }))).toMatchObject({
      email: 'Valid email is required',
      phone: 'Enter a valid phone number',
      slug: 'Use lowercase letters, numbers and hyphens only',
    });
  });
});

describe('tier rules for a listing', () => {
  const none = { bookingLink: null, socialFeedUrl: null, videoUrl: null };
  const all = { bookingLink: 'https://a.example/book', socialFeedUrl: 'https://www.instagram.com/a', videoUrl: 'https://youtu.be/a' };

  it('refuses a booking link and a social feed on Free, and a video below Elite', () => {
    expect(listingTierViolations('FREE', all, none)).toEqual({
      bookingLink: TIER_RULE_MESSAGES.bookingLink,
      socialFeedUrl: TIER_RULE_MESSAGES.socialFeedUrl,
      videoUrl: TIER_RULE_MESSAGES.videoUrl,
    });
    expect(listingTierViolations('PREMIUM', all, none)).toEqual({ videoUrl: TIER_RULE_MESSAGES.videoUrl });
    expect(listingTierViolations('ELITE', all, none)).toEqual({});
  });

  it('lets a downgraded listing keep or clear what it has, but not change it', () => {
    expect(listingTierViolations('FREE', all, all)).toEqual({});
    expect(listingTierViolations('FREE', none, all)).toEqual({});
    expect(listingTierViolations('FREE', { ...all, bookingLink: 'https://b.example/book' }, all)).toEqual({ bookingLink: TIER_RULE_MESSAGES.bookingLink });
  });

  it('lets only Premium and Elite feature a new offer', () => {
    expect(offerTierViolations('FREE', { featured: true }, null)).toEqual({ featured: TIER_RULE_MESSAGES.featured });
    expect(offerTierViolations('FREE', { featured: false }, null)).toEqual({});
    expect(offerTierViolations('FREE', { featured: true }, { featured: true })).toEqual({});
    expect(offerTierViolations('PREMIUM', { featured: true }, null)).toEqual({});
  });
});

describe('serviceSchema', () => {
  const service = (values: Record<string, string>) =>
    serviceSchema.safeParse(serviceFromForm({ name: 'HydraFacial', price: '150', duration: '60', category: 'facial', ...values }));

  it('stores the all-in price in cents with its unit', () => {
    const result = service({ price: '$1,250.5', priceUnit: 'per syringe' });
    expect(result.success && result.data).toMatchObject({ priceCents: 125050, priceUnit: 'per syringe', duration: 60, category: 'facial', treatment: null });
  });

  it('refuses a missing name, a bad price, duration, category or unit', () => {
    const result = service({ name: '', price: '-5', duration: '0', category: 'spa', priceUnit: 'per hug' });
    expect(errorsOf(result)).toEqual({
      name: 'Service name is required',
      priceCents: 'Enter the all-in price in dollars, e.g. 150 or 149.50',
      duration: 'Enter the duration in whole minutes (5 to 600)',
      category: 'Choose a category',
      priceUnit: 'Choose a unit from the list',
    });
  });
});

describe('offerSchema', () => {
  const offer = (values: Record<string, string>, serviceIds: string[] = [], featured = false) =>
    offerSchema.safeParse(
      offerFromForm(
        { title: 'Spring glow', slug: 'spring-glow', description: 'Two facials for one price.', originalPrice: '300', offerPrice: '240', ...values },
        serviceIds,
        featured,
      ),
    );

  it('uses the spec’s messages for a missing title and description', () => {
    expect(errorsOf(offer({ title: '', description: ' ' }))).toMatchObject({ title: 'Offer title is required', description: 'Description is required' });
  });

  it('refuses an offer price above the original and an end before the start', () => {
    expect(errorsOf(offer({ offerPrice: '400' }))).toEqual({ offerPrice: 'The offer price cannot be more than the original price' });
    expect(errorsOf(offer({ validFrom: '2026-12-10', validTo: '2026-12-01' }))).toEqual({ validTo: 'The end date cannot be before the start date' });
    expect(errorsOf(offer({ validTo: '2026-02-30' }))).toEqual({ validTo: 'Enter a valid date' });
  });

  it('refuses an image that is not an http(s) address', () => {
    expect(errorsOf(offer({ imageUrl: 'javascript:alert(1)' }))).toEqual({ imageUrl: 'Valid URL is required' });
  });

  it('reads prices, dates, services and the featured box', () => {
    const result = offer({ validFrom: '2026-12-01', validTo: '2026-12-31' }, ['3', '3', '7'], true);
    expect(result.success && result.data).toMatchObject({
      originalPriceCents: 30000,
      offerPriceCents: 24000,
      validFrom: '2026-12-01',
      validTo: '2026-12-31',
      serviceIds: [3, 7],
      featured: true,
    });
  });
});
