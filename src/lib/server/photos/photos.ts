// A listing's photos: upload, order, cover, alt text, delete. The first photo
// is the cover (spas.image_url follows it after every change), so "Set as
// cover" is "move to the front", and a downgraded listing, which shows only
// its first N photos, always shows its cover.
import { asc, count, eq } from 'drizzle-orm';
import { spaPhotos, spas } from '#db/schema.ts';
import { featuresOf } from '#lib/tiers.ts';
import { invalid, notFound, ok, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { findOfSpa } from '../db-helpers.ts';
import { ImageRejected, processImage } from './image-pipeline.ts';
import { removePictureIfUnused, storePicture } from './uploads.ts';

export const MAX_ALT_LENGTH = 200;

export type PhotoRow = typeof spaPhotos.$inferSelect;

export function listPhotos(spaId: number): PhotoRow[] {
  return db.select().from(spaPhotos).where(eq(spaPhotos.spaId, spaId)).orderBy(asc(spaPhotos.position), asc(spaPhotos.id)).all();
}

const TIER_NAMES: Record<string, string> = { FREE: 'Free', PREMIUM: 'Premium', ELITE: 'Elite' };

/** The refusal when a listing already has as many photos as its tier allows. */
export function photoLimitMessage(tier: string): string {
  const limit = featuresOf(tier).photos;
  const upgrade = tier === 'ELITE' ? 'Delete a photo to add another.' : 'Delete a photo, or upgrade your plan to show more.';
  return `Your ${TIER_NAMES[tier] ?? 'Free'} listing can have ${limit} photos. ${upgrade}`;
}

/** The photo's id; refused as not_found (not the spa's), invalid (full, a bad position or description, not a usable photo), too_large or unsupported. */
export type PhotoResult = Result<{ photoId: number }, 'not_found' | 'invalid' | 'too_large' | 'unsupported'>;

const PHOTO_GONE = 'That photo is no longer there.';

/** Positions 0..n-1 in the given order, and the cover set to the first. */
function renumber(spaId: number, ordered: { id: number; url: string }[]) {
  ordered.forEach((photo, position) => db.update(spaPhotos).set({ position }).where(eq(spaPhotos.id, photo.id)).run());
  const cover = ordered[0]?.url ?? null;
  const current = db.select({ imageUrl: spas.imageUrl }).from(spas).where(eq(spas.id, spaId)).get();
  if (current && current.imageUrl !== cover) db.update(spas).set({ imageUrl: cover, updatedAt: new Date() }).where(eq(spas.id, spaId)).run();
}

export function cleanAlt(alt: string | null | undefined, fallback: string): string {
  const text = (alt ?? '').replace(/\s+/g, ' ').trim();
  return (text || fallback).slice(0, MAX_ALT_LENGTH);
}

/**
 * Adds an uploaded photo at the end of the listing's gallery, unless the tier
 * is full or the file is not a usable photo; then nothing is stored.
 */
export async function addPhoto(spa: { id: number; name: string }, bytes: Uint8Array, alt?: string | null): Promise<PhotoResult> {
  const tierNow = () => db.select({ tier: spas.tier }).from(spas).where(eq(spas.id, spa.id)).get()?.tier;
  const isFull = (tier: string) => (db.select({ n: count() }).from(spaPhotos).where(eq(spaPhotos.spaId, spa.id)).get()?.n ?? 0) >= featuresOf(tier).photos;
  const before = tierNow();
  if (!before) return notFound('Listing not found.');
  // Refused before the (slow) decoding when already full.
  if (isFull(before)) return invalid({}, photoLimitMessage(before));
  let image;
  try {
    image = await processImage(bytes);
  } catch (error) {
    if (error instanceof ImageRejected) return error.refusal();
    throw error;
  }
  const url = storePicture('photos', image);
  // Checked again in the same transaction as the insert: two uploads at once
  // (two tabs) must not both take the last place.
  const result = db.transaction((): PhotoResult => {
    const tier = tierNow();
    if (!tier) return notFound('Listing not found.');
    if (isFull(tier)) return invalid({}, photoLimitMessage(tier));
    const existing = listPhotos(spa.id);
    const row = db
      .insert(spaPhotos)
      .values({ spaId: spa.id, url, alt: cleanAlt(alt, `Photo of ${spa.name}`), position: existing.length })
      .returning({ id: spaPhotos.id })
      .get();
    renumber(spa.id, [...existing, { id: row.id, url }]);
    return ok({ photoId: row.id });
  });
  if (!result.ok) removePictureIfUnused(url);
  return result;
}

function photoOf(spaId: number, photoId: number | null) {
  return findOfSpa(db, spaPhotos, spaId, photoId);
}

/** Moves a photo one place earlier or later (to the front for "cover"). */
/** Moves a photo one place, to the front, or to a position (1 is the cover). */
export function movePhoto(spaId: number, photoId: number | null, direction: 'up' | 'down' | 'first' | { position: number }): PhotoResult {
  return db.transaction((): PhotoResult => {
    const photo = photoOf(spaId, photoId);
    if (!photo) return notFound(PHOTO_GONE);
    const ordered = listPhotos(spaId);
    const from = ordered.findIndex((p) => p.id === photo.id);
    if (typeof direction === 'object' && !(Number.isInteger(direction.position) && direction.position >= 1 && direction.position <= ordered.length)) {
      return invalid({}, `Choose a position from 1 to ${ordered.length}.`);
    }
    const to =
      typeof direction === 'object'
        ? direction.position - 1
        : direction === 'first'
          ? 0
          : direction === 'up'
            ? Math.max(0, from - 1)
            : Math.min(ordered.length - 1, from + 1);
    const [moved] = ordered.splice(from, 1);
    ordered.splice(to, 0, moved!);
    renumber(spaId, ordered);
    return ok({ photoId: photo.id });
  });
}

export function setPhotoAlt(spaId: number, photoId: number | null, alt: string): PhotoResult {
  const text = alt.replace(/\s+/g, ' ').trim();
  if (!text) return invalid({}, 'Describe the photo for people who cannot see it.');
  if (text.length > MAX_ALT_LENGTH) return invalid({}, `Keep the description under ${MAX_ALT_LENGTH} characters.`);
  const photo = photoOf(spaId, photoId);
  if (!photo) return notFound(PHOTO_GONE);
  db.update(spaPhotos).set({ alt: text }).where(eq(spaPhotos.id, photo.id)).run();
  return ok({ photoId: photo.id });
}

/** Deletes a photo, and its files when no other listing shows the same picture. */
export function deletePhoto(spaId: number, photoId: number | null): PhotoResult {
  const deleted = db.transaction(() => {
    const photo = photoOf(spaId, photoId);
    if (!photo) return null;
    db.delete(spaPhotos).where(eq(spaPhotos.id, photo.id)).run();
    renumber(spaId, listPhotos(spaId));
    return photo;
  });
  if (!deleted) return notFound(PHOTO_GONE);
  removePictureIfUnused(deleted.url);
  return ok({ photoId: deleted.id });
}
