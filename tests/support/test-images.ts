// Pictures for the upload tests: ordinary photos in every accepted format,
// odd but honest ones (CMYK, 16-bit, grey, EXIF with GPS, rotated), and a
// hundred hostile uploads (renamed files, truncated and corrupt data,
// decompression bombs, markup polyglots, animations...). Generated in memory
// with sharp and by hand, so the tests need no binary fixtures.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export interface TestUpload {
  label: string;
  /** The file name the browser would send. */
  name: string;
  /** The declared content type (never believed). */
  type: string;
  bytes: Buffer;
}

/** A photo-like picture: gradients and shapes, so encoders have real work. */
export async function photo(width = 1600, height = 1067, format: 'jpeg' | 'png' | 'webp' | 'avif' = 'jpeg', seed = 0): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${(seed * 47) % 360},60%,70%)"/><stop offset="1" stop-color="hsl(${(seed * 47 + 120) % 360},50%,35%)"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.35}" cy="${height * 0.45}" r="${Math.min(width, height) * 0.25}" fill="rgba(255,255,255,0.55)"/>
    <rect x="${width * 0.55}" y="${height * 0.2}" width="${width * 0.3}" height="${height * 0.55}" rx="40" fill="rgba(20,60,80,0.5)"/>
  </svg>`;
  const base = sharp(Buffer.from(svg));
  if (format === 'png') return base.png().toBuffer();
  if (format === 'webp') return base.webp({ quality: 85 }).toBuffer();
  if (format === 'avif') return base.avif({ quality: 60, effort: 2 }).toBuffer();
  return base.jpeg({ quality: 85 }).toBuffer();
}

/** A JPEG with EXIF that carries a GPS position and a camera, as phones write them. */
export async function photoWithGps(): Promise<Buffer> {
  return sharp(await photo(1200, 900))
    .withExif({
      IFD0: { Make: 'TestPhone', Model: 'Model 9', Copyright: 'secret-owner-name' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '33/1 36/1 5868/100', GPSLongitudeRef: 'W', GPSLongitude: '117/1 52/1 4320/100' },
    })
    .jpeg()
    .toBuffer();
}

const crc32 = (() => {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  return (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
})();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A grey PNG whose header says width × height; `rows` rows of real (zero) data, compressed. */
export function pngBomb(width: number, height: number, rows = height, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc(Math.min(rows, height) * (width + 1));
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), ...extra, pngChunk('IDAT', deflateSync(raw, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real JPEG whose frame header is rewritten to claim another size. */
function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9;) {
    if (out[i] !== 0xff) break;
    const marker = out[i + 1]!;
    const length = out.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + length;
  }
  throw new Error('no frame header');
}

/** A JPEG with `count` extra APP1 segments of 64 KB each (EXIF far beyond any camera's). */
function jpegWithHugeExif(jpeg: Buffer, count: number): Buffer {
  const segment = Buffer.alloc(65535 + 2);
  segment[0] = 0xff;
  segment[1] = 0xe1;
  segment.writeUInt16BE(65535, 2);
  segment.write('Exif\0\0MM\0*', 4, 'latin1');
  return Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: count }, () => segment), jpeg.subarray(2)]);
}

function webpClaiming(webp: Buffer, width: number, height: number): Buffer {
  // A VP8X header (extended format) that claims a canvas of width × height.
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'latin1');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(width - 1, 12, 3);
  vp8x.writeUIntLE(height - 1, 15, 3);
  const rest = webp.subarray(12);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), vp8x, rest]);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed & 0xff;
};
const noise = (n: number, seed: number) => {
  const next = seeded(seed);
  return Buffer.from(Array.from({ length: n }, next));
};

/** Accepted, after conversion: what real owners upload that is not a plain sRGB JPEG. */
export async function oddButHonestUploads(): Promise<TestUpload[]> {
  const base = sharp(await photo(900, 600, 'png'));
  return [
    { label: 'CMYK JPEG', name: 'print.jpg', type: 'image/jpeg', bytes: await base.clone().toColourspace('cmyk').jpeg().toBuffer() },
    { label: '16-bit PNG', name: 'deep.png', type: 'image/png', bytes: await base.clone().toColourspace('rgb16').png().toBuffer() },
    { label: 'greyscale JPEG', name: 'grey.jpg', type: 'image/jpeg', bytes: await base.clone().greyscale().jpeg().toBuffer() },
    { label: 'PNG with transparency', name: 'alpha.png', type: 'image/png', bytes: await base.clone().ensureAlpha(0.5).png().toBuffer() },
    { label: 'JPEG with GPS in EXIF', name: 'gps.jpg', type: 'image/jpeg', bytes: await photoWithGps() },
    { label: 'WebP', name: 'photo.webp', type: 'image/webp', bytes: await photo(1000, 700, 'webp', 3) },
    { label: 'AVIF', name: 'photo.avif', type: 'image/avif', bytes: await photo(1000, 700, 'avif', 4) },
    { label: 'PNG named .jpg', name: 'mislabelled.jpg', type: 'image/jpeg', bytes: await photo(800, 600, 'png', 5) },
  ];
}

/** A hundred uploads that must each be refused with 400/413/415/422, storing nothing. */
export async function hostileUploads(): Promise<TestUpload[]> {
  const jpeg = await photo(800, 600, 'jpeg', 1);
  const png = await photo(800, 600, 'png', 2);
  const webp = await photo(800, 600, 'webp', 3);
  const avif = await photo(800, 600, 'avif', 4);
  const small = await photo(300, 300, 'jpeg', 5);
  const gif = await sharp(await photo(300, 300, 'png', 6))
    .gif()
    .toBuffer();
  const frames = await sharp(await photo(300, 900, 'png', 7)).toBuffer();
  const animatedGif = await sharp(frames, { pageHeight: 300 } as never)
    .gif({ loop: 0 })
    .toBuffer()
    .catch(() => gif);
  const animatedWebp = await sharp(await sharp(frames).raw().toBuffer(), { raw: { width: 300, height: 900, channels: 3, pageHeight: 300 } as never })
    .webp()
    .toBuffer();
  const tiff = await sharp(png).tiff().toBuffer();
  const svgScript = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(document.cookie)</script><rect width="400" height="400"/></svg>',
  );
  const svgPlain = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="red"/></svg>');
  const html = Buffer.from('<!doctype html><html><body><script>fetch("/api/auth/me")</script></body></html>');
  const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), noise(200, 9)]);
  const elf = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), noise(200, 10)]);
  const exe = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), noise(200, 11)]);
  const bmp = await sharp(png)
    .raw()
    .toBuffer()
    .then(() => Buffer.concat([Buffer.from('BM', 'latin1'), noise(400, 12)]));
  const heicHeader = Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1'), noise(2000, 13)]);
  const uploads: TestUpload[] = [];
  const add = (label: string, name: string, type: string, bytes: Buffer) => uploads.push({ label, name, type, bytes });

  // Empty and tiny.
  add('zero bytes', 'empty.jpg', 'image/jpeg', Buffer.alloc(0));
  add('one byte', 'one.jpg', 'image/jpeg', Buffer.from([0xff]));
  add('JPEG magic only', 'magic.jpg', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff]));
  add('PNG signature only', 'magic.png', 'image/png', PNG_SIGNATURE);
  // Other files renamed as photos (each under three names and types).
  for (const [label, bytes] of [
    ['SVG with script', svgScript],
    ['plain SVG', svgPlain],
    ['HTML page', html],
    ['PDF', pdf],
    ['ZIP', zip],
    ['ELF program', elf],
    ['Windows program', exe],
    ['GIF', gif],
    ['TIFF', tiff],
    ['BMP', bmp],
  ] as const) {
    add(`${label} renamed .jpg`, 'photo.jpg', 'image/jpeg', bytes);
    add(`${label} renamed .png`, 'photo.png', 'image/png', bytes);
    add(`${label} renamed .webp`, 'photo.webp', 'image/webp', bytes);
  }
  add('text file', 'notes.jpg', 'image/jpeg', Buffer.from('just some words, not a picture\n'));
  add('SVG with script as svg', 'logo.svg', 'image/svg+xml', svgScript);
  add('animated GIF', 'anim.gif', 'image/gif', animatedGif);
  add('animated WebP', 'anim.webp', 'image/webp', animatedWebp);
  add('HEIC (HEVC) header', 'IMG_0001.heic', 'image/heic', heicHeader);
  // Truncated: each accepted format cut at six points.
  for (const [format, bytes] of Object.entries({ JPEG: jpeg, PNG: png, WebP: webp, AVIF: avif })) {
    for (const fraction of [0.02, 0.1, 0.25, 0.5, 0.75, 0.97]) {
      add(
        `${format} truncated at ${fraction * 100}%`,
        `cut.${format.toLowerCase()}`,
        `image/${format.toLowerCase()}`,
        bytes.subarray(0, Math.floor(bytes.length * fraction)),
      );
    }
  }
  // Magic bytes followed by noise.
  for (let seed = 1; seed <= 3; seed++) {
    add(`JPEG magic then noise ${seed}`, 'noise.jpg', 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise(5000, seed)]));
    add(`PNG signature then noise ${seed}`, 'noise.png', 'image/png', Buffer.concat([PNG_SIGNATURE, noise(5000, seed + 10)]));
    add(
      `WebP header then noise ${seed}`,
      'noise.webp',
      'image/webp',
      Buffer.concat([Buffer.from('RIFF\x00\x10\x00\x00WEBPVP8 ', 'latin1'), noise(5000, seed + 20)]),
    );
    add(
      `AVIF header then noise ${seed}`,
      'noise.avif',
      'image/avif',
      Buffer.concat([Buffer.from('\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf', 'latin1'), noise(5000, seed + 30)]),
    );
  }
  // Decompression bombs and impossible sizes.
  add('PNG bomb 10,000 × 10,000 px', 'bomb.png', 'image/png', pngBomb(10_000, 10_000));
  add('PNG bomb 20,000 × 20,000 px, few rows', 'bomb2.png', 'image/png', pngBomb(20_000, 20_000, 50));
  add('PNG header 100,000 × 100,000 px', 'bomb3.png', 'image/png', pngBomb(100_000, 100_000, 1));
  add('PNG header 2^31-1 wide', 'bomb4.png', 'image/png', pngBomb(2 ** 31 - 1, 1, 1));
  add('PNG header zero width', 'zero.png', 'image/png', pngBomb(0, 100, 1));
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0);
  add('animated PNG (acTL)', 'anim.png', 'image/png', pngBomb(300, 300, 300, [pngChunk('acTL', actl)]));
  add(
    'PNG with a zTXt bomb',
    'ztxt.png',
    'image/png',
    pngBomb(300, 300, 300, [pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync(Buffer.alloc(50_000_000))]))]),
  );
  add(
    'PNG with an iCCP bomb',
    'iccp.png',
    'image/png',
    pngBomb(300, 300, 300, [pngChunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), deflateSync(Buffer.alloc(50_000_000))]))]),
  );
  add('JPEG claiming 10,000 × 10,000 px', 'big.jpg', 'image/jpeg', jpegClaiming(jpeg, 10_000, 10_000));
  add('JPEG claiming 65,535 × 65,535 px', 'huge.jpg', 'image/jpeg', jpegClaiming(jpeg, 65_535, 65_535));
  add('JPEG claiming 0 × 0 px', 'none.jpg', 'image/jpeg', jpegClaiming(jpeg, 0, 0));
  add('WebP claiming 16,384 × 16,384 px', 'big.webp', 'image/webp', webpClaiming(webp, 16_384, 16_384));
  add('tiny 40 × 40 px photo', 'tiny.jpg', 'image/jpeg', await sharp(small).resize(40, 40).jpeg().toBuffer());
  add('sliver 2,000 × 20 px', 'sliver.png', 'image/png', await sharp(small).resize(2000, 20, { fit: 'fill' }).png().toBuffer());
  add('huge EXIF (6 MB of APP1)', 'exif.jpg', 'image/jpeg', jpegWithHugeExif(small, 96));
  add('huge EXIF (1.5 MB of APP1)', 'exif2.jpg', 'image/jpeg', jpegWithHugeExif(small, 24));
  add('over 10 MB', 'large.jpg', 'image/jpeg', Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]));
  // Polyglots: a real picture that is also a page or a script.
  add('JPEG with a script appended', 'poly.jpg', 'image/jpeg', Buffer.concat([jpeg, Buffer.from('<script>alert(1)</script>')]));
  add('PNG with HTML appended', 'poly.png', 'image/png', Buffer.concat([png, Buffer.from('<html><body onload=alert(1)>')]));
  add('WebP with PHP appended', 'poly.webp', 'image/webp', Buffer.concat([webp, Buffer.from('<?php system($_GET["c"]); ?>')]));
  add(
    'PNG with a script in a text chunk',
    'text.png',
    'image/png',
    pngBomb(300, 300, 300, [pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>', 'latin1'))]),
  );
  add(
    'JPEG with a script in a comment',
    'comment.jpg',
    'image/jpeg',
    Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0x00, 0x1c]), Buffer.from('<script>alert(1)</script>', 'latin1'), jpeg.subarray(2)]),
  );
  add('JPEG magic then an HTML page', 'page.jpg', 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), html]));
  add('GIF/JavaScript polyglot', 'gifjs.jpg', 'image/jpeg', Buffer.from('GIF89a/*\x00\x00*/=1;alert(1);//', 'latin1'));
  add('SVG inside a PNG name with a JPEG magic', 'mixed.png', 'image/png', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), svgScript]));
  return uploads;
}
