// At publish (server/rebuild.ts): a brotli and a gzip copy beside each text
// file of the build's client folder, made once, so no front compresses a
// page per request: sirv (server/static-site.ts) and nginx (brotli_static,
// gzip_static) send the copy a client takes.
import { readdirSync } from 'node:fs';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.webmanifest', '.xml', '.txt', '.svg', '.ico']);

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else if (entry.isFile() && !/\.(br|gz)$/.test(entry.name)) files.push(path);
  }
  return files;
}

/**
 * How the copies are made, kept in each build's build.json: a build whose
 * copies were made otherwise lends none to the next (see `reuseFrom`).
 */
export const COMPRESSION = 'brotli 11 for /_astro/ and for pages near the first flight (13,000-15,000 bytes at 6), 6 for the rest, gzip 9';

// A new connection's sender starts with 10 segments (RFC 6928, Linux's
// default), about 14,600 bytes: an answer longer than that waits a whole
// round trip for the rest (150 ms on Lighthouse's mobile network). Less the
// answer's headers (about 1,500 bytes through the front, most of them the
// Content-Security-Policy), a page's body arrives in the first flight up to:
export const FIRST_FLIGHT_BODY = 13_000;
// Brotli 11 makes a page about a tenth smaller than 6 (0.88-0.91 on the home,
// offers and a spa page) and takes 40 times as long (docs/decisions/0032): it
// is spent only on a page it can bring into the first flight, not on the many
// already inside it nor on those it cannot bring in.
export const WITHIN_REACH_OF_FIRST_FLIGHT = 15_000;

const brotliAt = (bytes: Buffer, quality: number) =>
  brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });

/** A page's brotli copy: at 6, or at 11 when that may save the page a round trip. */
export async function brotliPage(bytes: Buffer): Promise<Buffer> {
  const quick = await brotliAt(bytes, 6);
  if (quick.length <= FIRST_FLIGHT_BODY || quick.length > WITHIN_REACH_OF_FIRST_FLIGHT) return quick;
  return brotliAt(bytes, 11);
}

/** Copies `previous`'s compressed copies beside `file` when the two are the same bytes; false when they differ. */
async function reuseCopies(bytes: Buffer, previous: string, file: string): Promise<boolean> {
  // A file the last build did not have is new; any other failure to read it is the disk's, and stops the publish.
  const absent = (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  };
  // Most changed pages change length too: they are not read a second time.
  const size = await stat(previous).then((s) => s.size, absent);
  if (size !== bytes.length) return false;
  const before = await readFile(previous).catch(absent);
  if (!before?.equals(bytes)) return false;
  for (const suffix of ['.br', '.gz']) {
    // A copy no smaller than its file was not kept then, and is not now.
    await copyFile(`${previous}${suffix}`, `${file}${suffix}`).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  return true;
}

/**
 * Compresses each text file of at least 512 bytes once: brotli at its best
 * setting for the few hashed assets (/_astro/), a quicker one for the many
 * pages except those near the first flight (`brotliPage`). A file
 * with the same bytes as in `reuseFrom` (the client folder of the build
 * before, made with the same COMPRESSION) takes that build's copies: a
 * rebuild after a listing change compresses the pages that changed, not the
 * whole site. A copy no smaller than the original is not kept.
 */
export async function precompress(
  clientDir: string,
  { reuseFrom = null, concurrency = 4 }: { reuseFrom?: string | null; concurrency?: number } = {},
): Promise<{ files: number; reused: number; ms: number }> {
  const started = performance.now();
  const files = walk(clientDir).filter((file) => COMPRESSIBLE.has(extname(file)));
  let next = 0;
  let compressed = 0;
  let reused = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const bytes = await readFile(file);
      if (bytes.length < 512) continue;
      if (reuseFrom && (await reuseCopies(bytes, join(reuseFrom, relative(clientDir, file)), file))) {
        reused++;
        continue;
      }
      const asset = file.includes(`${join(clientDir, '_astro')}/`);
      const [br, gz] = await Promise.all([asset ? brotliAt(bytes, 11) : brotliPage(bytes), gzipAsync(bytes, { level: 9 })]);
      if (br.length < bytes.length) await writeFile(`${file}.br`, br);
      if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
      compressed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { files: compressed, reused, ms: Math.round(performance.now() - started) };
}
