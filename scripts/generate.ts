// `npm run db:generate -- --spas 5000 [--db data/generated.db]`: a large,
// believable directory in a separate database, for build and search benchmarks.
// Deterministic for a given --spas and --seed.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeDatabase } from '#db/client.ts';
import { demoCities } from '#db/demo-data/index.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { cities, offers, services, spaPhotos, spas } from '#db/schema.ts';
import { addDays, pacificDate } from '#lib/dates.ts';
import { logger } from '#lib/log.ts';
import { slugify } from '#lib/slug.ts';

const log = logger('generate');
const { values } = parseArgs({
  options: {
    spas: { type: 'string', default: '5000' },
    db: { type: 'string', default: 'data/generated.db' },
    seed: { type: 'string', default: '42' },
  },
});
const total = Number(values.spas);
if (!Number.isInteger(total) || total < 1) throw new Error('--spas must be a positive whole number');
const path = resolve(values.db);

// mulberry32: small, fast, deterministic.
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const first = [
  'Saltwater',
  'Crystal',
  'Harbor',
  'Golden',
  'Serene',
  'Coastal',
  'Luna',
  'Sage',
  'Pacific',
  'Velvet',
  'Radiant',
  'Cove',
  'Marigold',
  'Driftwood',
  'Solstice',
  'Willow',
  'Azure',
  'Ivory',
];
const second = ['Skin', 'Aesthetics', 'Glow', 'Wellness', 'Derm', 'Beauty', 'Renewal', 'Laser'];
const third = ['Studio', 'Atelier', 'Clinic', 'House', 'Collective', 'Lounge', 'Institute', 'Bar'];
const streets = ['Pacific Coast Hwy', 'Jamboree Rd', 'Main St', 'Bristol St', 'Harbor Blvd', 'Newport Blvd', 'Beach Blvd', 'Crown Valley Pkwy', 'Katella Ave'];
const catalog = [
  { name: 'Botox Cosmetic', category: 'injectable', treatment: 'botox', priceCents: 1400, priceUnit: 'per unit', duration: 30 },
  { name: 'Dermal Filler', category: 'injectable', treatment: 'fillers', priceCents: 72500, priceUnit: 'per syringe', duration: 45 },
  { name: 'HydraFacial MD', category: 'facial', treatment: 'hydrafacial', priceCents: 22500, duration: 60 },
  { name: 'Laser Hair Removal', category: 'laser', treatment: 'laser', priceCents: 19900, duration: 30 },
  { name: 'CoolSculpting', category: 'body', treatment: 'coolsculpting', priceCents: 75000, priceUnit: 'per area', duration: 60 },
  { name: 'RF Microneedling', category: 'facial', treatment: 'microneedling', priceCents: 65000, duration: 75 },
  { name: 'VI Peel', category: 'facial', treatment: 'chemical-peels', priceCents: 35000, duration: 45 },
  { name: 'Myers’ Cocktail IV', category: 'wellness', treatment: 'iv-therapy', priceCents: 19500, duration: 45 },
  { name: 'Complimentary Consultation', category: 'consultation', treatment: null, priceCents: 0, duration: 30 },
] as const;

rmSync(path, { force: true });
rmSync(`${path}-wal`, { force: true });
rmSync(`${path}-shm`, { force: true });
const db = migrateDatabase(path);
const started = performance.now();
const today = pacificDate();

const cityIds = demoCities.map((city) => db.insert(cities).values(city).returning({ id: cities.id }).get().id);
const elitePerCity = new Map<number, number>();
const BATCH = 500;
for (let done = 0; done < total; done += BATCH) {
  db.transaction((tx) => {
    for (let i = done; i < Math.min(done + BATCH, total); i++) {
      const cityIndex = i % cityIds.length;
      const cityId = cityIds[cityIndex]!;
      const roll = random();
      const eliteTaken = elitePerCity.get(cityId) ?? 0;
      const tier = roll < 0.01 && eliteTaken < 3 ? 'ELITE' : roll < 0.2 ? 'PREMIUM' : 'FREE';
      if (tier === 'ELITE') elitePerCity.set(cityId, eliteTaken + 1);
      const name = `${pick(first)} ${pick(second)} ${pick(third)}`;
      const slug = `${slugify(name)}-${i + 1}`;
      const city = demoCities[cityIndex]!;
      const paid = tier !== 'FREE';
      const image = `/images/spas/spa-${String((i % 24) + 1).padStart(2, '0')}.svg`;
      const spaId = tx
        .insert(spas)
        .values({
          name,
          slug,
          cityId,
          tier,
          featured: paid && random() < 0.3,
          verified: tier === 'ELITE',
          description: `${name} is a medical spa in ${city.name} offering injectables, facials and laser treatments under a board-certified medical director.`,
          address: `${100 + Math.floor(random() * 9800)} ${pick(streets)}, ${city.name}, CA ${city.zipCode}`,
          phone: `(949) 555-${String(1000 + (i % 9000)).padStart(4, '0')}`,
          email: `hello@${slug}.com`,
          website: `https://www.${slug}.com`,
          bookingLink: paid ? `https://www.${slug}.com/book` : null,
          socialFeedUrl: paid ? `https://www.instagram.com/${slug.replace(/-/g, '')}/` : null,
          socialPlatform: paid ? 'instagram' : null,
          imageUrl: image,
          createdAt: new Date(Date.now() - Math.floor(random() * 900) * 86_400_000),
        })
        .returning({ id: spas.id })
        .get().id;
      tx.insert(spaPhotos).values({ spaId, url: image, alt: name, position: 0 }).run();
      const offered = [...catalog].sort(() => random() - 0.5).slice(0, 3 + Math.floor(random() * 3));
      for (const item of offered) {
        tx.insert(services)
          .values({ ...item, spaId, description: `${item.name} at ${name}.`, priceUnit: 'priceUnit' in item ? item.priceUnit : null })
          .run();
      }
      if (random() < 0.15) {
        const original = 20000 + Math.floor(random() * 40) * 1000;
        const price = Math.round(original * 0.8);
        tx.insert(offers)
          .values({
            title: `New Client Special at ${name}`,
            slug: `offer-${slug}`,
            description: 'An introductory price for first visits. Price includes all fees.',
            originalPriceCents: original,
            offerPriceCents: price,
            savingsCents: original - price,
            validFrom: today,
            validTo: random() < 0.3 ? null : addDays(today, Math.floor(random() * 120) - 20),
            cityId,
            spaId,
            featured: random() < 0.1,
            imageUrl: `/images/offers/offer-${String((i % 12) + 1).padStart(2, '0')}.svg`,
          })
          .run();
      }
    }
  });
  log.info(`${Math.min(done + BATCH, total)} / ${total} spas`);
}
closeDatabase(path);
log.info(`wrote ${total} spas to ${path} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
