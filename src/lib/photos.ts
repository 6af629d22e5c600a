// Uploaded pictures and how pages show them. An upload is stored once per
// width and format under a name that starts with the hash of the uploaded
// bytes; the one URL kept in the database (spa_photos.url, spas.image_url,
// social_media_cache.thumbnail_url) names the largest WebP and carries its
// size, so a page can build the whole <picture> from that URL alone, with no
// query: /uploads/photos/3f9c...e1-1200x800.webp
//
// Demo photos (/images/...svg) and any other URL stay plain <img> sources.

/** Widths the pages ask for: cards and gallery tiles (~400 CSS px), the hero at 2x (1200). */
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
export const PHOTO_FORMATS = ['avif', 'webp'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];
export const UPLOAD_KINDS = ['photos', 'social'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

const HASH = /^[a-f0-9]{24}$/;
const CANONICAL = /^\/uploads\/(photos|social)\/([a-f0-9]{24})-(\d{1,5})x(\d{1,5})\.webp$/;
/** Every file name the pipeline writes: <hash>-<w>.<fmt> or <hash>-<w>x<h>.<fmt>. */
export const UPLOAD_FILE_NAME = /^[a-f0-9]{24}-\d{1,5}(?:x\d{1,5})?\.(?:avif|webp)$/;

export interface StoredPicture {
  kind: UploadKind;
  hash: string;
  /** Size of the largest stored variant. */
  width: number;
  height: number;
}

/** The widths stored for a picture whose largest variant is `width` wide. */
export function widthsFor(width: number): number[] {
  return [...PHOTO_WIDTHS.filter((w) => w < width), width];
}

export function variantName(picture: Omit<StoredPicture, 'kind'>, width: number, format: PhotoFormat): string {
  return width === picture.width ? `${picture.hash}-${picture.width}x${picture.height}.${format}` : `${picture.hash}-${width}.${format}`;
}

/** Every file of a picture, relative to UPLOAD_DIR. */
export function variantPaths(picture: StoredPicture): string[] {
  return widthsFor(picture.width).flatMap((w) => PHOTO_FORMATS.map((f) => `${picture.kind}/${variantName(picture, w, f)}`));
}

export function canonicalUrl(picture: StoredPicture): string {
  if (!HASH.test(picture.hash)) throw new Error('not a picture hash');
  return `/uploads/${picture.kind}/${variantName(picture, picture.width, 'webp')}`;
}

/** The picture an URL names, when it is one of ours; null for demo images and anything else. */
export function parseUploadUrl(url: string | null | undefined): StoredPicture | null {
  const match = CANONICAL.exec(url ?? '');
  if (!match) return null;
  const [, kind, hash, w, h] = match as unknown as [string, UploadKind, string, string, string];
  const width = Number(w);
  const height = Number(h);
  if (width < 1 || height < 1) return null;
  return { kind, hash, width, height };
}

export interface PictureSources {
  src: string;
  width: number;
  height: number;
  sources: { type: string; srcset: string }[];
}

/** <picture> sources (AVIF first, then WebP) for one of our uploads; null for any other URL. */
export function pictureSources(url: string | null | undefined): PictureSources | null {
  const picture = parseUploadUrl(url);
  if (!picture) return null;
  const base = `/uploads/${picture.kind}/`;
  const srcset = (format: PhotoFormat) =>
    widthsFor(picture.width)
      .map((w) => `${base}${variantName(picture, w, format)} ${w}w`)
      .join(', ');
  return {
    src: canonicalUrl(picture),
    width: picture.width,
    height: picture.height,
    sources: PHOTO_FORMATS.map((format) => ({ type: `image/${format}`, srcset: srcset(format) })),
  };
}

/** The content type of a stored upload, by its (checked) file name. */
export function uploadContentType(name: string): string | null {
  if (!UPLOAD_FILE_NAME.test(name)) return null;
  return name.endsWith('.avif') ? 'image/avif' : 'image/webp';
}
