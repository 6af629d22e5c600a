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
});
