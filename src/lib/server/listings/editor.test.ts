import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, spas, spaSlugHistory, type Tier } from '#db/schema.ts';
import { TIER_RULE_MESSAGES } from '#lib/listing-schema.ts';
import { db } from '../db.ts';
import { allowedBookingLink } from '#lib/tiers.ts';
import { getSpa, searchSpas } from '../directory/directory.ts';
import { publicPages } from '../directory/public-pages.ts';
import { spaJson } from '../serialize.ts';
import { currentSlugFor, loadListing, saveListing, SLUG_EDITORS_ONLY, SLUG_TAKEN, typedListing } from './editor.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { contentVersion, counted } from '#tests/support/content-version.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';

// Everything this file creates carries the tag, so it never meets the seed or other files.
const TAG = testTag('editor-test');
let owner: SessionUser;
let admin: SessionUser;
let cityId: number;

function makeSpa(tier: Tier, extra: Partial<typeof spas.$inferInsert> = {}) {
  const slug = `${TAG}-${Math.random().toString(36).slice(2, 8)}`;
  return db
    .insert(spas)
    .values({ name: 'Glow Studio', slug, tier, cityId, ownerId: owner.id, ...extra })
    .returning()
    .get();
}

const user = (role: 'owner' | 'admin') => insertUser(`${TAG}-${role}@example.com`, role);

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

beforeAll(() => {
  owner = user('owner');
  admin = user('admin');
  // A city of its own: the Elite cap (3 per city) must not meet the seed's Elite spas.
  cityId = db.insert(cities).values({ name: TAG, slug: TAG }).returning().get().id;
});

