// The second security review's findings about serving (issue 23, items 6-10),
// each replayed as the attack it was, against the Node server and through
// nginx in front of it, and refused as described with nothing changed:
//   6  a large upload body read before anyone was checked; uploads without limit
//   7  the front's body limit not matching the app's per route
//   8  a Location that a raw client reads as another host
//   9  the build's internals (manifest, raw compressed copies) and /readyz's detail in public
//   10 token pages sending a Referer; a manage link opening its booking for ever
// (Item 11, the fast lane's request-head timing, went with the lane: Node's
// own HTTP server reads every request now.)
import { and, asc, eq, isNull } from 'drizzle-orm';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { join } from 'node:path';
import sharp from 'sharp';
import { LARGE_BODY_ROUTES } from '#lib/front-routes.ts';
import { bookings, spaPhotos, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { withTablesAt } from '../support/database.ts';
import { baseURL } from '../support/env.ts';
import { expect, issueMagicLink, test } from '../support/fixtures.ts';
import { nginxMissing, startFront, type RunningNginx } from '../support/nginx.ts';
import { copyPort, startServerCopy, type ServerCopy } from '../support/server-copy.ts';
import { createSignedInUser, type TestUser } from '../support/sessions.ts';
import { firstSpaOfTier } from '../support/spas.ts';

const UPLOAD_LIMIT = LARGE_BODY_ROUTES[0]!.limit;
const READYZ_TOKEN = 'readyz-e2e-token-0123456789';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const randomToken = (length: number) => Array.from({ length }, () => BASE32[randomInt(BASE32.length)]).join('');

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Bytes of the body written before the answer came. */
  sent: number;
}

/**
 * A POST that declares `declared` bytes and writes them a piece at a time,
 * reading while it writes, and stops writing once an answer comes: what an
 * attacker's slow upload (or a phone's) does.
 */
function slowPost(
  url: string,
  declared: number,
  headers: Record<string, string>,
  { ca, holdAfter }: { ca?: Buffer; holdAfter?: number } = {},
): Promise<Answer> & { abort: () => void } {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  let abort = () => {};
  const answer = new Promise<Answer>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = send(url, { method: 'POST', ca, headers: { 'Content-Length': String(declared), ...headers } }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, sent }));
    });
    abort = () => req.destroy();
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const piece = Buffer.alloc(16 * 1024, 'a');
    const pump = async () => {
      while (sent < declared && !answered && !req.destroyed) {
        if (holdAfter !== undefined && sent >= holdAfter) return; // held open: the rest never comes
        const chunk = piece.subarray(0, Math.min(piece.length, declared - sent));
        req.write(chunk);
        sent += chunk.length;
        await new Promise((done) => setTimeout(done, 2));
      }
    };
    pump().catch(() => {});
  });
  return Object.assign(answer, { abort: () => abort() });
}

/** A POST of these bytes, whole; resolves with the answer's status. */
function postBytes(url: string, bytes: Buffer, headers: Record<string, string>, ca?: Buffer): Promise<number> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', ca, headers: { ...headers, 'Content-Length': String(bytes.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

/** A raw request line and headers, written as given (no client normalises the target), and the answer's head. */
function rawHead(port: number, lines: string[], { tls = false }: { tls?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls ? tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }) : connect(port, '127.0.0.1');
    let head = '';
    socket.on(tls ? 'secureConnect' : 'connect', () => socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(head.split('\r\n\r\n')[0]!);
      }
    });
    socket.on('error', reject);
  });
}

