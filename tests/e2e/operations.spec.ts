// Running it for real (issue 15, first part): health and readiness for a load
// balancer, one JSON log line per request without tokens or addresses, a
// request id sent back, and a stop that ends in time even with a slow client.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { and, asc, eq, isNull, like, sql } from 'drizzle-orm';
import { bookings, mailQueue, spas } from '#db/schema.ts';
import { withTablesAt } from '../support/database.ts';
import { baseURL, e2eDir } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { readOutbox } from '../support/mail.ts';
import { siteProcessEnv, siteSettings } from '../support/site.ts';
import { askServerCopy, serverCopyForBlock } from '../support/e2e-steps.ts';
import { copyPort, startServerCopy } from '../support/server-copy.ts';

test.describe('health and readiness', () => {
  // An operator on the machine itself: no X-Forwarded-For (the fixtures' client
  // address would make these requests an outsider's), so the server sees
  // 127.0.0.1 and /readyz gives its detail, as before. What an outside address
  // is told: security-serving.spec.ts (item 9).
  test.use({ extraHTTPHeaders: {} });

  test('/healthz says the process answers; /readyz what an operator needs, nothing secret', async ({ request }) => {
    const live = await request.get('/healthz');
    expect(live.status()).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect(live.headers()['cache-control']).toBe('no-store');

    const ready = await request.get('/readyz');
    expect(ready.status()).toBe(200);
    const body = await ready.json();
    expect(body).toMatchObject({ ready: true, database: { ok: true }, build: { id: ready.headers()['x-site-build'] }, lastRebuild: { ok: true } });
    expect(body.mailQueue).toMatchObject({ waiting: expect.any(Number), failed: expect.any(Number) });
    expect(body.mailQueue.oldestWaitingSeconds === null || typeof body.mailQueue.oldestWaitingSeconds === 'number').toBe(true);
    expect(body.memory).toEqual({
      rssMb: expect.any(Number),
      heapTotalMb: expect.any(Number),
      heapUsedMb: expect.any(Number),
      externalMb: expect.any(Number),
      buildsLoaded: 1,
    });
    expect(body.memory.rssMb).toBeGreaterThan(body.memory.heapTotalMb);
    expect(body.memory.heapTotalMb).toBeGreaterThanOrEqual(body.memory.heapUsedMb);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/@|smtp|secret|salt|password/i);
  });

  test('every answer carries its own request id', async ({ request }) => {
    const ids = new Set<string>();
    for (const path of ['/', '/api/cities', '/no-such-page', '/healthz']) {
      const id = (await request.get(path)).headers()['x-request-id'];
      expect(id, path).toMatch(/^[0-9a-f]{16}$/);
      ids.add(id!);
    }
    expect(ids.size).toBe(4);
  });
});

