import { eq } from 'drizzle-orm';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cities, spaPhotos, spas, type Tier } from '#db/schema.ts';
import { hostileUploads, photo } from '#tests/support/test-images.ts';
import { logger } from '#lib/log.ts';
import { variantPaths, parseUploadUrl } from '#lib/photos.ts';
import { db } from '../db.ts';
import { addPhoto, deletePhoto, listPhotos, movePhoto, photoLimitMessage, setPhotoAlt } from './photos.ts';
import { uploadRoot } from './uploads.ts';

// Listings of our own, inactive, so the directory's other tests never see them.
const made: number[] = [];
function makeSpa(tier: Tier) {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  const slug = `photo-test-${tier.toLowerCase()}-${made.length}-${Date.now()}`;
  const row = db
    .insert(spas)
    .values({ name: `Photo Test ${tier}`, slug, tier, cityId: city.id, active: false })
    .returning({ id: spas.id, name: spas.name })
    .get();
  made.push(row.id);
  return row;
}
afterAll(() => {
  for (const id of made) db.delete(spas).where(eq(spas.id, id)).run();
});

const coverOf = (id: number) => db.select({ imageUrl: spas.imageUrl }).from(spas).where(eq(spas.id, id)).get()!.imageUrl;
const filesOf = (url: string) => variantPaths(parseUploadUrl(url)!).map((path) => join(uploadRoot(), path));

