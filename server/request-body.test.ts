import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readCappedBody } from './request-body.ts';

describe('readCappedBody over a real connection', () => {
  it('answers 413 with Connection: close, so a keep-alive client never sends its next request into the closing socket', async () => {
    const server = createServer((req, res) => {
      void readCappedBody(req, res, 1024).then((body) => {
        if (body) res.end(`read ${body.length}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (bytes: number, chunked: boolean) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', method: 'POST', agent, headers: chunked ? {} : { 'Content-Length': bytes } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end(Buffer.alloc(bytes, 'a'));
      });
    try {
      for (const chunked of [false, true]) {
        expect(await post(64 * 1024, chunked)).toEqual({ status: 413, connection: 'close' });
        // The next request goes out on a new connection and is answered.
        expect(await post(10, chunked)).toMatchObject({ status: 200 });
      }
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers 408 and closes when the body has not arrived whole in its time; a body that has is read', async () => {
    const server = createServer((req, res) => {
      void readCappedBody(req, res, 1024, 0.3).then((body) => {
        if (body) res.end(`read ${body.length}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Sends `first` bytes, then the rest after `pauseMs`, unless the answer came first.
    const post = (path: string, first: string, pauseMs: number) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path, method: 'POST', agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (text: string) => (body += text));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        });
        req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
        req.write(first);
        setTimeout(() => req.end('rest'), pauseMs);
      });
    try {
      expect(await post('/owner/x', 'half ', 1000)).toEqual({
        status: 408,
        connection: 'close',
        body: 'The request did not arrive whole within 0.3 s. Please try again.',
      });
      const api = await post('/api/bookings', '{', 1000);
      expect(api.status).toBe(408);
      expect(JSON.parse(api.body)).toEqual({ error: { code: 'request_timeout', message: 'The request did not arrive whole within 0.3 s. Please try again.' } });
      expect(await post('/owner/x', 'half ', 50)).toMatchObject({ status: 200, body: 'read 9' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
