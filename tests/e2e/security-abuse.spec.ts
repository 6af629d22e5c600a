// Abuse of the public forms and the analytics endpoint (security review, issue
// 9): the attacks as an attacker would run them, over HTTP against the built
// site. Each test connects from loopback addresses of its own (127.x.y.z,
// node's `localAddress`), so it is a client the rest of the suite is not, and
// its limits are the server's real ones. Its browser pages are the test's own
// client too (X-Forwarded-For, ../support/fixtures.ts); the raw requests carry
// no such header, so the server counts them by their loopback address.
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, like } from 'drizzle-orm';
import { analyticsEvents, bookings, cities, spas } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';
import { analyticsSalt, baseURL } from '../support/env.ts';
import { expect, spaMailbox, test } from '../support/fixtures.ts';
import { clientHash } from '../support/limits.ts';
import { readOutbox } from '../support/mail.ts';
import { decodeQuotedPrintable, OUTBOX } from '../support/outbox.ts';
import { requestFrom, type Answer } from '../support/request-from.ts';

const site = new URL(baseURL);
const octet = () => 1 + Math.floor(Math.random() * 254);
/** A loopback address no other test uses: a client of its own. */
const newClient = () => `127.${octet()}.${octet()}.${octet()}`;
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A POST from the given local address, with the site's own Origin (a same-origin script, or curl with the header). */
const postFrom = (from: string, path: string, body: string, contentType = 'application/json') =>
  requestFrom(from, site, path, {
    method: 'POST',
    headers: { 'Content-Type': contentType, Origin: site.origin, 'Content-Length': Buffer.byteLength(body) },
    body,
  });

const postJson = (from: string, path: string, data: unknown) => postFrom(from, path, JSON.stringify(data));

/** Raw messages in the outbox whose recipient ends with `suffix`. */
async function messagesToDomain(suffix: string): Promise<string[]> {
  return readOutbox(OUTBOX)
    .filter((mail) => mail.to.some((address) => address.endsWith(suffix)))
    .map((mail) => mail.raw);
}

/**
 * A listed spa for one test: each test takes its own (from the end of the
 * list, where the other specs do not book), so their requests do not add up
 * against one spa's limit of 30 an hour.
 */
const spaFor = (n: number) =>
  db.select({ id: spas.id, slug: spas.slug }).from(spas).where(eq(spas.active, true)).orderBy(desc(spas.id)).limit(1).offset(n).get()!;
const eventsWhere = (...conditions: Parameters<typeof and>) =>
  db
    .select({ id: analyticsEvents.id })
    .from(analyticsEvents)
    .where(and(...conditions))
    .all();

test.describe('booking form as a mail cannon', () => {
  test('30 posts with victim+N@ from one client make 5 bookings and 10 mails, not 30 and 60', async () => {
    const from = newClient();
    const domain = `victim-${tag()}.example`;
    const spa = spaFor(0);
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let n = 0; n < 30; n++) {
      const answer = await postJson(from, '/api/bookings', { name: 'Victim', email: `victim+${n}@${domain}`, spaId: spa.id, message: `Spam number ${n}` });
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter ??= answer.headers['retry-after'];
    }
    // Five for the inbox (+tags folded); the rest refused.
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(
      db
        .select({ id: bookings.id })
        .from(bookings)
        .where(like(bookings.email, `%@${domain}`))
        .all(),
    ).toHaveLength(5);
    // The five receipts arrive, and no more.
    await expect.poll(async () => (await messagesToDomain(`@${domain}`)).length).toBe(5);
  });

  test('one client gets 10 requests an hour, whatever the addresses', async () => {
    const from = newClient();
    const spa = spaFor(1);
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++)
      statuses.push((await postJson(from, '/api/bookings', { name: 'Many', email: `person${n}-${tag()}@example.com`, spaId: spa.id })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429, 429]);
    // Another client is not affected.
    expect((await postJson(newClient(), '/api/bookings', { name: 'Other', email: `other-${tag()}@example.com`, spaId: spa.id })).status).toBe(201);
  });

  test('the form without JavaScript has the same per-client limit', async () => {
    const from = newClient();
    const spa = spaFor(2);
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++) {
      const form = new URLSearchParams({ name: 'Plain', email: `plain${n}-${tag()}@example.com`, spaId: String(spa.id), consent: 'on' });
      statuses.push((await postFrom(from, '/booking/request', form.toString(), 'application/x-www-form-urlencoded')).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
  });

  test('one spa gets 30 requests an hour, however many clients send them', async () => {
    // A spa of this test's own (not listed, so nothing else sees it): each
    // request is counted, then refused as "not listed" (422) without mail.
    const slug = `abuse-spa-${tag()}`;
    const city = db.select({ id: cities.id }).from(cities).orderBy(asc(cities.id)).limit(1).get()!;
    const { id } = db.insert(spas).values({ name: 'Abuse Test Spa', slug, cityId: city.id, active: false }).returning({ id: spas.id }).get();
    const clients = [newClient(), newClient(), newClient(), newClient()];
    const statuses: number[] = [];
    for (let n = 0; n < 31; n++)
      statuses.push((await postJson(clients[n % 4]!, '/api/bookings', { name: 'Crowd', email: `crowd${n}-${tag()}@example.com`, spaId: id })).status);
    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
    db.delete(spas).where(eq(spas.id, id)).run();
  });

  test("the client's receipt carries nothing the visitor wrote; the spa's mail does", async () => {
    const domain = `lure-${tag()}.example`;
    const spa = spaFor(3);
    const lure = 'Your account is locked - call 555-0100 now';
    const answer = await postJson(newClient(), '/api/bookings', {
      name: lure,
      email: `target@${domain}`,
      spaId: spa.id,
      message: `ATTACKER-TEXT visit evil.example ${lure}`,
    });
    expect(answer.status).toBe(201);
    await expect.poll(async () => (await messagesToDomain(`@${domain}`)).length).toBe(1);
    const receipt = decodeQuotedPrintable((await messagesToDomain(`@${domain}`))[0]!);
    expect(receipt).toContain('We received your request');
    expect(receipt).not.toContain('ATTACKER-TEXT');
    expect(receipt).not.toContain('evil.example');
    expect(receipt).not.toContain('locked');
    // The spa's owner (a known address) still reads the message.
    const owner = spaMailbox(spa.id);
    if (owner) {
      await expect
        .poll(async () => (await messagesToDomain(owner.toLowerCase())).some((raw) => decodeQuotedPrintable(raw).includes('ATTACKER-TEXT')))
        .toBe(true);
    }
  });
});