describe("a listing's photos", () => {
  it('adds, orders, sets the cover, describes and deletes, files included', async () => {
    const spa = makeSpa('PREMIUM');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await addPhoto(spa, await photo(1000, 700, 'jpeg', 20 + i), i === 0 ? 'Front desk' : '');
      expect(result.ok).toBe(true);
      if (result.ok) ids.push(result.value.photoId);
    }
    let photos = listPhotos(spa.id);
    expect(photos.map((p) => p.id)).toEqual(ids);
    expect(photos.map((p) => p.alt)).toEqual(['Front desk', `Photo of ${spa.name}`, `Photo of ${spa.name}`]);
    // The first photo is the cover.
    expect(coverOf(spa.id)).toBe(photos[0]!.url);
    for (const file of filesOf(photos[0]!.url)) expect(existsSync(file)).toBe(true);

    expect(movePhoto(spa.id, ids[2]!, 'up').ok).toBe(true);
    expect(listPhotos(spa.id).map((p) => p.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(movePhoto(spa.id, ids[1]!, 'first').ok).toBe(true);
    photos = listPhotos(spa.id);
    expect(photos.map((p) => p.id)).toEqual([ids[1], ids[0], ids[2]]);
    expect(photos.map((p) => p.position)).toEqual([0, 1, 2]);
    expect(coverOf(spa.id)).toBe(photos[0]!.url);

    // To a position (the position form, and a drag): the last to the cover, and back to the end.
    expect(movePhoto(spa.id, ids[2]!, { position: 1 }).ok).toBe(true);
    expect(listPhotos(spa.id).map((p) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(coverOf(spa.id)).toBe(listPhotos(spa.id)[0]!.url);
    expect(movePhoto(spa.id, ids[2]!, { position: 3 }).ok).toBe(true);
    expect(listPhotos(spa.id).map((p) => p.id)).toEqual([ids[1], ids[0], ids[2]]);
    for (const position of [0, 4, 1.5, Number.NaN]) {
      expect(movePhoto(spa.id, ids[2]!, { position })).toMatchObject({ ok: false, reason: 'invalid', message: 'Choose a position from 1 to 3.' });
    }
    expect(listPhotos(spa.id).map((p) => p.id)).toEqual([ids[1], ids[0], ids[2]]);

    expect(setPhotoAlt(spa.id, ids[2]!, '  Laser   suite  ').ok).toBe(true);
    expect(listPhotos(spa.id).find((p) => p.id === ids[2])!.alt).toBe('Laser suite');
    expect(setPhotoAlt(spa.id, ids[2]!, '   ')).toMatchObject({ ok: false, reason: 'invalid' });

    const gone = photos[0]!.url;
    expect(deletePhoto(spa.id, ids[1]!).ok).toBe(true);
    for (const file of filesOf(gone)) expect(existsSync(file)).toBe(false);
    expect(coverOf(spa.id)).toBe(listPhotos(spa.id)[0]!.url);
  }, 60_000);

  it("does not let one listing touch another's photo", async () => {
    const mine = makeSpa('FREE');
    const theirs = makeSpa('FREE');
    const result = await addPhoto(theirs, await photo(600, 400, 'png', 30));
    expect(result.ok).toBe(true);
    const id = result.ok ? result.value.photoId : 0;
    expect(deletePhoto(mine.id, id)).toMatchObject({ ok: false, reason: 'not_found' });
    expect(movePhoto(mine.id, id, 'first')).toMatchObject({ ok: false, reason: 'not_found' });
    expect(setPhotoAlt(mine.id, id, 'mine now')).toMatchObject({ ok: false, reason: 'not_found' });
    expect(listPhotos(theirs.id)).toHaveLength(1);
  }, 30_000);

  it("keeps a picture's files while another listing still shows it", async () => {
    const a = makeSpa('FREE');
    const b = makeSpa('FREE');
    const bytes = await photo(600, 400, 'jpeg', 31);
    const first = await addPhoto(a, bytes);
    const second = await addPhoto(b, bytes);
    expect(first.ok && second.ok).toBe(true);
    const url = listPhotos(a.id)[0]!.url;
    expect(listPhotos(b.id)[0]!.url).toBe(url);
    deletePhoto(a.id, first.ok ? first.value.photoId : 0);
    for (const file of filesOf(url)) expect(existsSync(file)).toBe(true);
    deletePhoto(b.id, second.ok ? second.value.photoId : 0);
    for (const file of filesOf(url)) expect(existsSync(file)).toBe(false);
  }, 30_000);

  it('refuses a photo over the tier limit (FREE 3) with a clear message, storing nothing', async () => {
    const spa = makeSpa('FREE');
    for (let i = 0; i < 3; i++) expect((await addPhoto(spa, await photo(500, 400, 'jpeg', 40 + i))).ok).toBe(true);
    const filesBefore = readdirSync(join(uploadRoot(), 'photos')).length;
    const refused = await addPhoto(spa, await photo(500, 400, 'jpeg', 50));
    expect(refused).toEqual({ ok: false, reason: 'invalid', message: photoLimitMessage('FREE'), fields: {} });
    expect(photoLimitMessage('FREE')).toBe('Your Free listing can have 3 photos. Delete a photo, or upgrade your plan to show more.');
    expect(listPhotos(spa.id)).toHaveLength(3);
    expect(readdirSync(join(uploadRoot(), 'photos')).length).toBe(filesBefore);
  }, 60_000);

  it("keeps a downgraded listing's photos, refusing more until it is under its new limit", async () => {
    const spa = makeSpa('PREMIUM');
    for (let i = 0; i < 4; i++) expect((await addPhoto(spa, await photo(500, 400, 'jpeg', 60 + i))).ok).toBe(true);
    db.update(spas).set({ tier: 'FREE' }).where(eq(spas.id, spa.id)).run();
    expect(listPhotos(spa.id)).toHaveLength(4);
    expect(await addPhoto(spa, await photo(500, 400, 'jpeg', 70))).toMatchObject({ ok: false, reason: 'invalid' });
  }, 60_000);

  it('stores nothing for 100 hostile uploads: each refused with 400/413/415/422, no row, no file', async () => {
    const spa = makeSpa('ELITE');
    const uploads = await hostileUploads();
    expect(uploads).toHaveLength(100);
    const dir = join(uploadRoot(), 'photos');
    const filesBefore = existsSync(dir) ? readdirSync(dir).sort() : [];
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    const baseline = process.memoryUsage().rss;
    const statuses: Record<string, number> = {};
    try {
      for (const upload of uploads) {
        const result = await addPhoto(spa, upload.bytes);
        expect(result.ok, upload.label).toBe(false);
        if (!result.ok) {
          expect(['malformed', 'too_large', 'unsupported', 'invalid'], upload.label).toContain(result.reason);
          expect(result.message.length, upload.label).toBeGreaterThan(10);
          statuses[result.reason] = (statuses[result.reason] ?? 0) + 1;
        }
      }
    } finally {
      clearInterval(sampler);
    }
    expect(db.select().from(spaPhotos).where(eq(spaPhotos.spaId, spa.id)).all()).toEqual([]);
    expect(existsSync(dir) ? readdirSync(dir).sort() : []).toEqual(filesBefore);
    logger('photos-test').info(
      `hostile uploads: ${JSON.stringify(statuses)}; RSS ${Math.round(baseline / 1e6)} MB before, peak ${Math.round(peakRss / 1e6)} MB (+${Math.round((peakRss - baseline) / 1e6)} MB)`,
    );
    // A bomb must not be decoded: the whole run stays within a couple of hundred megabytes.
    expect(peakRss - baseline).toBeLessThan(300e6);
  }, 120_000);
});
