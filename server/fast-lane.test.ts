import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFastLane, type FastLane } from './fast-lane.ts';

// Behind the lane, a Node server that says who answered and what body it read.
function nodeServer(): HttpServer {
  const http = createHttpServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.end(`node ${req.method} ${req.url} ${bytes}`));
  });
  http.keepAliveTimeout = 5_000;
  return http;
}

let lane: FastLane | null = null;

async function startLane(options: { headersTimeoutMs?: number; keepAliveTimeoutMs?: number } = {}) {
  const http = nodeServer();
  lane = createFastLane({
    http,
    // The lane answers GET /hot (and HEAD) itself; everything else is Node's.
    answer: (request) =>
      request.target === '/hot' ? { status: 200, headerLines: 'Content-Length: 4\r\n', body: request.method === 'GET' ? Buffer.from('lane') : null } : null,
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 5_000,
    maxConnections: 100,
  });
  await new Promise<void>((resolve) => lane!.server.listen(0, '127.0.0.1', resolve));
  return (lane.server.address() as AddressInfo).port;
}

afterEach(async () => {
  if (!lane) return;
  const closing = lane;
  lane = null;
  closing.closeAll();
  await new Promise<void>((resolve) => closing.close(resolve));
});

/** Sends each part in turn (with a pause after it) and returns all the socket received until it closed. */
async function exchange(port: number, parts: [string, number][]): Promise<{ text: string; socket: Socket }> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  for (const [part, pause] of parts) {
    socket.write(part);
    await delay(pause);
  }
  await closed;
  return { text, socket };
}

const bodies = (text: string) =>
  text
    .split('\r\n\r\n')
    .slice(1)
    .map((part) => part.split('HTTP/1.1')[0]);

describe('the fast lane', () => {
  it('answers its requests itself and hands a connection to Node at its first other request, pipelined or not', async () => {
    const port = await startLane();
    const { text } = await exchange(port, [
      ['GET /hot HTTP/1.1\r\nHost: x\r\n\r\nHEAD /hot HTTP/1.1\r\nHost: x\r\n\r\n' + 'POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nab', 50],
      ['c', 50],
      ['GET /hot HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 0],
    ]);
    expect(bodies(text)).toEqual(['lane', '', 'node POST /form 3', 'node GET /hot 0']);
    expect(text.match(/^Connection: keep-alive$/gim)?.length).toBe(3);
  });

  it('leaves a malformed request to Node, which refuses it with 400', async () => {
    const port = await startLane();
    const { text } = await exchange(port, [['GET /hot HTTP/1.1\r\nHost: x\r\n\r\nGET /a b c HTTP/1.1\r\nHost: x\r\n\r\n', 0]]);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(text).toMatch(/HTTP\/1\.1 400 Bad Request/);
  });

  it('closes the connection after an answer when the client asks', async () => {
    const port = await startLane();
    const { text } = await exchange(port, [['GET /hot HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 0]]);
    expect(text).toMatch(/^Connection: close$/m);
    expect(bodies(text)).toEqual(['lane']);
  });

  it('cuts a head that trickles in past the deadline with 408', async () => {
    const port = await startLane({ headersTimeoutMs: 300 });
    const started = Date.now();
    const { text } = await exchange(port, [
      ['GET /hot HTTP/1.1\r\n', 150],
      ['Host: x\r\n', 150],
      ['X-A: 1\r\n', 150],
      ['X-B: 1\r\n', 150],
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('closes a connection left idle after the keep-alive time', async () => {
    const port = await startLane({ keepAliveTimeoutMs: 200 });
    const started = Date.now();
    const { text } = await exchange(port, [['GET /hot HTTP/1.1\r\nHost: x\r\n\r\n', 0]]);
    expect(bodies(text)).toEqual(['lane']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('on close, stops accepting, ends idle connections and reports done when the last one has gone', async () => {
    const port = await startLane();
    const idle = exchange(port, [['GET /hot HTTP/1.1\r\nHost: x\r\n\r\n', 0]]);
    await delay(100);
    let done = false;
    const closing = lane!;
    lane = null;
    const closed = new Promise<void>((resolve) =>
      closing.close(() => {
        done = true;
        resolve();
      }),
    );
    expect(bodies((await idle).text)).toEqual(['lane']);
    await closed;
    expect(done).toBe(true);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => resolve(true));
      socket.on('connect', () => resolve(false));
    });
    expect(refused).toBe(true);
  });
});
