// Running it for real (issue 15, first part): health and readiness for a load
// balancer, one JSON log line per request without tokens or addresses, a
// request id sent back, and a stop that ends in time even with a slow client.
import { expect, test } from '@playwright/test';
import { connect } from 'node:net';
import { copyPort, startServerCopy, type ServerCopy } from '../support/server-copy.ts';

test.describe('health and readiness', () => {
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
  test.describe.configure({ mode: 'serial' });
  let server: ServerCopy;
  test.beforeAll(async () => {
    server = await startServerCopy(copyPort(52), { REQUEST_LOG: 'on' });
  });
  test.afterAll(() => server?.stop());

  test('logs one JSON line per request, without tokens or e-mail addresses', async ({ playwright }) => {
    const api = await playwright.request.newContext({ baseURL: server.url });
    try {
      const token = 'k3j4h5g6f7d8s9a2q2w2e3r4t5y6u7i2';
      const response = await api.get(`/bookings/manage/${token}?email=ana.lopez@example.com`);
      const id = response.headers()['x-request-id'];
      await expect.poll(() => server.output().includes(`"id":"${id}"`)).toBe(true);
      const line = server.output().split('\n').find((entry) => entry.includes(`"id":"${id}"`))!;
      const entry = JSON.parse(line);
      expect(entry).toMatchObject({ scope: 'http', method: 'GET', path: '/bookings/manage/:token', status: response.status() });
      expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(entry.ms).toEqual(expect.any(Number));
      expect(server.output()).not.toContain(token);
      expect(server.output()).not.toContain('ana.lopez');
    } finally {
      await api.dispose();
    }
  });

  test('SIGTERM ends the process within 10 s although a client trickles a byte at a time', async () => {
    const port = Number(new URL(server.url).port);
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
      const exited = new Promise<number>((resolve) => server.child.once('exit', () => resolve(performance.now())));
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      const exitedAt = await Promise.race([exited, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 12_000))]);
      expect(exitedAt - signalled).toBeLessThan(10_000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});
