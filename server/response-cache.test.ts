import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createResponseCache } from './response-cache.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(generation: () => string, clock: () => number = () => performance.now()) {
  let rendered = 0;
  const cache = createResponseCache(2, 60_000, clock);
  server = createServer((req, res) => {
    if (cache.serve(req, res, generation())) return;
    cache.capture(req, res, generation());
    rendered++;
    res.setHeader('Content-Type', 'text/html');
    res.setHeader('X-Request-Id', `request-${rendered}`);
    res.statusCode = req.url!.includes('missing') ? 404 : 200;
    res.write('<html>');
    res.end(`${req.url} #${rendered}</html>`);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return {
    get: (path: string, headers: Record<string, string> = {}) =>
      fetch(base + path, { headers }).then(async (r) => ({ status: r.status, body: await r.text(), cache: r.headers.get('x-cache') })),
    rendered: () => rendered,
    cache,
  };
}

describe('response cache', () => {
  it('answers a repeated anonymous search from memory with the same body', async () => {
    const site = await start(() => 'v1');
    const first = await site.get('/search-results?city=irvine');
    const second = await site.get('/search-results?city=irvine');
    // fetch asks for gzip and decodes it: the stored compressed copy is the same page.
    expect(second).toEqual({ status: 200, body: first.body, cache: 'hit' });
    expect(site.rendered()).toBe(1);
  });

  it("keeps a spa page rendered on request too, without the first request's id", async () => {
    const site = await start(() => 'v1');
    await site.get('/spas/harborlight-aesthetics');
    const again = await fetch(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/spas/harborlight-aesthetics`);
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(again.headers.get('x-request-id')).toBeNull();
    expect(site.rendered()).toBe(1);
  });

  it('keeps an answer at most a minute: next open times on search cards follow the clock (issue 24)', async () => {
    let now = 1_000;
    const site = await start(
      () => 'v1',
      () => now,
    );
    await site.get('/search-results?sort=next');
    now += 59_000;
    expect((await site.get('/search-results?sort=next')).cache).toBe('hit');
    now += 2_000;
    expect((await site.get('/search-results?sort=next')).cache).toBeNull();
    expect(site.rendered()).toBe(2);
  });

  it('never caches signed-in requests, other pages or errors', async () => {
    const site = await start(() => 'v1');
    await site.get('/search-results', { Cookie: 'session=abc.def' });
    await site.get('/search-results', { Cookie: 'session=abc.def' });
    await site.get('/offers');
    await site.get('/offers');
    await site.get('/search-results?missing=1');
    await site.get('/search-results?missing=1');
    expect(site.rendered()).toBe(6);
  });

  it('forgets everything when the content changes, and keeps only the newest entries', async () => {
    let generation = 'v1';
    const site = await start(() => generation);
    await site.get('/search-results?a');
    generation = 'v2';
    expect((await site.get('/search-results?a')).cache).toBeNull();
    await site.get('/search-results?b');
    await site.get('/search-results?c'); // evicts ?a (two entries at most)
    expect((await site.get('/search-results?a')).cache).toBeNull();
    expect(site.cache.size).toBe(2);
  });
});