describe('saveListing', () => {
  it('saves every field the form sends and marks the published site stale', () => {
    const spa = makeSpa('ELITE');
    const before = contentVersion();
    const result = saveListing(
      owner,
      spa.id,
      form({
        name: 'Glow Studio Irvine',
        description: 'Calm, physician-led.',
        address: '1 Main St',
        phone: '(949) 555-0100',
        email: 'Hello@Glow.example',
        website: 'https://glow.example',
        bookingLink: 'https://glow.example/book',
        socialFeedUrl: 'https://www.instagram.com/glow',
        videoUrl: 'https://youtu.be/glow',
      }),
    );
    expect(result).toMatchObject({ ok: true, value: { slugChanged: false } });
    expect(loadListing(spa.id)).toMatchObject({
      name: 'Glow Studio Irvine',
      slug: spa.slug,
      email: 'hello@glow.example',
      socialPlatform: 'instagram',
      videoUrl: 'https://youtu.be/glow',
    });
    expect(contentVersion()).toBeGreaterThan(before);
  });

  it('writes nothing for a save that changes nothing: no new last change, no content version', () => {
    const spa = makeSpa('FREE', { description: 'Calm.', website: 'https://glow.example', updatedAt: new Date('2026-01-01T00:00:00Z') });
    const same = form({ name: spa.name, description: 'Calm.', website: 'https://glow.example', address: '', phone: '', email: '' });
    expect(counted(() => saveListing(owner, spa.id, same))).toEqual({
      result: { ok: true, value: { changed: false, slugChanged: false, slug: spa.slug } },
      bumps: 0,
    });
    expect(db.select().from(spas).where(eq(spas.id, spa.id)).get()!.updatedAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(counted(() => saveListing(owner, spa.id, form({ description: 'Calmer.' })))).toMatchObject({
      result: { ok: true, value: { changed: true } },
      bumps: 1,
    });
  });

  it('saves a listing awaiting review or hidden without asking for a rebuild: no public page shows it', () => {
    for (const extra of [{ active: false, reviewStatus: 'pending' as const }, { active: false }]) {
      const spa = makeSpa('FREE', extra);
      const saved = counted(() => saveListing(owner, spa.id, form({ name: 'Spam Spam Spam', description: 'Buy now' })));
      expect(saved).toMatchObject({ result: { ok: true, value: { changed: true } }, bumps: 0 });
      expect(loadListing(spa.id)).toMatchObject({ name: 'Spam Spam Spam', description: 'Buy now' });
    }
  });

  it('keeps the slug when the spa is renamed', () => {
    const spa = makeSpa('FREE');
    expect(saveListing(owner, spa.id, form({ name: 'A New Name Entirely' }))).toMatchObject({ ok: true, value: { slug: spa.slug } });
    expect(loadListing(spa.id)!.slug).toBe(spa.slug);
  });

  it('answers in place with the typed values and saves nothing when a field is invalid', () => {
    const spa = makeSpa('FREE', { description: 'Before.' });
    const result = saveListing(owner, spa.id, form({ name: '', description: 'After.', website: 'javascript:alert(1)' }));
    expect(result).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { name: 'Spa name is required', website: 'Valid URL is required' },
    });
    expect(typedListing(spa.id, form({ name: '', description: 'After.', website: 'javascript:alert(1)' }))).toMatchObject({ description: 'After.' });
    expect(loadListing(spa.id)).toMatchObject({ name: 'Glow Studio', description: 'Before.', website: null });
  });

  for (const [tier, field, value] of [
    ['FREE', 'bookingLink', 'https://glow.example/book'],
    ['FREE', 'socialFeedUrl', 'https://www.instagram.com/glow'],
    ['FREE', 'videoUrl', 'https://youtu.be/glow'],
    ['PREMIUM', 'videoUrl', 'https://youtu.be/glow'],
  ] as const) {
    it(`refuses a ${field} on ${tier} with the rule's message and saves nothing`, () => {
      const spa = makeSpa(tier);
      const before = contentVersion();
      const result = saveListing(owner, spa.id, form({ name: 'Renamed too', [field]: value }));
      expect(result).toMatchObject({ ok: false, reason: 'forbidden', fields: { [field]: TIER_RULE_MESSAGES[field] } });
      expect(loadListing(spa.id)).toMatchObject({ name: 'Glow Studio', [field]: null });
      expect(contentVersion()).toBe(before);
    });
  }

  it('lets a downgraded spa keep its extras, save other fields and clear them, but not change them', () => {
    const spa = makeSpa('FREE', { bookingLink: 'https://glow.example/book', videoUrl: 'https://youtu.be/glow' });
    expect(saveListing(owner, spa.id, form({ name: 'Still Glow', bookingLink: 'https://glow.example/book', videoUrl: 'https://youtu.be/glow' }))).toMatchObject(
      { ok: true },
    );
    expect(saveListing(owner, spa.id, form({ bookingLink: 'https://other.example/book' }))).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(saveListing(owner, spa.id, form({ videoUrl: '' }))).toMatchObject({ ok: true });
    expect(loadListing(spa.id)).toMatchObject({ name: 'Still Glow', bookingLink: 'https://glow.example/book', videoUrl: null });
  });

  it('lets only an editor change the slug', () => {
    const spa = makeSpa('PREMIUM');
    expect(saveListing(owner, spa.id, form({ slug: `${spa.slug}-moved` }))).toMatchObject({
      ok: false,
      reason: 'forbidden',
      fields: { slug: SLUG_EDITORS_ONLY },
    });
    expect(loadListing(spa.id)!.slug).toBe(spa.slug);
    expect(saveListing(admin, spa.id, form({ slug: '' }))).toMatchObject({ ok: false, reason: 'invalid', fields: { slug: 'Slug is required' } });
  });

  it('moves the address on an explicit slug change: the old one redirects, and can be taken back', () => {
    const spa = makeSpa('PREMIUM');
    const moved = `${spa.slug}-moved`;
    expect(saveListing(admin, spa.id, form({ slug: moved }))).toMatchObject({ ok: true, value: { slugChanged: true, slug: moved } });
    expect(currentSlugFor(spa.slug)).toBe(moved);
    expect(saveListing(admin, spa.id, form({ slug: spa.slug }))).toMatchObject({ ok: true, value: { slugChanged: true } });
    expect(currentSlugFor(moved)).toBe(spa.slug);
    expect(db.select().from(spaSlugHistory).where(eq(spaSlugHistory.slug, spa.slug)).get()).toBeUndefined();
  });

  it('lists only the new address in the sitemap', () => {
    const spa = makeSpa('FREE');
    saveListing(admin, spa.id, form({ slug: `${spa.slug}-sitemap` }));
    const paths = publicPages().map((page) => page.path);
    expect(paths).toContain(`/spas/${spa.slug}-sitemap`);
    expect(paths).not.toContain(`/spas/${spa.slug}`);
  });

  it('refuses a slug that is, or was, another listing’s address', () => {
    const first = makeSpa('FREE');
    const second = makeSpa('FREE');
    expect(saveListing(admin, second.id, form({ slug: first.slug }))).toMatchObject({ ok: false, reason: 'conflict', fields: { slug: SLUG_TAKEN } });
    const retired = first.slug;
    expect(saveListing(admin, first.id, form({ slug: `${retired}-new` }))).toMatchObject({ ok: true });
    expect(saveListing(admin, second.id, form({ slug: retired }))).toMatchObject({ ok: false, reason: 'conflict', fields: { slug: SLUG_TAKEN } });
  });

  it('does not redirect to a listing that is not shown', () => {
    const spa = makeSpa('FREE');
    saveListing(admin, spa.id, form({ slug: `${spa.slug}-x` }));
    db.update(spas).set({ active: false }).where(eq(spas.id, spa.id)).run();
    expect(currentSlugFor(spa.slug)).toBeNull();
  });
});

describe('a downgrade', () => {
  it('keeps the data, but the directory stops showing the extras and the featured placement', () => {
    const spa = makeSpa('PREMIUM', { featured: true, bookingLink: 'https://glow.example/book', socialFeedUrl: 'https://www.instagram.com/glow' });
    const before = getSpa(spa.slug)!;
    expect(before.featured).toBe(true);
    expect(allowedBookingLink(before)).toBe('https://glow.example/book');
    const featuredHere = () => searchSpas({ page: 1, featured: true, city: TAG, service: undefined, tier: undefined }).spas.map((row) => row.id);
    expect(featuredHere()).toEqual([spa.id]);
    db.update(spas).set({ tier: 'FREE' }).where(eq(spas.id, spa.id)).run();
    const after = getSpa(spa.slug)!;
    expect(after.featured).toBe(false);
    expect(spaJson(after)).toMatchObject({ featured: false, bookingLink: null, socialFeedUrl: null });
    expect(featuredHere()).toEqual([]);
    expect(loadListing(spa.id)).toMatchObject({ bookingLink: 'https://glow.example/book', socialFeedUrl: 'https://www.instagram.com/glow' });
  });
});