test.describe('with its own server', () => {
  const server = serverCopyForBlock(52, { REQUEST_LOG: 'on' });

  test('logs one JSON line per request, without tokens or e-mail addresses', async ({ playwright }) => {
    await askServerCopy(playwright, server(), async (api) => {
      const token = 'k3j4h5g6f7d8s9a2q2w2e3r4t5y6u7i2';
      const response = await api.get(`/bookings/manage/${token}?email=ana.lopez@example.com`);
      const id = response.headers()['x-request-id'];
      await expect.poll(() => server().output().includes(`"id":"${id}"`)).toBe(true);
      const line = server()
        .output()
        .split('\n')
        .find((entry) => entry.includes(`"id":"${id}"`))!;
      const entry = JSON.parse(line);
      expect(entry).toMatchObject({ scope: 'http', method: 'GET', path: '/bookings/manage/:token', status: response.status() });
      expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(entry.ms).toEqual(expect.any(Number));
      expect(server().output()).not.toContain(token);
      expect(server().output()).not.toContain('ana.lopez');
    });
  });

  test('SIGTERM ends the process within 10 s although a client trickles a byte at a time', async () => {
    const port = Number(new URL(server().url).port);
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    // A request that never finishes: one header byte every second.
    const header = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(60);
    let at = 0;
    const trickle = setInterval(() => {
      if (at < header.length && !socket.destroyed) socket.write(header[at++]!);
    }, 1000);
    try {
      // The request has begun and is far from whole.
      await expect.poll(() => at).toBeGreaterThan(1);
      const exited = new Promise<number>((resolve) => server().child.once('exit', () => resolve(performance.now())));
      const signalled = performance.now();
      server().child.kill('SIGTERM');
      const exitedAt = await Promise.race([exited, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 12_000))]);
      expect(exitedAt - signalled).toBeLessThan(10_000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});

test.describe('a restart under load', () => {
  // Bookings stream in from 8 clients; the server gets SIGTERM (as systemd's
  // restart sends it) and a new process starts on the same port and database
  // once the old one has exited. A client that gets no answer tries again, as
  // the booking form lets a visitor do. Every booking answered 201, before,
  // during or after, must be in the database once, with its two messages queued
  // and then sent: nothing acknowledged is lost.
  test('loses no acknowledged booking', async () => {
    test.setTimeout(120_000);
    const port = copyPort(53);
    const settings = { TRUST_PROXY: '1', BACKGROUND_JOBS: 'on' };
    let server = await startServerCopy(port, settings);
    const { dir } = server;
    const origin = server.url;
    // Spread over every spa: each spa takes a limited number of requests an hour.
    const spaIds = withTablesAt(server.databasePath, (db) =>
      db.select({ id: spas.id }).from(spas).where(eq(spas.active, true)).orderBy(asc(spas.id)).all(),
    ).map((row) => row.id);
    const acknowledged: { id: number; email: string; after: boolean }[] = [];
    const refused: string[] = [];
    const failed: string[] = [];
    let restarted = false;
    let limited = 0;
    let stop = false;
    let n = 0;
    const client = async (c: number) => {
      while (!stop) {
        const k = n++;
        const email = `restart-${k}@example.com`;
        try {
          const response = await fetch(`${origin}/api/bookings`, {
            method: 'POST',
            // Behind a proxy (TRUST_PROXY=1) a browser's Origin is the public one, SITE_URL.
            headers: { 'Content-Type': 'application/json', Origin: baseURL, 'X-Forwarded-For': `10.53.${c}.${k % 250}` },
            body: JSON.stringify({ name: `Restart ${k}`, email, spaId: spaIds[k % spaIds.length] }),
          });
          const body = await response.text();
          if (response.status === 201) acknowledged.push({ id: (JSON.parse(body) as { id: number }).id, email, after: restarted });
          else if (response.status === 429) limited++;
          else failed.push(`${response.status} ${body.slice(0, 80)}`);
        } catch (error) {
          // No answer (the old process stopped accepting, the new one is not up yet): not acknowledged, tried again.
          refused.push(error instanceof Error ? String((error.cause as { code?: string } | undefined)?.code ?? error.message) : String(error));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, c) => client(c));
    // Waits for the load to get somewhere; says how far it got when it does not.
    const until = async (condition: () => boolean) => {
      for (const started = performance.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 50))) {
        if (performance.now() - started > 45_000) {
          throw new Error(
            `no progress: ${acknowledged.length} acknowledged, ${limited} rate-limited, failed: ${failed.slice(0, 3).join('; ')}; no answer: ${refused.slice(0, 3).join('; ')} (${n} sent)`,
          );
        }
      }
    };
    try {
      await until(() => acknowledged.length > 20);
      const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      await exited;
      expect(performance.now() - signalled).toBeLessThan(10_000);
      server = await startServerCopy(port, settings, { dir });
      restarted = true;
      await until(() => acknowledged.filter((booking) => booking.after).length > 20);
    } catch (error) {
      stop = true;
      await Promise.all(clients);
      server.stop();
      throw error;
    }
    stop = true;
    await Promise.all(clients);
    try {
      expect(failed).toEqual([]);
      const stored = withTablesAt(server.databasePath, (db) =>
        db.select({ id: bookings.id, email: bookings.email }).from(bookings).where(like(bookings.email, 'restart-%')).all(),
      );
      const byId = new Map(stored.map((row) => [row.id, row.email]));
      const lost = acknowledged.filter((booking) => byId.get(booking.id) !== booking.email);
      expect(lost).toEqual([]);
      expect(new Set(acknowledged.map((booking) => booking.id)).size).toBe(acknowledged.length);
      // Their mail: queued with the booking, sent by whichever process was running.
      await expect
        .poll(
          () =>
            withTablesAt(server.databasePath, (db) =>
              db
                .select({ id: mailQueue.id })
                .from(mailQueue)
                .where(and(isNull(mailQueue.sentAt), like(sql`json_extract(${mailQueue.message}, '$.to')`, 'restart-%')))
                .all(),
            ).length,
          { timeout: 30_000 },
        )
        .toBe(0);
      test.info().annotations.push({
        type: 'figures',
        description: `restart under load: ${acknowledged.length} acknowledged (${acknowledged.filter((b) => b.after).length} after the restart), ${refused.length} attempts without an answer, ${limited} rate-limited, 0 lost`,
      });
    } finally {
      server.stop();
    }
  });
});

test.describe('npm start on another port, without SITE_URL', () => {
  // Issue 26, item 1: every link (mail, canonical, sitemap.xml, robots.txt)
  // said http://localhost:4321 on any other port. A fresh folder, as a fresh
  // clone has: `npm start` migrates, seeds, builds for where it listens, serves.
  test('links in mail, canonical addresses, sitemap.xml and robots.txt name where the server listens, and it says so', async () => {
    test.setTimeout(240_000);
    const port = copyPort(54);
    const dir = mkdtempSync(join(e2eDir, 'start-'));
    const settings = siteSettings(dir, port, { REQUEST_LOG: 'off' });
    // Everything of the test site's but its public origin.
    const { SITE_URL: _unset, ...env } = siteProcessEnv(settings);
    const child = spawn(process.execPath, ['server/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const origin = `http://localhost:${port}`;
    try {
      await expect.poll(() => output, { timeout: 220_000, intervals: [500] }).toContain('listening on');
      expect(output).toContain(`SITE_URL is not set: links in mail and pages use ${origin}, where the server listens`);
      const at = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((response) => response.text());
      expect(await at('/cities/irvine')).toContain(`<link rel="canonical" href="${origin}/cities/irvine"`);
      expect(await at('/sitemap.xml')).toContain(`<loc>${origin}/`);
      expect(await at('/robots.txt')).toContain(`Sitemap: ${origin}/sitemap.xml`);
      const email = `start-${Date.now()}@example.com`;
      const asked = await fetch(`http://127.0.0.1:${port}/api/auth/request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin },
        body: JSON.stringify({ email }),
      });
      expect(asked.status).toBe(200);
      await expect.poll(() => readOutbox(settings.MAIL_OUTBOX).find((mail) => mail.to.includes(email))?.text ?? '').toContain(`${origin}/auth/confirm?`);
      expect(readOutbox(settings.MAIL_OUTBOX).find((mail) => mail.to.includes(email))!.text).not.toContain('localhost:4321');
    } finally {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  });
});