/** A JPEG of noise: it does not compress, so its size is what we ask for. */
async function largePhoto(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 1.1));
  return sharp({ create: { width: side, height: side, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .jpeg({ quality: 100 })
    .toBuffer();
}

/** A photo upload as the browser's form sends it. */
async function uploadForm(file: Buffer): Promise<{ bytes: Buffer; contentType: string }> {
  const form = new FormData();
  form.set('intent', 'upload');
  form.set('photo', new File([new Uint8Array(file)], 'big.jpg', { type: 'image/jpeg' }));
  form.set('alt', '');
  const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

const photosOf = (databasePath: string, spaId: number) =>
  withTablesAt(databasePath, (copy) => copy.select({ id: spaPhotos.id }).from(spaPhotos).where(eq(spaPhotos.spaId, spaId)).all()).length;

test.describe('a server of its own, with nginx in front', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ServerCopy;
  let front: RunningNginx;
  let port: number;
  let owner: TestUser;
  let spaId: number;
  let ca: Buffer;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const missing = nginxMissing();
    if (missing) throw new Error(missing);
    port = copyPort(130);
    server = await startServerCopy(port, { TRUST_PROXY: '1', READYZ_TOKEN });
    front = await startFront({ dir: join(server.dir, 'nginx'), siteDir: server.siteDir, siteUrl: baseURL, port: copyPort(131), upstreamPort: port });
    ca = readFileSync(front.certificate);
    owner = createSignedInUser({ role: 'owner' }, server.databasePath);
    spaId = withTablesAt(
      server.databasePath,
      (copy) => {
        const spa = copy
          .select({ id: spas.id })
          .from(spas)
          .where(and(eq(spas.active, true), eq(spas.tier, 'ELITE'), isNull(spas.ownerId)))
          .orderBy(asc(spas.id))
          .limit(1)
          .get()!;
        copy.update(spas).set({ ownerId: owner.id }).where(eq(spas.id, spa.id)).run();
        return spa.id;
      },
      { write: true },
    );
  });
  test.afterAll(async () => {
    await front?.stop();
    await server?.stop();
  });

  const uploadHeaders = (who: TestUser | null) => ({
    'Content-Type': 'multipart/form-data; boundary=----x',
    Origin: baseURL,
    ...(who ? { Cookie: `session=${who.token}` } : {}),
  });

  test('6: a 10 MB upload is not read for a visitor who is not signed in, nor for one who does not own the listing', async () => {
    const before = photosOf(server.databasePath, spaId);
    const stranger = createSignedInUser({ role: 'owner' }, server.databasePath);
    for (const [who, status] of [
      [null, 401],
      [stranger, 404],
    ] as const) {
      // 10 MB declared, 64 KB sent, the rest held back: a server that read the body first would wait for it.
      const answer = await slowPost(`${server.url}/owner/spas/${spaId}/photos`, 10 * 1024 * 1024, uploadHeaders(who), { holdAfter: 64 * 1024 });
      expect(answer.status).toBe(status);
      expect(answer.sent).toBeLessThanOrEqual(64 * 1024);
      expect(answer.headers.connection).toBe('close');
    }
    expect(photosOf(server.databasePath, spaId)).toBe(before);
  });

  test('6: at most four uploads arrive at once; a fifth is refused before it is read', async () => {
    const before = photosOf(server.databasePath, spaId);
    const held = Array.from({ length: 4 }, () =>
      slowPost(`${server.url}/owner/spas/${spaId}/photos`, 8 * 1024 * 1024, uploadHeaders(owner), { holdAfter: 64 * 1024 }),
    );
    // Cut off below, unanswered.
    for (const upload of held) upload.catch(() => {});
    try {
      // The four are being read (the server counts them once their heads are in).
      await expect
        .poll(async () => (await slowPost(`${server.url}/owner/spas/${spaId}/photos`, 1024 * 1024, uploadHeaders(owner))).status, { timeout: 10_000 })
        .toBe(503);
      const fifth = await slowPost(`${server.url}/owner/spas/${spaId}/photos`, 1024 * 1024, uploadHeaders(owner));
      expect(fifth.status).toBe(503);
      expect(fifth.headers['retry-after']).toBe('5');
      expect(fifth.sent).toBeLessThan(1024 * 1024);
    } finally {
      for (const upload of held) upload.abort();
    }
    expect(photosOf(server.databasePath, spaId)).toBe(before);
    // Their places are free again once they are gone: a real upload goes through.
    const { bytes, contentType } = await uploadForm(await largePhoto(200 * 1024));
    let last = 0;
    await expect
      .poll(async () => (last = await postBytes(`${server.url}/owner/spas/${spaId}/photos`, bytes, { ...uploadHeaders(owner), 'Content-Type': contentType })), {
        timeout: 10_000,
      })
      .not.toBe(503);
    expect(last).toBe(303);
    expect(photosOf(server.databasePath, spaId)).toBe(before + 1);
  });

  test('7: through nginx, a photo of several MB reaches its page; a body over the route’s limit, or a form over 64 KB, is refused there', async () => {
    const photoBytes = await largePhoto(1024 * 1024);
    // More than nginx's old 1 MB, less than the page's 10 MB.
    expect(photoBytes.length).toBeGreaterThan(1.2 * 1024 * 1024);
    expect(photoBytes.length).toBeLessThan(10 * 1024 * 1024);
    const { bytes, contentType } = await uploadForm(photoBytes);
    const before = photosOf(server.databasePath, spaId);
    const upload = await postBytes(`${front.origin}/owner/spas/${spaId}/photos`, bytes, { ...uploadHeaders(owner), 'Content-Type': contentType }, ca);
    expect(upload).toBe(303);
    expect(photosOf(server.databasePath, spaId)).toBe(before + 1);

    const over = await slowPost(`${front.origin}/owner/spas/${spaId}/photos`, UPLOAD_LIMIT + 1, uploadHeaders(owner), { ca });
    expect(over.status).toBe(413);
    expect(over.headers['cache-control']).toBe('no-store');
    const form = await slowPost(`${front.origin}/newsletter`, 64 * 1024 + 1, { 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseURL }, { ca });
    expect(form.status).toBe(413);
    expect(form.body).toContain('That was more than we accept in one form');
    expect(photosOf(server.databasePath, spaId)).toBe(before + 1);
  });

  test('a body where none belongs (a GET’s) is not waited for: the page is answered and the connection closed', async () => {
    // A keep-alive GET that says a megabyte follows and sends ten bytes. Node
    // would keep the connection for the rest until its request limit (the photo
    // upload's 180 s); the answer says Connection: close and the server closes it.
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const sent = performance.now();
    socket.write('GET /privacy-policy HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n0123456789');
    const closedAt = await Promise.race([closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.split('\r\n\r\n')[0]).toMatch(/\r\nConnection: close\r?$/im);
    expect(closedAt, 'the server closed the connection').not.toBeNull();
    test.info().annotations.push({ type: 'figures', description: `closed ${Math.round(closedAt! - sent)} ms after the request` });
  });

  test('8: a raw //host address is sent to a path on this site, by Node and by nginx', async () => {
    for (const target of ['//evil.example/../spas/', '//evil.example/', '/\\evil.example/', '///evil.example//spas/', '/.//evil.example/']) {
      for (const [name, head] of [
        ['node', await rawHead(port, [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1'])],
        ['nginx', await rawHead(copyPort(131), [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1'], { tls: true })],
      ] as const) {
        const location = /\r\nLocation: ([^\r]*)/i.exec(head)?.[1];
        if (location === undefined) continue; // not a redirect at all (nginx answers some of these itself)
        expect(location, `${name} ${target}`).toMatch(/^\/(?![/\\])/);
        expect(new URL(location, 'https://ocmedspa.example').host, `${name} ${target}`).toBe('ocmedspa.example');
      }
    }
    expect(await rawHead(port, ['GET //evil.example/../spas/ HTTP/1.1', 'Host: 127.0.0.1'])).toMatch(/^HTTP\/1\.1 301[^]*\r\nLocation: \/spas\r?$/im);
  });

  test('9: the build’s internals are not served, and /readyz tells outsiders only whether it is ready', async () => {
    const home = await (await fetch(`${server.url}/`)).text();
    // React's runtime: an asset of the build that always has compressed copies (the stylesheet is inlined in each page).
    const runtime = /renderer-url="(\/_astro\/[^"]+\.js)"/.exec(home)![1];
    for (const path of ['/static-manifest.json', '/index.html.br', '/index.html.gz', `${runtime}.br`, '/sitemap.xml.gz', '/404.html']) {
      const direct = await fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(direct.status, path).toBe(404);
      expect(direct.headers.get('content-type'), path).toMatch(/^text\/html/);
      const proxied = await new Promise<number>((resolve, reject) =>
        httpsRequest(`${front.origin}${path}`, { ca }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
          .on('error', reject)
          .end(),
      );
      expect(proxied, `nginx ${path}`).toBe(404);
    }

    // Behind the proxy (TRUST_PROXY=1) the visitor's address is the proxy's entry: from outside, no detail.
    const outside = await fetch(`${server.url}/readyz`, { headers: { 'X-Forwarded-For': '203.0.113.5' } });
    expect(outside.status).toBe(200);
    expect(await outside.json()).toEqual({ ready: true });
    const wrong = await fetch(`${server.url}/readyz`, { headers: { 'X-Forwarded-For': '203.0.113.5', Authorization: 'Bearer not-the-token' } });
    expect(await wrong.json()).toEqual({ ready: true });
    const withToken = await (
      await fetch(`${server.url}/readyz`, { headers: { 'X-Forwarded-For': '203.0.113.5', Authorization: `Bearer ${READYZ_TOKEN}` } })
    ).json();
    expect(withToken).toMatchObject({ ready: true, build: { id: expect.any(String) }, memory: { buildsLoaded: 1 } });
    // From this machine it is all there.
    expect(await (await fetch(`${server.url}/readyz`)).json()).toMatchObject({ mailQueue: expect.any(Object) });
  });
});

test.describe('10: pages whose address holds a secret', () => {
  function bookingWithLink(scheduledAt: Date): { id: number; token: string } {
    const token = randomToken(32);
    const spa = firstSpaOfTier('PREMIUM');
    // Written as it stands: an appointment weeks in the past is not one the booking lifecycle would confirm today.
    const row = db
      .insert(bookings)
      .values({
        spaId: spa.id,
        name: 'Ref Tester',
        email: `referrer-${randomBytes(4).toString('hex')}@example.com`,
        status: 'confirmed',
        scheduledAt,
        manageToken: token,
      })
      .returning({ id: bookings.id })
      .get();
    return { id: row.id, token };
  }
  const statusOf = (id: number) => db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)).get()!.status;

  test('send no Referer: every kind of token page says no-referrer', async ({ request }) => {
    const magic = issueMagicLink(`ref-${Date.now()}@example.com`);
    const { token } = bookingWithLink(new Date(Date.now() + 3 * 86_400_000));
    for (const path of [
      `/auth/confirm?token=${magic}`,
      `/bookings/manage/${token}`,
      `/reviews/write/${randomToken(32)}`,
      `/newsletter/confirm?token=${randomToken(43)}`,
      `/newsletter/unsubscribe?token=${randomToken(43)}`,
    ]) {
      const response = await request.get(path);
      expect(response.headers()['referrer-policy'], path).toBe('no-referrer');
      expect(response.headers()['cache-control'], path).toBe('private, no-store');
    }
    // Other pages keep the site's policy.
    expect((await request.get('/owner/login')).headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  test('their forms still work in a browser (Origin: null, Sec-Fetch-Site same-origin); the same post from another site is refused', async ({
    page,
    request,
  }) => {
    // Chromium, on a token page: the form's post says Origin: null, and the sign-in goes through.
    const email = `ref-browser-${randomBytes(4).toString('hex')}@example.com`;
    const magic = issueMagicLink(email);
    const origins: (string | null)[] = [];
    page.on('request', (sent) => sent.method() === 'POST' && origins.push(sent.headers().origin ?? null));
    await page.goto(`/auth/confirm?token=${magic}&for=owner`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/owner\/dashboard$/);
    expect(origins).toEqual(['null']);

    // The manage page's cancel, as that browser sends it, and as another site's page would.
    const cross = bookingWithLink(new Date(Date.now() + 5 * 86_400_000));
    const refused = await request.post(`/bookings/manage/${cross.token}`, {
      form: { intent: 'cancel' },
      headers: { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(refused.status()).toBe(403);
    const bare = await request.post(`/bookings/manage/${cross.token}`, { form: { intent: 'cancel' }, headers: { Origin: 'null' } });
    expect(bare.status()).toBe(403);
    expect(statusOf(cross.id)).toBe('confirmed');
    const mine = bookingWithLink(new Date(Date.now() + 5 * 86_400_000));
    const cancelled = await request.post(`/bookings/manage/${mine.token}`, {
      form: { intent: 'cancel' },
      headers: { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(cancelled.status()).toBe(200);
    expect(statusOf(mine.id)).toBe('cancelled');
  });

  test('a manage link opens its booking until 30 days after the appointment, and never after', async ({ request }) => {
    const day = 86_400_000;
    const recent = bookingWithLink(new Date(Date.now() - 29 * day));
    expect((await request.get(`/bookings/manage/${recent.token}`)).status()).toBe(200);
    const old = bookingWithLink(new Date(Date.now() - 31 * day));
    expect((await request.get(`/bookings/manage/${old.token}`)).status()).toBe(404);
    const cancel = await request.post(`/bookings/manage/${old.token}`, { form: { intent: 'cancel' }, headers: { Origin: baseURL } });
    expect(cancel.status()).toBe(404);
    expect(statusOf(old.id)).toBe('confirmed');
  });
});
