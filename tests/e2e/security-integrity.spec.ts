// The second security review's integrity attacks (issue 23, items 1, 2 and 12),
// replayed over HTTP against a served site of their own (a server copy with
// publishing on change, its own database, build and outbox), as an attacker
// would run them. Each client connects from a loopback address of its own
// (node's `localAddress`), so the server's per-address limits and signals see
// separate clients.
//   1. a rebuild storm: 100 listing writes by 5 accounts in under 2 minutes
//      (listings awaiting review, edits nobody sees, saves that change nothing)
//      start no build; creating listings is limited per account and address;
//   2. an owner reviewing their own spa through a booking they typed is held
//      for an editor: no review row, nothing public, no rebuild;
//   12. the URL fetcher refuses the addresses the review found let through.
import { readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { and, asc, count as rows, eq, inArray, like, sql } from 'drizzle-orm';
import { bookings, cities, reviewHolds, reviews, siteMeta, socialMediaCache, spas, type Tier } from '#db/schema.ts';
import { withTablesAt, type Tables } from '../support/database.ts';
import { expect, test } from '../support/fixtures.ts';
import { readOutbox } from '../support/mail.ts';
import { requestFrom, type Answer } from '../support/request-from.ts';
import { createSignedInUser, type TestUser } from '../support/sessions.ts';
import { copyPort, startServerCopy, type ServerCopy } from '../support/server-copy.ts';

test.describe.configure({ mode: 'serial' });

let server: ServerCopy;
let standIn: Server;
const standInPort = copyPort(61);
/** Requests the oEmbed stand-in saw, by path: a fetch the server should have refused shows up here. */
const seen: string[] = [];
/** Where each replayed SSRF feed sends the server: a redirect of the oEmbed answer, or its thumbnail. */
const targets = new Map<string, { kind: 'redirect' | 'thumbnail'; host: string }>();

/** Reads the server copy's database. */
const read = <T>(work: (db: Tables) => T) => withTablesAt(server.databasePath, work);
/** Writes a fixture into the server copy's database. */
const fixture = <T>(work: (db: Tables) => T) => withTablesAt(server.databasePath, work, { write: true });
const contentVersion = () => read((db) => db.select({ v: siteMeta.contentVersion }).from(siteMeta).where(eq(siteMeta.id, 1)).get()!.v);
const allReviews = () => read((db) => db.select().from(reviews).orderBy(asc(reviews.id)).all());
const spasNamedLike = (prefix: string) =>
  read(
    (db) =>
      db
        .select({ n: rows() })
        .from(spas)
        .where(like(spas.name, `${prefix}%`))
        .get()!.n,
  );
const servedBuild = () => readlinkSync(join(server.siteDir, 'current'));
const cityId = () => read((db) => db.select({ id: cities.id }).from(cities).where(eq(cities.active, true)).orderBy(asc(cities.id)).limit(1).get()!.id);
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
let clients = 0;
/** A loopback address no other client of this file uses. */
const newClient = () => `127.61.${Math.floor(++clients / 250)}.${(clients % 250) + 1}`;

interface Queue {
  updatedAt: string;
  status: string;
  contentVersion: number;
  publishedVersion: number | null;
  building: unknown;
}
const queueState = (): Queue | null => {
  try {
    return JSON.parse(readFileSync(join(server.siteDir, 'rebuild-queue.json'), 'utf8')) as Queue;
  } catch {
    return null;
  }
};

/** One request from `from` to the server copy, as a person's browser or a script sends it (same Origin, the session cookie). */
function send(
  from: string,
  method: 'GET' | 'POST',
  path: string,
  options: { user?: TestUser; form?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : options.json !== undefined ? JSON.stringify(options.json) : '';
  const target = new URL(server.url);
  return requestFrom(from, target, path, {
    method,
    headers: {
      Origin: target.origin,
      ...(options.user ? { Cookie: `session=${options.user.token}` } : {}),
      ...(body ? { 'Content-Type': options.form ? 'application/x-www-form-urlencoded' : 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}),
    },
    body,
  });
}

/** A listed spa owned by `owner`, written as a fixture. */
function liveSpa(owner: TestUser, extra: { tier?: Tier; description?: string } = {}): { id: number; slug: string } {
  const slug = `integrity-${tag()}`;
  const city = cityId();
  return fixture((db) =>
    db
      .insert(spas)
      .values({
        name: `Integrity Spa ${slug}`,
        slug,
        cityId: city,
        ownerId: owner.id,
        tier: extra.tier ?? 'FREE',
        description: extra.description ?? 'A calm studio.',
        reviewStatus: 'approved',
        active: true,
      })
      .returning({ id: spas.id, slug: spas.slug })
      .get(),
  );
}

/** Waits until the queue has caught up: the served build carries the data's version and nothing is building. */
async function publishedAndIdle() {
  await expect
    .poll(
      () => {
        const state = queueState();
        return state?.status === 'idle' && state.publishedVersion === contentVersion();
      },
      { timeout: 240_000, intervals: [1_000], message: 'the rebuild queue to publish the data and go idle' },
    )
    .toBe(true);
}

test.beforeAll(async () => {
  test.setTimeout(360_000);
  // The platforms' oEmbed endpoint, on every local address: whatever the server fetches through it is counted.
  standIn = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    seen.push(url.pathname);
    const feed = url.searchParams.get('url') ?? '';
    const target = [...targets].find(([key]) => feed.endsWith(key))?.[1];
    if (url.pathname === '/oembed' && target?.kind === 'redirect') return res.writeHead(302, { location: `http://${target.host}:${standInPort}/inner` }).end();
    if (url.pathname === '/oembed' && target) {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ title: 'A card', provider_name: 'YouTube', thumbnail_url: `http://${target.host}:${standInPort}/thumb.jpg` }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => standIn.listen({ port: standInPort, host: '::', ipv6Only: false }, resolve));
  server = await startServerCopy(
    copyPort(60),
    {
      BACKGROUND_JOBS: 'on',
      PUBLISH_ON_CHANGE: 'on',
      OEMBED_ENDPOINTS: `youtube=http://127.0.0.1:${standInPort}/oembed`,
      OEMBED_ALLOW_LOOPBACK: 'on',
    },
    { ownSite: true },
  );
  // The copied database may be ahead of the copied build (other tests write fixtures).
  await publishedAndIdle();
});

test.afterAll(async () => {
  standIn?.close();
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  void server.stop();
  // A build the queue started may hold the server past its drain; never leave it running.
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
});

test('item 1: a rebuild storm of 100 listing writes by 5 accounts in 2 minutes starts no build', async () => {
  test.setTimeout(300_000);
  const accounts = Array.from({ length: 5 }, () => {
    const user = createSignedInUser({ role: 'client' }, server.databasePath);
    return { user, from: newClient() };
  });
  // Each account also has a listing that is live (made before the storm, and published).
  const live = accounts.map(({ user }) => liveSpa(user));
  await publishedAndIdle();
  const versionBefore = contentVersion();
  const buildBefore = servedBuild();
  const started = Date.now();
  const statuses: Record<string, number> = {};
  const count = (kind: string, status: number) => (statuses[`${kind} ${status}`] = (statuses[`${kind} ${status}`] ?? 0) + 1);
  let refusal: Answer | undefined;

  await Promise.all(
    accounts.map(async ({ user, from }, i) => {
      const name = `Storm ${i} ${tag()}`;
      // 8 new listings: the account's limit is 5 a day.
      for (let n = 0; n < 8; n++) {
        const answer = await send(from, 'POST', '/api/owner/create-spa', { user, json: { spaName: `${name} ${n}`, cityId: cityId() } });
        count('create', answer.status);
        if (answer.status === 429) refusal ??= answer;
      }
      // 6 edits of its listings awaiting review: nobody sees them.
      const pending = read((db) =>
        db
          .select({ id: spas.id })
          .from(spas)
          .where(and(eq(spas.ownerId, user.id), eq(spas.reviewStatus, 'pending')))
          .orderBy(asc(spas.id))
          .all(),
      );
      for (let n = 0; n < 6; n++) {
        const spa = pending[n % pending.length]!;
        const answer = await send(from, 'POST', `/owner/spas/${spa.id}`, { user, form: { name: `${name} edited ${n}`, description: `Buy now ${n}` } });
        count('edit pending', answer.status);
      }
      // 6 saves of its live listing that change nothing.
      const stored = read((db) => db.select({ name: spas.name, description: spas.description }).from(spas).where(eq(spas.id, live[i]!.id)).get()!);
      for (let n = 0; n < 6; n++) {
        const answer = await send(from, 'POST', `/owner/spas/${live[i]!.id}`, { user, form: { name: stored.name, description: stored.description! } });
        count('no-op save', answer.status);
        expect(answer.headers.location).toBe(`/owner/spas/${live[i]!.id}?saved=unchanged`);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const writes = Object.values(statuses).reduce((a, b) => a + b, 0);
  expect(writes).toBe(100);
  expect(seconds).toBeLessThan(120);
  expect(statuses).toEqual({ 'create 201': 25, 'create 429': 15, 'edit pending 303': 30, 'no-op save 303': 30 });
  expect(refusal!.headers['retry-after']).toMatch(/^\d+$/);
  expect(JSON.parse(refusal!.body)).toMatchObject({
    error: { code: 'rate_limited', message: expect.stringMatching(/^Too many listings submitted\. Try again in \d+ (minutes?|hours)\.$/) },
  });
  // 25 listings, all awaiting review and out of sight; the live ones as they were.
  const made = read((db) =>
    db
      .select({ n: rows(), active: sql<number>`coalesce(sum(${spas.active}), 0)` })
      .from(spas)
      .where(
        and(
          inArray(
            spas.ownerId,
            accounts.map((a) => a.user.id),
          ),
          eq(spas.reviewStatus, 'pending'),
        ),
      )
      .get()!,
  );
  expect(made).toEqual({ n: 25, active: 0 });

  // Not one content-version bump, so the queue asks for no build: after its next look it is idle on the same build.
  const bumps = contentVersion() - versionBefore;
  const stormEnd = Date.now();
  await expect.poll(() => Date.parse(queueState()?.updatedAt ?? '0') > stormEnd, { timeout: 30_000, message: 'the queue to look again' }).toBe(true);
  expect(bumps).toBe(0);
  expect(queueState()).toMatchObject({ status: 'idle', building: null, contentVersion: versionBefore, publishedVersion: versionBefore });
  expect(servedBuild()).toBe(buildBefore);
  const figure = JSON.stringify({ writes, accounts: accounts.length, seconds, statuses, contentVersionBumps: bumps, buildsStarted: 0 });
  test.info().annotations.push({ type: 'rebuild storm', description: figure });
});

test('item 1: listings are limited per client address too, across accounts: 429 and nothing written', async () => {
  const from = newClient();
  const name = `Shared address ${tag()}`;
  const outcomes: number[] = [];
  for (let account = 0; account < 3; account++) {
    const user = createSignedInUser({ role: 'client' }, server.databasePath);
    for (let n = 0; n < 3; n++) {
      outcomes.push((await send(from, 'POST', '/api/owner/create-spa', { user, json: { spaName: `${name} ${account}-${n}`, cityId: cityId() } })).status);
    }
  }
  expect(outcomes).toEqual([201, 201, 201, 201, 201, 429, 429, 429, 429]);
  expect(spasNamedLike(name)).toBe(5);
  // Signed out, the same address is refused as well.
  const signedOut = await send(from, 'POST', '/api/owner/create-spa', {
    json: { spaName: `${name} anonymous`, cityId: cityId(), ownerEmail: `anon-${tag()}@example.com` },
  });
  expect(signedOut.status).toBe(429);
  expect(spasNamedLike(name)).toBe(5);
});

test('item 2: an owner’s own review through a booking they typed is held, unseen, and changes no public row', async () => {
  test.setTimeout(180_000);
  const owner = createSignedInUser({ role: 'owner' }, server.databasePath);
  const spa = liveSpa(owner);
  const home = newClient();
  // The owner works from home: their dashboard, signed in.
  expect((await send(home, 'GET', '/owner/dashboard', { user: owner })).status).toBe(200);
  // They type a booking request with an address they control...
  const puppet = `sam.sock-${tag()}@mailbox.example`;
  const requested = await send(home, 'POST', '/api/bookings', { json: { name: 'Sam Sock', email: puppet, spaId: spa.id, message: 'Botox, please' } });
  expect(requested.status).toBe(201);
  const booking = read((db) => db.select({ id: bookings.id }).from(bookings).where(eq(bookings.email, puppet)).get()!);
  // ...confirm it, and once its time has passed, mark it completed.
  const confirm = await send(home, 'POST', '/owner/dashboard', {
    user: owner,
    form: { intent: 'booking', id: String(booking.id), status: 'confirmed', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
  });
  expect(confirm.status).toBe(303);
  // The appointment's hour passes (the one fact moved by hand: tests do not wait an hour).
  fixture((db) =>
    db
      .update(bookings)
      .set({ scheduledAt: new Date(Date.now() - 3_600_000) })
      .where(eq(bookings.id, booking.id))
      .run(),
  );
  const complete = await send(home, 'POST', '/owner/dashboard', { user: owner, form: { intent: 'booking', id: String(booking.id), status: 'completed' } });
  expect(complete.status).toBe(303);
  // The review link arrives in the owner's other mailbox.
  let link = '';
  await expect
    .poll(() => {
      const mail = readOutbox(join(server.dir, 'outbox')).find((m) => m.to.includes(puppet) && m.subject.startsWith('How was your visit'));
      link = /\/reviews\/write\/[a-z2-7]{32}/.exec(mail?.text ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');

  await publishedAndIdle();
  const before = {
    reviews: allReviews(),
    version: contentVersion(),
  };
  const fiveStars = { rating: '5', body: 'Life-changing results, the best spa in Orange County!', authorName: 'Sam', visited: 'yes' };
  const written = await send(home, 'POST', link, { form: fiveStars });
  expect(written.status).toBe(303);
  expect(written.headers.location).toBe(`${link}?done=held`);
  // Kept as written, for an editor; not one public row changed, no rebuild asked for.
  expect(allReviews()).toEqual(before.reviews);
  expect(contentVersion()).toBe(before.version);
  const held = read((db) =>
    db
      .select({
        rating: reviewHolds.rating,
        body: reviewHolds.body,
        authorName: reviewHolds.authorName,
        decision: reviewHolds.decision,
        signals: reviewHolds.signals,
      })
      .from(reviewHolds)
      .where(eq(reviewHolds.bookingId, booking.id))
      .all(),
  );
  // The signals as stored (JSON), so the check reads the same text it always did.
  expect(held.map(({ signals, ...row }) => ({ ...row, signals: JSON.stringify(signals) }))).toEqual([
    { rating: 5, body: fiveStars.body, authorName: 'Sam', decision: null, signals: expect.stringContaining('"signal":"owner-network"') },
  ]);
  const thanks = await send(home, 'GET', `${link}?done=held`);
  expect(thanks.body).toContain('Your review is saved');
  expect(thanks.body).not.toContain('Your review is published');
  const page = await send(home, 'GET', `/spas/${spa.slug}`);
  expect(page.status).toBe(200);
  expect(page.body).not.toContain(fiveStars.body);
  // The link is spent: another try from elsewhere changes nothing.
  const again = await send(newClient(), 'POST', link, { form: { ...fiveStars, body: 'Another glowing review, from the café.' } });
  expect(again.status).toBe(409);
  expect(allReviews()).toEqual(before.reviews);
  expect(read((db) => db.select({ n: rows() }).from(reviewHolds).where(eq(reviewHolds.bookingId, booking.id)).get()!.n)).toBe(1);

  // The editors see it first on their desk, with the signal in words.
  const editor = createSignedInUser({ role: 'admin' }, server.databasePath);
  const desk = await send(newClient(), 'GET', '/admin/reviews', { user: editor });
  expect(desk.body).toContain(fiveStars.body);
  expect(desk.body).toContain('Written from a network the spa’s owner used the site from');
});

test('item 2: a client’s own review of the same spa is published at once, without the badge when the visit was not paid through the site', async () => {
  const owner = createSignedInUser({ role: 'owner' }, server.databasePath);
  const spa = liveSpa(owner);
  expect((await send(newClient(), 'GET', '/owner/dashboard', { user: owner })).status).toBe(200);
  const client = `real-client-${tag()}@example.com`;
  // Confirmed for an hour ago, written as it stands: the lifecycle would not confirm a time already past.
  const booking = fixture((db) =>
    db
      .insert(bookings)
      .values({ spaId: spa.id, name: 'Rita Real', email: client, status: 'confirmed', scheduledAt: new Date(Date.now() - 3_600_000) })
      .returning({ id: bookings.id })
      .get(),
  );
  expect(
    (await send(newClient(), 'POST', '/owner/dashboard', { user: owner, form: { intent: 'booking', id: String(booking.id), status: 'completed' } })).status,
  ).toBe(303);
  let link = '';
  await expect
    .poll(() => {
      const mail = readOutbox(join(server.dir, 'outbox')).find((m) => m.to.includes(client) && m.subject.startsWith('How was your visit'));
      link = /\/reviews\/write\/[a-z2-7]{32}/.exec(mail?.text ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  const body = 'Careful consultation first; the nurse explained every step. Mild bruising, gone in two days.';
  const written = await send(newClient(), 'POST', link, { form: { rating: '4', body, authorName: 'Rita', visited: 'yes' } });
  expect(written.headers.location).toBe(`${link}?done=1`);
  expect(
    read((db) =>
      db
        .select({ rating: reviews.rating, body: reviews.body, verifiedVisit: reviews.verifiedVisit })
        .from(reviews)
        .where(eq(reviews.bookingId, booking.id))
        .all(),
    ),
  ).toEqual([{ rating: 4, body, verifiedVisit: false }]);
  // The spa page is rendered from the data until the build lands (decision 0025): the review is there, without the badge.
  const page = await send(newClient(), 'GET', `/spas/${spa.slug}`);
  expect(page.body).toContain(body);
  expect(page.body).not.toContain('data-verified-visit');
});

test('item 12: the URL fetcher refuses [::127.0.0.1], NAT64, 6to4, site-local and the 6to4 relay, as a redirect or a thumbnail', async () => {
  test.setTimeout(180_000);
  const owner = createSignedInUser({ role: 'owner' }, server.databasePath);
  const spa = liveSpa(owner, { tier: 'PREMIUM' });
  const hosts = ['[::127.0.0.1]', '[::ffff:127.0.0.1]', '[64:ff9b:1::7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[fec0::1]', '192.88.99.1'];
  for (const kind of ['redirect', 'thumbnail'] as const) {
    for (const host of hosts) {
      const feed = `https://www.youtube.com/watch?v=ssrf-${kind}-${tag()}`;
      targets.set(feed.slice(feed.indexOf('ssrf-')), { kind, host });
      fixture((db) => db.update(spas).set({ socialFeedUrl: feed, socialPlatform: 'youtube' }).where(eq(spas.id, spa.id)).run());
      const asked = seen.length;
      const answer = await send(newClient(), 'POST', `/owner/spas/${spa.id}/photos`, { user: owner, form: { intent: 'refresh-social' } });
      const cards = read((db) => db.select({ thumbnailUrl: socialMediaCache.thumbnailUrl }).from(socialMediaCache).where(eq(socialMediaCache.url, feed)).all());
      if (kind === 'redirect') {
        // The platform's answer points inside: not followed, no card.
        expect(answer.status, host).toBe(422);
        expect(cards, host).toEqual([]);
      } else {
        // The card is kept without the picture it named.
        expect(answer.status, host).toBe(303);
        expect(cards, host).toEqual([{ thumbnailUrl: null }]);
      }
      // The stand-in (on every local address) was asked for the oEmbed answer and nothing else.
      expect(seen.slice(asked), host).toEqual(['/oembed']);
    }
  }
});
