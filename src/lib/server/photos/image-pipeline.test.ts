import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { oddButHonestUploads, photo, photoWithGps } from '#tests/support/test-images.ts';
import { ImageRejected, processImage, sniffImageType } from './image-pipeline.ts';

describe('processImage', () => {
  it('stores AVIF and WebP in the widths the pages use, named by the content hash', async () => {
    const image = await processImage(await photo(1600, 1067));
    expect(image.hash).toMatch(/^[a-f0-9]{24}$/);
    expect([image.width, image.height]).toEqual([1200, 800]);
    expect(image.files.map((f) => f.name)).toEqual([
      `${image.hash}-400.avif`,
      `${image.hash}-400.webp`,
      `${image.hash}-800.avif`,
      `${image.hash}-800.webp`,
      `${image.hash}-1200x800.avif`,
      `${image.hash}-1200x800.webp`,
    ]);
    for (const file of image.files) {
      const meta = await sharp(file.bytes).metadata();
      expect(meta.format).toBe(file.name.endsWith('.avif') ? 'heif' : 'webp');
      expect(meta.width).toBe(Number(/-(\d+)/.exec(file.name)![1]));
    }
  });

  it('removes EXIF and GPS: nothing of the camera data survives', async () => {
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif?.toString('latin1')).toContain('secret-owner-name');
    const image = await processImage(original);
    for (const file of image.files) {
      const meta = await sharp(file.bytes).metadata();
      expect(meta.exif, file.name).toBeUndefined();
      expect(file.bytes.toString('latin1')).not.toContain('secret-owner-name');
      expect(file.bytes.toString('latin1')).not.toContain('GPS');
    }
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    const sideways = await sharp(await photo(900, 600))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const image = await processImage(sideways);
    expect([image.width, image.height]).toEqual([600, 900]);
  });

  it('accepts what owners really upload (CMYK, 16-bit, grey, alpha, WebP, AVIF, a PNG named .jpg) as 8-bit sRGB', async () => {
    for (const upload of await oddButHonestUploads()) {
      const image = await processImage(upload.bytes);
      const meta = await sharp(image.files.at(-1)!.bytes).metadata();
      expect(meta.space, upload.label).toBe('srgb');
      expect(meta.depth, upload.label).toBe('uchar');
    }
  }, 120_000);

  it('refuses by content, with the reason a person can act on', async () => {
    const cases: [Buffer, ImageRejected['reason'], RegExp][] = [
      [Buffer.alloc(0), 'invalid', /empty/],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'unsupported', /JPEG, PNG, WebP or AVIF/],
      [(await photo(800, 600)).subarray(0, 5000), 'invalid', /damaged or incomplete/],
      [Buffer.alloc(10 * 1024 * 1024 + 1, 0xff), 'too_large', /10 MB/],
    ];
    for (const [bytes, reason, message] of cases) {
      const error = await processImage(bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImageRejected);
      expect((error as ImageRejected).reason).toBe(reason);
      expect((error as ImageRejected).message).toMatch(message);
    }
  });

  it('takes the letters of a tag among binary bytes (compressed data holds them by chance) and refuses them as text', async () => {
    const jpeg = await photo(400, 300);
    // An APP15 segment, which decoders skip: its payload stands for the picture's near-random bytes.
    const withSegment = (payload: Buffer) =>
      Buffer.concat([
        jpeg.subarray(0, 2),
        Buffer.from([0xff, 0xef]),
        Buffer.from([(payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
        payload,
        jpeg.subarray(2),
      ]);
    const binary = Buffer.from([0x93, 0x07, ...Buffer.from('<svg'), 0xd1, 0x00, ...Buffer.from('<SCRIPT'), 0x8f, ...Buffer.from('<html'), 0xfe]);
    expect((await processImage(withSegment(binary))).width).toBe(400);
    for (const text of ['<svg onload=alert(1)>', '<SCRIPT>alert(1)</SCRIPT>', 'x="javascript:alert(1)"']) {
      const error = await processImage(withSegment(Buffer.concat([Buffer.from([0x93, 0x07]), Buffer.from(text), Buffer.from([0xfe])]))).catch(
        (e: unknown) => e,
      );
      expect((error as ImageRejected).message, text).toMatch(/code or markup/);
    }
  });

  it('knows the formats by their first bytes, not their names', async () => {
    expect(sniffImageType(await photo(300, 300, 'png'))).toBe('png');
    expect(sniffImageType(await photo(300, 300, 'avif'))).toBe('heif');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
  });
});
