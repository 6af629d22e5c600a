// Services and offers as owners manage them (services.ts, offers.ts).
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities, offers, services, spas, type Tier } from '#db/schema.ts';
import { TIER_RULE_MESSAGES } from '#lib/listing-schema.ts';
import { db } from '../db.ts';
import { contentVersion } from '#tests/support/content-version.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { listCurrentOffers, listOffers, listSpaServices } from '../directory/directory.ts';
import { endOffer, findOwnerOffer, OFFER_SERVICES_UNKNOWN, OFFER_SLUG_TAKEN, saveOffer } from './offers.ts';
import { findOwnerService, saveService, SERVICE_NAME_TAKEN, serviceValuesOf, setServiceActive } from './services.ts';

const TAG = testTag('catalog-test');
let cityId: number;

function makeSpa(tier: Tier) {
  const slug = `${TAG}-${Math.random().toString(36).slice(2, 8)}`;
  return db.insert(spas).values({ name: 'Glow Studio', slug, tier, cityId }).returning().get();
}
const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const item of [value].flat()) params.append(key, item);
  return params;
};
const service = { name: 'HydraFacial', price: '150', duration: '60', category: 'facial' };
const offer = (extra: Record<string, string | string[]> = {}) =>
  form({ title: `Spring glow ${TAG}`, description: 'Two facials for one price.', originalPrice: '300', offerPrice: '240', ...extra });

beforeAll(() => {
  cityId = db.insert(cities).values({ name: TAG, slug: TAG }).returning().get().id;
});

describe('services', () => {
  it('adds a service with its all-in price and unit, and shows it on the spa page', () => {
    const spa = makeSpa('FREE');
    const before = contentVersion();
    const result = saveService(
      spa.id,
      null,
      form({ ...service, name: 'Botox', price: '14', priceUnit: 'per unit', category: 'injectable', treatment: 'botox' }),
    );
    expect(result).toMatchObject({ ok: true });
    expect(listSpaServices(spa.id)).toEqual([expect.objectContaining({ name: 'Botox', priceCents: 1400, priceUnit: 'per unit', treatment: 'botox' })]);
    expect(contentVersion()).toBeGreaterThan(before);
  });

  it('edits only the spa’s own services', () => {
    const spa = makeSpa('FREE');
    const other = makeSpa('FREE');
    const created = saveService(spa.id, null, form(service));
    if (!created.ok) throw new Error('not created');
    expect(saveService(spa.id, created.value.id, form({ ...service, price: '175.50' }))).toMatchObject({ ok: true });
    expect(findOwnerService(spa.id, created.value.id)!.priceCents).toBe(17550);
    expect(saveService(other.id, created.value.id, form({ ...service, price: '1' }))).toMatchObject({ ok: false, reason: 'not_found' });
    expect(setServiceActive(other.id, created.value.id, false)).toBe(false);
    expect(findOwnerService(spa.id, created.value.id)).toMatchObject({ priceCents: 17550, active: true });
  });

  it('refuses a bad or duplicate service and saves nothing', () => {
    const spa = makeSpa('FREE');
    saveService(spa.id, null, form(service));
    expect(saveService(spa.id, null, form({ ...service, name: '' }))).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { name: 'Service name is required' },
    });
    // The page shows the form again as it was typed.
    expect(serviceValuesOf(form({ ...service, name: '' }))).toMatchObject({ name: '', price: '150' });
    expect(saveService(spa.id, null, form({ ...service, price: 'free' }))).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { price: expect.stringContaining('all-in price') },
    });
    expect(saveService(spa.id, null, form(service))).toMatchObject({ ok: false, reason: 'conflict', fields: { name: SERVICE_NAME_TAKEN } });
    expect(db.select().from(services).where(eq(services.spaId, spa.id)).all()).toHaveLength(1);
  });

  it('deactivates a service (it leaves the public pages) and brings it back', () => {
    const spa = makeSpa('FREE');
    const created = saveService(spa.id, null, form(service));
    if (!created.ok) throw new Error('not created');
    expect(setServiceActive(spa.id, created.value.id, false)).toBe(true);
    expect(listSpaServices(spa.id)).toEqual([]);
    expect(setServiceActive(spa.id, created.value.id, true)).toBe(true);
    expect(listSpaServices(spa.id)).toHaveLength(1);
  });
});

