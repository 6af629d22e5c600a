import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_FLIGHT_BODY, precompress, WITHIN_REACH_OF_FIRST_FLIGHT } from './precompress.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A client folder with `files` (path → text). */
function client(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'medspa-precompress-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A page of `count` made-up words: text that compresses about as well as a real page's. */
function wordyPage(count: number): string {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const vocabulary = Array.from({ length: 1500 }, () =>
    Array.from({ length: 3 + Math.floor(next() * 8) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join(''),
  );
  const words = Array.from({ length: count }, () => vocabulary[Math.floor(next() * vocabulary.length)]);
  return `<!doctype html><title>Glow</title><p>${words.join(' ')}</p>`;
}

const brotliAt = (text: string, quality: number) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) } });

const page = (city: string) => `<!doctype html><title>Glow</title><p>A med spa in ${city}.</p>${'<li>HydraFacial MD</li>'.repeat(80)}`;

describe('precompress', () => {
  it('writes a brotli and a gzip copy a client can read back, and none for a file too small to gain', async () => {
    const dir = client({ 'index.html': page('Irvine'), 'tiny.txt': 'hi' });
    const result = await precompress(dir);
    expect(result).toMatchObject({ files: 1, reused: 0 });
    expect(brotliDecompressSync(readFileSync(join(dir, 'index.html.br'))).toString()).toBe(page('Irvine'));
    expect(gunzipSync(readFileSync(join(dir, 'index.html.gz'))).toString()).toBe(page('Irvine'));
    expect(existsSync(join(dir, 'tiny.txt.br'))).toBe(false);
  });

  it("takes the last build's copies for files with the same bytes, and compresses the ones that changed", async () => {
    const before = client({ 'index.html': page('Irvine'), 'spas/glow/index.html': page('Irvine') });
    await precompress(before);
    // A listing moved to Tustin: its page changed (to the same length), the home did not.
    const after = client({ 'index.html': page('Irvine'), 'spas/glow/index.html': page('Tustin') });
    const result = await precompress(after, { reuseFrom: before });
    expect(result).toMatchObject({ files: 1, reused: 1 });
    expect(readFileSync(join(after, 'index.html.br'))).toEqual(readFileSync(join(before, 'index.html.br')));
    expect(brotliDecompressSync(readFileSync(join(after, 'spas/glow/index.html.br'))).toString()).toBe(page('Tustin'));
    expect(gunzipSync(readFileSync(join(after, 'spas/glow/index.html.gz'))).toString()).toBe(page('Tustin'));
    // Copies, not links: pruning the old build leaves the new one whole.
    expect(statSync(join(after, 'index.html.br')).nlink).toBe(1);
  });

  it('compresses a file the last build did not have', async () => {
    const before = client({ 'index.html': page('Irvine') });
    await precompress(before);
    const after = client({ 'index.html': page('Irvine'), 'offers/index.html': page('Costa Mesa') });
    expect(await precompress(after, { reuseFrom: before })).toMatchObject({ files: 1, reused: 1 });
    expect(brotliDecompressSync(readFileSync(join(after, 'offers/index.html.br'))).toString()).toBe(page('Costa Mesa'));
  });

  it('spends brotli 11 on a page only when its quick copy is just over the first flight', async () => {
    const near = wordyPage(4500);
    const inside = wordyPage(2000);
    const beyond = wordyPage(6000);
    // What each page is, as this test means it.
    expect(brotliAt(near, 6).length).toBeGreaterThan(FIRST_FLIGHT_BODY);
    expect(brotliAt(near, 6).length).toBeLessThanOrEqual(WITHIN_REACH_OF_FIRST_FLIGHT);
    expect(brotliAt(inside, 6).length).toBeLessThanOrEqual(FIRST_FLIGHT_BODY);
    expect(brotliAt(beyond, 6).length).toBeGreaterThan(WITHIN_REACH_OF_FIRST_FLIGHT);
    const dir = client({ 'near/index.html': near, 'inside/index.html': inside, 'beyond/index.html': beyond });
    await precompress(dir);
    expect(readFileSync(join(dir, 'near/index.html.br'))).toEqual(brotliAt(near, 11));
    expect(brotliAt(near, 11).length).toBeLessThan(brotliAt(near, 6).length);
    expect(readFileSync(join(dir, 'inside/index.html.br'))).toEqual(brotliAt(inside, 6));
    expect(readFileSync(join(dir, 'beyond/index.html.br'))).toEqual(brotliAt(beyond, 6));
    expect(brotliDecompressSync(readFileSync(join(dir, 'near/index.html.br'))).toString()).toBe(near);
  });
});
