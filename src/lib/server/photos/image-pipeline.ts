// Turns an uploaded file into the pictures the pages show, or refuses it with
// a reason and a message a person can act on. Nothing here trusts the file's
// name or declared type: the bytes are sniffed, then libvips (sharp) reads the
// header under limits before any pixel is decoded, then the picture is decoded
// once, turned upright, converted to 8-bit sRGB, and re-encoded as AVIF and
// WebP in the widths the pages use. Re-encoding is what strips EXIF/GPS and
// anything hidden in or after the image data: no byte of the upload is served.
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type { Metadata, OutputInfo, Sharp } from 'sharp';
import { PHOTO_WIDTHS, variantName, widthsFor, type PhotoFormat } from '#lib/photos.ts';
import { invalid, tooLarge, unsupported } from '#lib/result.ts';

/** Largest upload accepted (the server's body cap for the upload route is a little above it). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** What a photo over MAX_UPLOAD_BYTES is told: by the server, and by the page before the photo is sent. */
export const PHOTO_TOO_LARGE = 'This photo is larger than 10 MB. Make it smaller and try again.';
/** 40 megapixels: every phone's default photo, and a hard stop for decompression bombs. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Smaller than this cannot look like anything on a spa page. */
export const MIN_SIDE = 200;
/** EXIF, XMP, IPTC and ICC together; a camera writes a few tens of kilobytes. */
export const MAX_METADATA_BYTES = 1024 * 1024;

type SharpLibrary = (typeof import('sharp'))['default'];
let library: Promise<SharpLibrary> | null = null;
/**
 * libvips (sharp), loaded with the first photo rather than with the module:
 * every page that shows an upload form imports this file for its limits, and
 * libvips is 24 MB of the server's memory (docs/decisions/0011).
 * One libvips thread per operation and no operation cache: on two shared
 * cores, uploads are queued (see `queue` below) rather than run in parallel,
 * and the cache would only keep decoded pixels of pictures we never see again.
 */
function loadSharp(): Promise<SharpLibrary> {
  library ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return library;
}

/** A file refused as a photo: too large, a kind we do not take (unsupported), or not a usable photo (invalid). */
export class ImageRejected extends Error {
  readonly reason: 'invalid' | 'too_large' | 'unsupported';
  constructor(reason: ImageRejected['reason'], message: string) {
    super(message);
    this.name = 'ImageRejected';
    this.reason = reason;
  }

  /** The refusal, in the result vocabulary. */
  refusal() {
    return this.reason === 'invalid' ? invalid({}, this.message) : this.reason === 'too_large' ? tooLarge(this.message) : unsupported(this.message);
  }
}

export const ACCEPTED_TYPES_TEXT = 'JPEG, PNG, WebP or AVIF';

type Sniffed = 'jpeg' | 'png' | 'webp' | 'heif';

/** What the first bytes say the file is; null for anything we do not take. */
export function sniffImageType(bytes: Uint8Array): Sniffed | null {
  const at = (offset: number, text: string) => [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes[0] === 0x89 && at(1, 'PNG\r\n\x1a\n')) return 'png';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'webp';
  // ISO base media: a box size, then "ftyp" and a brand of the HEIF family.
  if (at(4, 'ftyp')) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'heif';
  }
  return null;
}

// Markup and script in a file that claims to be a picture: a polyglot made to
// be read as a page or a script somewhere. Markup is text, so only runs of 16
// or more printable characters are read. Compressed picture data is close to
// random: read whole, `<svg` (four bytes) turned up in about one noise JPEG of
// 250 KB in a thousand, so about one 5 MB photo in a hundred was refused.
// Inside a printable run of 16 it is over ten thousand times rarer (a random
// byte is printable three times in eight): about one 5 MB photo in a million.
const ACTIVE_CONTENT = [/<script/i, /<html/i, /<svg/i, /<\?php/i, /<!doctype/i, /javascript:/i, /<iframe/i, /<object/i];
const TEXT_RUN = /[\t\n\r\x20-\x7e]{16,}/g;

function carriesActiveContent(bytes: Uint8Array): boolean {
  // latin1 keeps one character per byte, so the patterns see the raw bytes.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  for (const [run] of text.matchAll(TEXT_RUN)) if (ACTIVE_CONTENT.some((pattern) => pattern.test(run))) return true;
  return false;
}