test.describe('other mail forms and +tags', () => {
  test('sign-in links: victim+N@ from many clients share one count of 5', async () => {
    const domain = `signin-${tag()}.example`;
    const statuses: number[] = [];
    for (let n = 0; n < 7; n++) statuses.push((await postJson(newClient(), '/api/auth/request', { email: `victim+${n}@${domain}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await messagesToDomain(`@${domain}`)).toHaveLength(5);
  });

  test('newsletter: victim+N@ get 3 confirmation mails an hour in all', async () => {
    const domain = `news-${tag()}.example`;
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) {
      const form = new URLSearchParams({ email: `victim+${n}@${domain}` });
      statuses.push((await postFrom(newClient(), '/newsletter', form.toString(), 'application/x-www-form-urlencoded')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    await expect.poll(async () => (await messagesToDomain(`@${domain}`)).length).toBe(3);
  });
});

test.describe('analytics', () => {
  const click = (sessionId: string) => ({ eventType: 'click', entityType: 'spa', entityId: 1, sessionId, metadata: { action: 'website' } });

  test('a flood from one client is cut at 60 events a minute, with 429 and Retry-After', async () => {
    const from = newClient();
    const session = `flood-${randomUUID()}`;
    const answers: Answer[] = [];
    for (let n = 0; n < 80; n++) answers.push(await postJson(from, '/api/analytics/event', click(session)));
    expect(answers.slice(0, 60).every((answer) => answer.status === 202)).toBe(true);
    expect(answers.slice(60).every((answer) => answer.status === 429)).toBe(true);
    expect(Number(answers[60]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(eventsWhere(eq(analyticsEvents.sessionId, session))).toHaveLength(60);
    // Another client still reports.
    expect((await postJson(newClient(), '/api/analytics/event', click(session))).status).toBe(202);
  });

  test('replayed views of one spa count once per client, whatever session id they claim', async () => {
    const from = newClient();
    const spa = spaFor(4);
    for (let n = 0; n < 20; n++) {
      const answer = await postJson(from, '/api/analytics/event', { eventType: 'view', entityType: 'spa', entityId: spa.id, sessionId: randomUUID() });
      expect(answer.status).toBe(202);
    }
    expect(eventsWhere(eq(analyticsEvents.entityId, String(spa.id)), eq(analyticsEvents.ipHash, clientHash(from)))).toHaveLength(1);
  });

  test('stores the referrer as its origin only, and the address only as a keyed hash', async () => {
    const from = newClient();
    const session = `referrer-${randomUUID()}`;
    const token = 'abcdefghijklmnopqrstuvwxyz234567';
    const answer = await postJson(from, '/api/analytics/event', {
      ...click(session),
      referrer: `${baseURL}/bookings/manage/${token}?x=1`,
      userAgent: 'Claimed/1.0',
    });
    expect(answer.status).toBe(202);
    const [row] = db.select().from(analyticsEvents).where(eq(analyticsEvents.sessionId, session)).all();
    expect(row).toMatchObject({ referrer: site.origin, userAgent: null, ipHash: clientHash(from) });
    // Not the unkeyed SHA-256 anyone could recompute for every IPv4 address.
    expect(row!.ipHash).not.toBe(createHash('sha256').update(analyticsSalt).update(from).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(from);
  });

  test('a visitor who clicks on from a manage page leaves no token in analytics_events', async ({ page }) => {
    const spa = spaFor(4);
    const email = `manage-${tag()}@example.com`;
    expect((await postJson(newClient(), '/api/bookings', { name: 'Referrer Test', email, spaId: spa.id })).status).toBe(201);
    const token = db.select({ manageToken: bookings.manageToken }).from(bookings).where(eq(bookings.email, email)).get()!.manageToken!;

    // The browser is this test's own client (../support/fixtures.ts): no earlier view of this spa from its address hides this one.
    await page.goto(`/bookings/manage/${token}`);
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/analytics/event') && r.request().method() === 'POST');
    await page.locator(`a[href="/spas/${spa.slug}"]`).first().click();
    const response = await sent;
    expect(response.status()).toBe(202);
    const posted = response.request().postDataJSON() as { sessionId: string; referrer?: string };
    // A token page sends no Referer at all (issue 23, item 10), not even its origin.
    expect(posted.referrer ?? '').toBe('');
    await expect.poll(() => eventsWhere(eq(analyticsEvents.sessionId, posted.sessionId)).length).toBeGreaterThan(0);
    expect(eventsWhere(like(analyticsEvents.referrer, `%${token}%`))).toHaveLength(0);
  });
});
