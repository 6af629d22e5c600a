import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, chooseEncoding, createStaticServer, notModified, precompress } from './static-files.ts';

describe('chooseEncoding', () => {
  const both = { etag: '"x"', size: 100, br: 20, gz: 30 };
  it('prefers brotli, then gzip, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br', both)).toBe('br');
    expect(chooseEncoding('gzip', both)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(chooseEncoding('*', both)).toBe('br');
    expect(chooseEncoding('identity', both)).toBeNull();
    expect(chooseEncoding(undefined, both)).toBeNull();
    expect(chooseEncoding('br', { etag: '"x"', size: 100 })).toBeNull();
  });
});

describe('caching rules', () => {
  it('lets hashed assets live a year and revalidates pages', () => {
    expect(cacheControlFor('/_astro/client.Bx12.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/index.html')).toBe('public, max-age=0, must-revalidate');
    expect(notModified('"abc"', '"abc"')).toBe(true);
    expect(notModified('W/"abc", "def"', '"abc"')).toBe(true);
    expect(notModified('"abd"', '"abc"')).toBe(false);
    expect(notModified(undefined, '"abc"')).toBe(false);
  });
});

describe('a precompressed build, served', () => {
  let dir: string;
  let server: Server;
  let origin: string;
  const page = `<!doctype html><title>Spa</title>${'<p>Botox in Irvine</p>'.repeat(200)}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'medspa-static-'));
    mkdirSync(join(dir, 'spas', 'glow'), { recursive: true });
    mkdirSync(join(dir, '_astro'));
    writeFileSync(join(dir, 'index.html'), page);
    writeFileSync(join(dir, 'spas', 'glow', 'index.html'), page.replace('Irvine', 'Tustin'));
    writeFileSync(join(dir, '_astro', 'app.abc123.js'), 'console.log("hi");'.repeat(100));
    await precompress(dir);
    const files = createStaticServer(dir);
    server = createServer((req, res) => {
      if (!files.serve(req, res)) {
        res.statusCode = 404;
        res.end('to astro');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get: httpGet }) =>
        httpGet(`${origin}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });

  it('sends the brotli copy to a browser that takes it, and the same page', async () => {
    const response = await get('/spas/glow', { 'Accept-Encoding': 'gzip, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(response.body).toString()).toContain('Tustin');
    const gz = await get('/spas/glow', { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(gz.body).toString()).toContain('Tustin');
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await get('/', { 'Accept-Encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await get('/', { 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('gives the fast lane the same headers, as wire lines, and the bytes once warmed', async () => {
    const files = createStaticServer(dir);
    expect(files.resolve('GET', '/spas/glow', 'gzip', undefined)?.body).toBeNull(); // not read yet
    expect((await files.warm()).files).toBe(6); // the br and gzip copies of the three files
    expect(files.resolve('GET', '/spas/glow', undefined, undefined)?.body).toBeNull(); // plain: kept once asked for
    for (const encoding of ['br', 'gzip', undefined]) {
      const answer = files.resolve('GET', '/spas/glow', encoding, undefined)!;
      const sent = await get('/spas/glow', encoding ? { 'Accept-Encoding': encoding } : {});
      const lines = Object.fromEntries(
        answer.headerLines
          .split('\r\n')
          .filter(Boolean)
          .map((line) => line.split(': ')),
      );
      for (const name of ['content-type', 'cache-control', 'etag', 'vary', 'content-length'])
        expect(lines[Object.keys(lines).find((key) => key.toLowerCase() === name)!]).toBe(sent.headers[name]);
      // The compressed copies are held; the plain page is sent from its file.
      const bytes = encoding ? answer.body : readFileSync(join(dir, 'spas', 'glow', 'index.html'));
      expect(bytes?.equals(sent.body)).toBe(true);
    }
    const etag = files.resolve('GET', '/', 'br', undefined)!.etag;
    expect(files.resolve('GET', '/', 'br', etag)).toMatchObject({ status: 304, bodiless: true, body: null });
    expect(files.resolve('HEAD', '/', 'br', undefined)).toMatchObject({ status: 200, bodiless: true, body: null });
    expect(files.resolve('POST', '/', 'br', undefined)).toBeNull();
    // Replaced by a newer build: it lets go of what it held, and keeps nothing it reads after.
    files.release();
    expect(files.resolve('GET', '/spas/glow', 'gzip', undefined)?.body).toBeNull();
    expect(await files.warm()).toEqual({ files: 0, bytes: 0 });
  });

  it('marks hashed assets immutable and leaves unknown paths to Astro', async () => {
    expect((await get('/_astro/app.abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/nope')).body.toString()).toBe('to astro');
    expect((await get('/spas/glow/')).body.toString()).toBe('to astro');
    expect((await get('/../../etc/passwd')).body.toString()).toBe('to astro');
  });
});

describe('page policies from Astro’s _headers.json', () => {
  it('go into the manifest by page and are sent with the page only', async () => {
    const build = mkdtempSync(join(tmpdir(), 'medspa-static-csp-'));
    const client = join(build, 'client');
    mkdirSync(join(client, 'spas', 'glow'), { recursive: true });
    writeFileSync(join(client, 'index.html'), '<!doctype html><title>Home</title>');
    writeFileSync(join(client, '404.html'), '<!doctype html><title>Not found</title>');
    writeFileSync(join(client, 'spas', 'glow', 'index.html'), '<!doctype html><title>Glow</title>');
    writeFileSync(join(client, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const policy = "default-src 'self'; frame-ancestors 'none'; script-src 'self' 'sha256-x';";
    const csp = [{ key: 'Content-Security-Policy', value: policy }];
    writeFileSync(
      join(build, '_headers.json'),
      JSON.stringify([
        { pathname: '/', headers: csp },
        { pathname: '/404', headers: csp },
        { pathname: '/spas/glow', headers: csp },
      ]),
    );
    try {
      await precompress(client);
      const files = createStaticServer(client);
      expect(files.documentPolicy).toBe(policy);
      const server = createServer((req, res) => void (files.serve(req, res) || res.end()));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        expect((await fetch(`${at}/spas/glow`)).headers.get('content-security-policy')).toBe(policy);
        expect((await fetch(`${at}/`)).headers.get('content-security-policy')).toBe(policy);
        expect((await fetch(`${at}/favicon.svg`)).headers.get('content-security-policy')).toBeNull();
      } finally {
        server.close();
      }
    } finally {
      rmSync(build, { recursive: true, force: true });
    }
  });
});