/**
 * What the file's own structure says before libvips reads it: how many bytes
 * of metadata it carries (a PNG's compressed text and ICC chunks counted as
 * they inflate, inflating no further than the cap) and whether it is an
 * animation. libvips skips what it does not need, so a 50 MB comment bomb or
 * an APNG's extra frames would otherwise pass unseen.
 */
export function inspectStructure(bytes: Uint8Array, sniffed: Sniffed): { metadataBytes: number; animated: boolean } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let metadataBytes = 0;
  let animated = false;
  if (sniffed === 'png') {
    for (let at = 8; at + 8 <= view.length;) {
      const length = view.readUInt32BE(at);
      const type = view.toString('latin1', at + 4, at + 8);
      const data = view.subarray(at + 8, Math.min(view.length, at + 8 + length));
      if (type === 'IDAT' || type === 'IEND') break;
      if (type === 'acTL') animated = true;
      if (type === 'zTXt' || type === 'iCCP' || (type === 'iTXt' && data[data.indexOf(0) + 1] === 1)) {
        const start = type === 'iTXt' ? data.indexOf(0) + 3 : data.indexOf(0) + 2;
        const compressed = type === 'iTXt' ? data.subarray(data.indexOf(0, data.indexOf(0, start) + 1) + 1) : data.subarray(start);
        try {
          metadataBytes += inflateSync(compressed, { maxOutputLength: MAX_METADATA_BYTES + 1 }).length;
        } catch (error) {
          // Larger than the cap (RangeError) counts as too much; a broken stream is libvips' to judge.
          if (error instanceof RangeError) metadataBytes += MAX_METADATA_BYTES + 1;
        }
      } else if (type !== 'IHDR' && type !== 'PLTE') {
        metadataBytes += length;
      }
      at += 12 + length;
    }
  } else if (sniffed === 'jpeg') {
    // Segments up to the start of scan: APPn (EXIF, XMP, ICC, maker notes) and comments.
    for (let at = 2; at + 4 <= view.length && view[at] === 0xff;) {
      const marker = view[at + 1]!;
      if (marker === 0xda || marker === 0xd9) break;
      const length = view.readUInt16BE(at + 2);
      if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) metadataBytes += length;
      at += 2 + length;
    }
  } else if (sniffed === 'webp') {
    for (let at = 12; at + 8 <= view.length;) {
      const type = view.toString('latin1', at, at + 4);
      const length = view.readUInt32LE(at + 4);
      if (type === 'ANIM' || type === 'ANMF') animated = true;
      if (type === 'EXIF' || type === 'XMP ' || type === 'ICCP') metadataBytes += length;
      at += 8 + length + (length % 2);
    }
  }
  return { metadataBytes, animated };
}

export interface ProcessedImage {
  /** The first 24 hex digits of the SHA-256 of the uploaded bytes. */
  hash: string;
  width: number;
  height: number;
  files: { name: string; bytes: Buffer }[];
}

const sharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  // Truncated or corrupt data is an error, not a grey band at the bottom.
  failOn: 'error',
  sequentialRead: true,
  // The first frame only is ever decoded (animations are refused below anyway).
  animated: false,
  pages: 1,
} as const;

const ENCODE_SECONDS = 20;
const HEIC_MESSAGE = 'HEIC photos cannot be read here. On an iPhone choose Settings › Camera › Formats › Most Compatible, or export the photo as JPEG.';
const ANIMATED_MESSAGE = 'Animated pictures and multi-page files are not accepted. Upload a single still photo.';
const METADATA_MESSAGE = 'This photo carries more than 1 MB of camera data (EXIF and the like). Save or export it again and upload that copy.';

