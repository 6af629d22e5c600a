// The files behind uploaded pictures, under UPLOAD_DIR: photos/ and social/
// hold the variants the image pipeline wrote, named by the hash of what was
// uploaded, so a name never changes meaning and may be cached for a year.
import { UPLOAD_DIR } from 'astro:env/server';
import { eq } from 'drizzle-orm';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { socialMediaCache, spaPhotos, spas } from '#db/schema.ts';
import { canonicalUrl, parseUploadUrl, UPLOAD_FILE_NAME, UPLOAD_KINDS, variantPaths, type UploadKind } from '#lib/photos.ts';
import { db } from '../db.ts';
import type { ProcessedImage } from './image-pipeline.ts';

export const uploadRoot = () => resolve(UPLOAD_DIR);

/** Writes a processed picture's files (each whole or not at all) and answers its URL. */
export function storePicture(kind: UploadKind, image: ProcessedImage): string {
  const dir = join(uploadRoot(), kind);
  mkdirSync(dir, { recursive: true });
  for (const file of image.files) {
    const target = join(dir, file.name);
    // Same name, same bytes: an upload of a picture we already have.
    if (existsSync(target)) continue;
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, file.bytes);
    renameSync(partial, target);
  }
  return canonicalUrl({ kind, hash: image.hash, width: image.width, height: image.height });
}

/** Whether any row still shows the picture at `url` (the same photo may be on two listings). */
export function isPictureInUse(url: string): boolean {
  const photo = db.select({ id: spaPhotos.id }).from(spaPhotos).where(eq(spaPhotos.url, url)).get();
  if (photo) return true;
  const cover = db.select({ id: spas.id }).from(spas).where(eq(spas.imageUrl, url)).get();
  if (cover) return true;
  const social = db.select({ id: socialMediaCache.id }).from(socialMediaCache).where(eq(socialMediaCache.thumbnailUrl, url)).get();
  return Boolean(social);
}

/** Deletes the files of the picture at `url` unless something still shows it. Demo images are never touched. */
export function removePictureIfUnused(url: string | null | undefined): boolean {
  const picture = parseUploadUrl(url);
  if (!picture || isPictureInUse(url!)) return false;
  for (const path of variantPaths(picture)) rmSync(join(uploadRoot(), path), { force: true });
  return true;
}

/**
 * The file a /uploads/<kind>/<name> request names, or null. Only names the
 * pipeline writes are accepted (no dots, slashes or encodings to play with),
 * so the answer is always inside UPLOAD_DIR.
 */
export function uploadedFilePath(path: string | undefined): { file: string; name: string } | null {
  const parts = (path ?? '').split('/');
  if (parts.length !== 2) return null;
  const [kind, name] = parts as [string, string];
  if (!(UPLOAD_KINDS as readonly string[]).includes(kind) || !UPLOAD_FILE_NAME.test(name)) return null;
  return { file: join(uploadRoot(), kind, name), name };
}
