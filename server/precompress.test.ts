import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress.ts';

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
});