async function readHeader(sharp: SharpLibrary, bytes: Uint8Array, sniffed: Sniffed): Promise<Metadata> {
  const structure = inspectStructure(bytes, sniffed);
  if (structure.animated) throw new ImageRejected('invalid', ANIMATED_MESSAGE);
  if (structure.metadataBytes > MAX_METADATA_BYTES) throw new ImageRejected('invalid', METADATA_MESSAGE);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, sharpOptions).metadata();
  } catch {
    // An HEVC-coded HEIF (an iPhone's HEIC) says so in its brand, readable or not.
    const brand = Buffer.from(bytes.subarray(8, 12)).toString('latin1');
    if (sniffed === 'heif' && ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(brand)) throw new ImageRejected('unsupported', HEIC_MESSAGE);
    throw new ImageRejected('invalid', 'This file could not be read as a photo. It may be damaged or incomplete.');
  }
  if (meta.format !== sniffed && !(sniffed === 'heif' && meta.format === 'heif')) {
    throw new ImageRejected('unsupported', `This file is not a photo we can use. Upload a ${ACCEPTED_TYPES_TEXT} picture.`);
  }
  if (meta.format === 'heif' && meta.compression !== 'av1') {
    throw new ImageRejected('unsupported', HEIC_MESSAGE);
  }
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!width || !height) throw new ImageRejected('invalid', 'This file could not be read as a photo. It may be damaged or incomplete.');
  if (width * height > MAX_INPUT_PIXELS) {
    throw new ImageRejected('invalid', `This photo is ${width} × ${height} pixels; the largest we take is 40 megapixels. Make it smaller and try again.`);
  }
  if (width < MIN_SIDE || height < MIN_SIDE) {
    throw new ImageRejected('invalid', `This photo is ${width} × ${height} pixels; it needs at least ${MIN_SIDE} pixels on each side.`);
  }
  if ((meta.pages ?? 1) > 1) throw new ImageRejected('invalid', ANIMATED_MESSAGE);
  const metadataBytes = (meta.exif?.length ?? 0) + (meta.xmp?.length ?? 0) + (meta.iptc?.length ?? 0) + (meta.icc?.length ?? 0);
  if (metadataBytes > MAX_METADATA_BYTES) {
    throw new ImageRejected('invalid', METADATA_MESSAGE);
  }
  return meta;
}

/** One image at a time: libvips gets the whole (single) thread, memory stays one picture's worth. */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

const encode = (input: Sharp, format: PhotoFormat) =>
  (format === 'avif' ? input.avif({ quality: 55, effort: 1 }) : input.webp({ quality: 80, effort: 4 })).timeout({ seconds: ENCODE_SECONDS }).toBuffer();

/**
 * The pictures to store for an upload, at most `maxWidth` wide. Throws
 * ImageRejected (400/413/415/422) for anything that is not a usable photo;
 * never writes anything.
 */
export async function processImage(bytes: Uint8Array, { maxWidth = PHOTO_WIDTHS.at(-1)! }: { maxWidth?: number } = {}): Promise<ProcessedImage> {
  if (bytes.byteLength === 0) throw new ImageRejected('invalid', 'The file is empty. Choose a photo to upload.');
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new ImageRejected('too_large', PHOTO_TOO_LARGE);
  const sniffed = sniffImageType(bytes);
  const sharp = await loadSharp();
  // HEIF/AVIF only when this libvips can decode it at all (sharp.format says; the prebuilt one can).
  if (sniffed === 'heif' && !sharp.format.heif?.input.buffer) throw new ImageRejected('unsupported', HEIC_MESSAGE);
  if (!sniffed) throw new ImageRejected('unsupported', `This file is not a photo we can use. Upload a ${ACCEPTED_TYPES_TEXT} picture.`);
  if (carriesActiveContent(bytes)) {
    throw new ImageRejected('invalid', 'This file carries code or markup besides the picture. Save the photo again from a photo app and upload that copy.');
  }
  return oneAtATime(async () => {
    await readHeader(sharp, bytes, sniffed);
    // Decode once, upright, 8-bit sRGB (CMYK, 16-bit and grey become ordinary
    // colour), no larger than the largest width; every variant comes from this.
    let decoded: { data: Buffer; info: OutputInfo };
    try {
      decoded = await sharp(bytes, sharpOptions)
        .autoOrient()
        .resize({ width: maxWidth, height: maxWidth * 4, fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .timeout({ seconds: ENCODE_SECONDS })
        .toBuffer({ resolveWithObject: true });
    } catch {
      throw new ImageRejected('invalid', 'This file could not be read as a photo. It may be damaged or incomplete.');
    }
    const { width, height, channels } = decoded.info;
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 24);
    const raw = { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } };
    const files: ProcessedImage['files'] = [];
    for (const w of widthsFor(width)) {
      for (const format of ['avif', 'webp'] as const) {
        const resized = sharp(decoded.data, raw).resize({ width: w, withoutEnlargement: true });
        files.push({ name: variantName({ hash, width, height }, w, format), bytes: await encode(resized, format) });
      }
    }
    return { hash, width, height, files };
  });
}