describe('offers', () => {
  it('lets a Free spa list an offer, with a slug from its title and the services it covers', () => {
    const spa = makeSpa('FREE');
    const created = saveService(spa.id, null, form(service));
    if (!created.ok) throw new Error('not created');
    const result = saveOffer(spa.id, null, offer({ serviceIds: [String(created.value.id)], validTo: '2099-12-31' }));
    expect(result).toMatchObject({ ok: true });
    const saved = findOwnerOffer(spa.id, result.ok ? result.value.id : null)!;
    expect(saved).toMatchObject({ slug: `spring-glow-${TAG}`, savingsCents: 6000, cityId, serviceIds: [created.value.id], featured: false });
    expect(listOffers({ spaId: spa.id }).map((o) => o.slug)).toEqual([saved.slug]);
  });

  it('uses the spec’s messages and saves nothing when the title or description is missing', () => {
    const spa = makeSpa('FREE');
    expect(saveOffer(spa.id, null, offer({ title: '', description: '' }))).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { title: 'Offer title is required', description: 'Description is required' },
    });
    expect(db.select().from(offers).where(eq(offers.spaId, spa.id)).all()).toEqual([]);
  });

  it('refuses featuring an offer on Free, saves nothing, and lets Premium do it', () => {
    const free = makeSpa('FREE');
    const before = contentVersion();
    expect(saveOffer(free.id, null, offer({ slug: `${TAG}-free-featured`, featured: 'on' }))).toMatchObject({
      ok: false,
      reason: 'forbidden',
      fields: { featured: TIER_RULE_MESSAGES.featured },
    });
    expect(db.select().from(offers).where(eq(offers.spaId, free.id)).all()).toEqual([]);
    expect(contentVersion()).toBe(before);
    const premium = makeSpa('PREMIUM');
    expect(saveOffer(premium.id, null, offer({ slug: `${TAG}-premium-featured`, featured: 'on' }))).toMatchObject({ ok: true });
  });

  it('stops showing an offer as featured once its spa drops to Free', () => {
    const spa = makeSpa('PREMIUM');
    const result = saveOffer(spa.id, null, offer({ slug: `${TAG}-downgrade`, featured: 'on' }));
    expect(result.ok).toBe(true);
    expect(listOffers({ spaId: spa.id })[0]!.featured).toBe(true);
    db.update(spas).set({ tier: 'FREE' }).where(eq(spas.id, spa.id)).run();
    expect(listOffers({ spaId: spa.id })[0]!.featured).toBe(false);
    // The data stays: editing the offer does not trip the rule, and an upgrade brings it back.
    expect(saveOffer(spa.id, result.ok ? result.value.id : null, offer({ featured: 'on', description: 'Changed.' }))).toMatchObject({ ok: true });
  });

  it('refuses another spa’s services, a taken slug and another spa’s offer', () => {
    const spa = makeSpa('FREE');
    const other = makeSpa('FREE');
    const foreign = saveService(other.id, null, form(service));
    if (!foreign.ok) throw new Error('not created');
    expect(saveOffer(spa.id, null, offer({ slug: `${TAG}-foreign`, serviceIds: [String(foreign.value.id)] }))).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { serviceIds: OFFER_SERVICES_UNKNOWN },
    });
    const first = saveOffer(other.id, null, offer({ slug: `${TAG}-taken` }));
    expect(saveOffer(spa.id, null, offer({ slug: `${TAG}-taken` }))).toMatchObject({ ok: false, reason: 'conflict', fields: { slug: OFFER_SLUG_TAKEN } });
    expect(saveOffer(spa.id, first.ok ? first.value.id : null, offer({ title: 'Mine now' }))).toMatchObject({ ok: false, reason: 'not_found' });
    expect(endOffer(spa.id, first.ok ? first.value.id : null)).toBe(false);
  });

  it('keeps an offer’s address when it is edited', () => {
    const spa = makeSpa('FREE');
    const created = saveOffer(spa.id, null, offer({ slug: `${TAG}-stable` }));
    const id = created.ok ? created.value.id : null;
    expect(saveOffer(spa.id, id, offer({ title: 'A different title', slug: `${TAG}-other` }))).toMatchObject({ ok: true });
    expect(findOwnerOffer(spa.id, id)).toMatchObject({ title: 'A different title', slug: `${TAG}-stable` });
  });

  it('ends an offer: yesterday becomes its last day, so it is no longer current', () => {
    const spa = makeSpa('FREE');
    const created = saveOffer(spa.id, null, offer({ slug: `${TAG}-ending`, validFrom: '2026-11-20' }));
    const id = created.ok ? created.value.id : null;
    expect(endOffer(spa.id, id, '2026-11-23')).toBe(true);
    expect(findOwnerOffer(spa.id, id)).toMatchObject({ validFrom: '2026-11-20', validTo: '2026-11-22' });
    expect(listCurrentOffers('2026-11-23', { spaId: spa.id })).toEqual([]);
  });
});
