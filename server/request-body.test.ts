import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { UPLOAD_FORM_LIMIT } from '#lib/server/photos/actions.ts';
import { bodyLimitFor, DEFAULT_BODY_LIMIT, PHOTO_UPLOAD_BODY_LIMIT, readCappedBody } from './request-body.ts';

describe('bodyLimitFor', () => {
  it('caps every form and JSON body at 64 KiB, and reads none on GET', () => {
    expect(bodyLimitFor('POST', '/api/bookings')).toBe(64 * 1024);
    expect(bodyLimitFor('POST', '/owner/spas/7')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('GET', '/owner/spas/7/photos')).toBe(0);
  });

  it('makes one exception: POST to a listing photo page may carry a 10 MB picture', () => {
    expect(PHOTO_UPLOAD_BODY_LIMIT).toBeGreaterThan(10 * 1024 * 1024);
    // The server's cap and the page's own reading limit are the same number.
    expect(PHOTO_UPLOAD_BODY_LIMIT).toBe(UPLOAD_FORM_LIMIT);
    expect(bodyLimitFor('POST', '/owner/spas/7/photos')).toBe(PHOTO_UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor('POST', '/owner/spas/7/photos?x=1')).toBe(PHOTO_UPLOAD_BODY_LIMIT);
  });

  it('does not stretch the exception to look-alike paths or other methods', () => {
    for (const url of [
      '/owner/spas/7/photos/x',
      '/owner/spas/7/photosx',
      '/owner/spas/abc/photos',
      '/owner/spas/0/photos',
      '/api/owner/spas/7/photos',
      '//owner/spas/7/photos',
      '/owner/spas/7/../../api/bookings/photos',
    ]) {
      expect(bodyLimitFor('POST', url), url).toBe(DEFAULT_BODY_LIMIT);
    }
    expect(bodyLimitFor('PUT', '/owner/spas/7/photos')).toBe(DEFAULT_BODY_LIMIT);
  });
});

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
