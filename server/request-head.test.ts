import { describe, expect, it } from 'vitest';
import { MAX_HEAD_BYTES, readRequestHead } from './request-head.ts';

const head = (...lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

describe('readRequestHead', () => {
  it('reads a browser GET: target, host, the headers the lane needs, and where the next request starts', () => {
    const bytes = Buffer.concat([
      head('GET /spas/harborlight?x=1 HTTP/1.1', 'Host: example.test', 'Accept-Encoding: gzip, br', 'If-None-Match: "abc"', 'Cookie: a=1', 'Cookie: b=2'),
      Buffer.from('GET /next HTTP/1.1\r\n'),
    ]);
    const reading = readRequestHead(bytes);
    expect(reading).toMatchObject({
      kind: 'request',
      method: 'GET',
      target: '/spas/harborlight?x=1',
      host: 'example.test',
      acceptEncoding: 'gzip, br',
      ifNoneMatch: '"abc"',
      cookie: 'a=1; b=2',
      close: false,
    });
    expect(reading.kind === 'request' && bytes.subarray(reading.end).toString()).toBe('GET /next HTTP/1.1\r\n');
  });

  it('reads a second request from where the first ended', () => {
    const bytes = Buffer.concat([head('GET /a HTTP/1.1', 'Host: x'), head('HEAD /b HTTP/1.1', 'Host: x', 'Connection: close')]);
    const first = readRequestHead(bytes);
    if (first.kind !== 'request') throw new Error('first request not read');
    expect(readRequestHead(bytes, first.end)).toMatchObject({ kind: 'request', method: 'HEAD', target: '/b', close: true });
  });

  it('waits for the rest of a head that has not arrived', () => {
    expect(readRequestHead(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n'))).toEqual({ kind: 'incomplete' });
  });

  it.each([
    ['a body', head('GET / HTTP/1.1', 'Host: x', 'Content-Length: 5')],
    ['a chunked body', head('GET / HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked')],
    ['a POST', head('POST / HTTP/1.1', 'Host: x')],
    ['HTTP/1.0', head('GET / HTTP/1.0', 'Host: x')],
    ['no Host', head('GET / HTTP/1.1', 'Accept: */*')],
    ['two Hosts', head('GET / HTTP/1.1', 'Host: x', 'Host: y')],
    ['an upgrade', head('GET / HTTP/1.1', 'Host: x', 'Upgrade: websocket')],
    ['an absolute target', head('GET http://x/ HTTP/1.1', 'Host: x')],
    ['a space in the target', head('GET /a b HTTP/1.1', 'Host: x')],
    ['a folded header', head('GET / HTTP/1.1', 'Host: x', 'Accept: a', ' b')],
    ['a control character in a value', head('GET / HTTP/1.1', 'Host: x', 'Accept: a\x01b')],
    ['a header name that is not a token', head('GET / HTTP/1.1', 'Host: x', 'Bad Name: 1')],
    ['a bare LF', Buffer.from('GET / HTTP/1.1\nHost: x\r\n\r\n')],
  ])('hands %s to Node', (_, bytes) => {
    expect(readRequestHead(bytes)).toEqual({ kind: 'handoff' });
  });

  it('hands a head longer than Node allows to Node (which answers 431), complete or not', () => {
    const long = `X-Long: ${'a'.repeat(MAX_HEAD_BYTES)}`;
    expect(readRequestHead(head('GET / HTTP/1.1', 'Host: x', long))).toEqual({ kind: 'handoff' });
    expect(readRequestHead(Buffer.from(`GET / HTTP/1.1\r\nHost: x\r\n${long}`))).toEqual({ kind: 'handoff' });
  });
});
