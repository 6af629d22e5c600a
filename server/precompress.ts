// At publish (server/rebuild.ts): a brotli and a gzip copy beside each text
// file of the build's client folder, made once, so no front compresses a
// page per request: sirv (server/static-site.ts) and nginx (brotli_static,
// gzip_static) send the copy a client takes.
import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
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
 * Compresses each text file of at least 512 bytes once: brotli at its best
 * setting for the few hashed assets (/_astro/), a quicker one for the many
 * pages. A copy no smaller than the original is not kept.
 */
export async function precompress(clientDir: string, concurrency = 4): Promise<{ files: number; ms: number }> {
  const started = performance.now();
  const files = walk(clientDir).filter((file) => COMPRESSIBLE.has(extname(file)));
  let next = 0;
  let compressed = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const bytes = await readFile(file);
      if (bytes.length < 512) continue;
      const quality = file.includes(`${join(clientDir, '_astro')}/`) ? 11 : 6;
      const [br, gz] = await Promise.all([
        brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        gzipAsync(bytes, { level: 9 }),
      ]);
      if (br.length < bytes.length) await writeFile(`${file}.br`, br);
      if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
      compressed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { files: compressed, ms: Math.round(performance.now() - started) };
}
