import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from './precompress.ts';
import { cacheControlFor, createStaticSite, isInternalPath } from './static-site.ts';

describe('caching rules', () => {
  it('lets hashed assets live a year, revalidates pages, keeps other files an hour', () => {
    expect(cacheControlFor('/_astro/app.abc123.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/spas/glow')).toBe('public, max-age=0, must-revalidate');
    expect(cacheControlFor('/')).toBe('public, max-age=0, must-revalidate');
    expect(cacheControlFor('/favicon.svg')).toBe('public, max-age=3600, must-revalidate');
  });

  it('keeps the compressed copies and the error pages out of reach by their own names', () => {
    for (const path of ['/index.html.br', '/index.html.gz', '/index.html%2Ebr', '/_astro/a.js.BR', '/404', '/404.html', '/500', '/404/']) {
      expect(isInternalPath(path), path).toBe(true);
    }
    for (const path of ['/', '/spas/404-aesthetics', '/cities/irvine', '/_astro/a.js']) expect(isInternalPath(path), path).toBe(false);
  });
});

describe('a precompressed build, served by sirv', () => {
  let build: string;
  let server: Server;
  let origin: string;
  const page = `<!doctype html><title>Spa</title>${'<p>Botox in Irvine</p>'.repeat(200)}`;
  const policy = "default-src 'self'; frame-ancestors 'none'";

  beforeAll(async () => {
    build = mkdtempSync(join(tmpdir(), 'medspa-static-'));
    const client = join(build, 'client');
    mkdirSync(join(client, 'spas', 'glow'), { recursive: true });
    mkdirSync(join(client, '_astro'));
    writeFileSync(join(client, 'index.html'), page);
    writeFileSync(join(client, '404.html'), '<!doctype html><title>Not found</title>');
    writeFileSync(join(client, 'spas', 'glow', 'index.html'), page.replace('Irvine', 'Tustin'));
    writeFileSync(join(client, '_astro', 'app.abc123.js'), 'console.log("hi");'.repeat(100));
    writeFileSync(
      join(build, '_headers.json'),
      JSON.stringify([
        { pathname: '/', headers: [{ key: 'Content-Security-Policy', value: policy }] },
        { pathname: '/spas/glow', headers: [{ key: 'Content-Security-Policy', value: policy }] },
        { pathname: '/404', headers: [{ key: 'Content-Security-Policy', value: policy }] },
      ]),
    );
    await precompress(client);
    const site = createStaticSite(build, { varyByCookie: (path) => path === '/' });
    server = createServer((req, res) =>
      site.serve(req, res, () => {
        res.statusCode = 404;
        res.end('to the app');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(build, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      httpGet(`${origin}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('sends the brotli copy to a browser that takes it, gzip to one that takes only that, and the same page', async () => {
    const br = await get('/spas/glow', { 'Accept-Encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toContain('Botox in Tustin');
    const gz = await get('/spas/glow', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toContain('Botox in Tustin');
    const plain = await get('/spas/glow');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('Botox in Tustin');
  });

  it("sends each page's policy and cache rule, and says the home page varies by cookie", async () => {
    const home = await get('/', { 'Accept-Encoding': 'br' });
    expect(home.headers['content-security-policy']).toBe(policy);
    expect(home.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(home.headers.vary).toBe('Accept-Encoding, Cookie');
    const asset = await get('/_astro/app.abc123.js', { 'Accept-Encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBeUndefined();
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await get('/spas/glow', { 'Accept-Encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    const again = await get('/spas/glow', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('leaves unknown addresses, the raw copies and the error page to the app', async () => {
    for (const path of ['/no-such-page', '/spas/glow/index.html.br', '/index.html.gz', '/404']) {
      const response = await get(path, { 'Accept-Encoding': 'br' });
      expect(response.status, path).toBe(404);
      expect(response.body.toString(), path).toBe('to the app');
    }
  });
});
