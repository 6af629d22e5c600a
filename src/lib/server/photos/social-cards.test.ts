import { eq } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cities, socialMediaCache, spas, type Tier } from '#db/schema.ts';
import { photo } from '#tests/support/test-images.ts';
import { pictureSources } from '#lib/photos.ts';
import { db } from '../db.ts';
import { isPublicAddress, safeFetch } from '../safe-fetch.ts';
import { CARD_TTL_MS, freshSocialCard, parseEndpoints, platformOf, refreshSocialCard } from './social-cards.ts';

// A local stand-in for the platforms' oEmbed endpoints and their image hosts.
let server: Server;
let base: string;
let thumbnail: Buffer;
const seen: string[] = [];
beforeAll(async () => {
  thumbnail = await photo(1280, 720, 'jpeg', 80);
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    seen.push(url.pathname + url.search);
    if (url.pathname === '/oembed') {
      const target = url.searchParams.get('url') ?? '';
      if (target.includes('broken')) return res.writeHead(500).end();
      if (target.includes('huge')) return res.writeHead(200, { 'content-type': 'application/json' }).end(`{"title":"${'x'.repeat(400_000)}"}`);
      if (target.includes('redirect-file')) return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (target.includes('redirect-private')) return res.writeHead(302, { location: 'http://10.0.0.1/oembed' }).end();
      if (target.includes('slow')) return void setTimeout(() => res.end('{}'), 8_000);
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          title: 'Glow facial in 60 seconds',
          author_name: 'Harborlight Aesthetics',
          author_url: 'javascript:alert(1)',
          provider_name: 'YouTube',
          thumbnail_url: `${base}/thumb.jpg`,
          html: '<iframe src="https://www.youtube.com/embed/x"></iframe><script>alert(1)</script>',
        }),
      );
    }
    if (url.pathname === '/thumb.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumbnail);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  for (const id of made) db.delete(spas).where(eq(spas.id, id)).run();
});

const made: number[] = [];
function makeSpa(tier: Tier, socialFeedUrl: string) {
  const city = db.select({ id: cities.id }).from(cities).limit(1).get()!;
  const row = db
    .insert(spas)
    .values({ name: `Social Test ${made.length}`, slug: `social-test-${made.length}-${Date.now()}`, tier, cityId: city.id, active: false, socialFeedUrl })
    .returning({ id: spas.id })
    .get();
  made.push(row.id);
  return row.id;
}

const settings = () => ({ endpoints: `youtube=${base}/oembed,tiktok=${base}/oembed`, allowLoopback: true });

describe('refreshSocialCard', () => {
  it('caches title, author and a thumbnail of our own, with an expiry; no third-party markup', async () => {
    const feed = `https://www.youtube.com/watch?v=card-${Date.now()}`;
    const spaId = makeSpa('PREMIUM', feed);
    const now = new Date();
    // (Whether a card moves the content version, so the build publishes it, depends on its spa being listed: db/publication.test.ts.)
    expect(await refreshSocialCard(spaId, now, settings())).toEqual({ ok: true, value: { title: 'Glow facial in 60 seconds', thumbnail: true } });
    const card = freshSocialCard(feed, now)!;
    expect(card).toMatchObject({ platform: 'youtube', title: 'Glow facial in 60 seconds', authorName: 'Harborlight Aesthetics', embedHtml: null });
    // An author link that is not http(s) is dropped, not stored.
    expect(card.authorUrl).toBeNull();
    // The thumbnail is ours: under /uploads, AVIF and WebP, no larger than 800 px.
    const picture = pictureSources(card.thumbnailUrl)!;
    expect(picture.src).toMatch(/^\/uploads\/social\/[a-f0-9]{24}-800x450\.webp$/);
    expect(card.expiresAt.getTime() - now.getTime()).toBe(CARD_TTL_MS);
    // Fresh until it expires; then the page falls back to the plain link.
    expect(freshSocialCard(feed, new Date(now.getTime() + CARD_TTL_MS + 1))).toBeNull();
  }, 30_000);

  it('does nothing for a Free listing, and keeps the old card when the platform fails', async () => {
    const free = makeSpa('FREE', `https://www.youtube.com/watch?v=free-${Date.now()}`);
    expect(await refreshSocialCard(free, new Date(), settings())).toMatchObject({ ok: false, reason: 'forbidden' });
    const feed = `https://www.tiktok.com/@broken-${Date.now()}`;
    const spaId = makeSpa('ELITE', feed);
    expect(await refreshSocialCard(spaId, new Date(), settings())).toMatchObject({ ok: false, reason: 'upstream_failed' });
    expect(db.select().from(socialMediaCache).where(eq(socialMediaCache.url, feed)).get()).toBeUndefined();
  });

  it('refuses oversized answers, redirects to file: or private addresses, and slow platforms', async () => {
    for (const name of ['huge', 'redirect-file', 'redirect-private', 'slow']) {
      const spaId = makeSpa('PREMIUM', `https://www.youtube.com/watch?v=${name}-${Date.now()}`);
      const started = Date.now();
      expect(await refreshSocialCard(spaId, new Date(), settings()), name).toMatchObject({ ok: false, reason: 'upstream_failed' });
      expect(Date.now() - started, name).toBeLessThan(7_000);
    }
  }, 30_000);

  it('never reaches loopback without the test switch', async () => {
    const spaId = makeSpa('PREMIUM', `https://www.youtube.com/watch?v=loop-${Date.now()}`);
    const before = seen.length;
    expect(await refreshSocialCard(spaId, new Date(), { ...settings(), allowLoopback: false })).toMatchObject({ ok: false, reason: 'upstream_failed' });
    expect(seen.length).toBe(before);
  });
});

describe('safeFetch', () => {
  it('fetches only http(s) from public addresses', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://127.0.0.1/', 'http://user:pw@example.com/']) {
      await expect(safeFetch(url, { maxBytes: 1000 }), url).rejects.toThrow();
    }
    for (const url of [
      'http://127.0.0.1:1/',
      'http://[::1]:1/',
      'http://10.1.2.3/',
      'http://169.254.169.254/latest/meta-data/',
      'http://192.168.1.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://localhost:1/',
    ]) {
      await expect(safeFetch(url, { maxBytes: 1000, timeoutMs: 2_000 }), url).rejects.toThrow(/address we do not fetch from|not an address we fetch from/);
    }
  });

  it('judges addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1::1')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    expect(isPublicAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isPublicAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
  });
});

describe('platforms', () => {
  it('reads the platform from the saved choice or the host', () => {
    expect(platformOf('https://www.instagram.com/harborlight/')).toBe('instagram');
    expect(platformOf('https://youtu.be/abc')).toBe('youtube');
    expect(platformOf('https://www.tiktok.com/@spa')).toBe('tiktok');
    expect(platformOf('https://example.com/feed')).toBeNull();
    expect(platformOf('https://example.com/feed', 'youtube')).toBe('youtube');
  });

  it('takes endpoints from the setting, only http(s)', () => {
    const endpoints = parseEndpoints('youtube=http://127.0.0.1:9/oembed, tiktok=file:///x');
    expect(endpoints.youtube).toBe('http://127.0.0.1:9/oembed');
    expect(endpoints.tiktok).toBe('https://www.tiktok.com/oembed');
  });
});
