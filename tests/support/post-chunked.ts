// A client that sends a large body the way an attacker or a slow phone does:
// chunked, a piece at a time, reading the answer while it writes. A server that
// refuses the body answers 413 and then closes the connection; writing into it
// afterwards fails, which is expected once the answer came (Playwright's own
// request client reports that as EPIPE instead of the 413).
import { request as httpRequest } from 'node:http';
import { baseURL } from './env.ts';

export interface ChunkedResult {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** Bytes written before the answer came. */
  sent: number;
}

/**
 * POSTs a body with chunked transfer encoding (no Content-Length), a chunk at
 * a time, stopping as soon as an answer arrives. The body is either `total`
 * bytes of filler or the given bytes. `beforeRest` runs once, after the first
 * chunk, while the body is still open.
 */
export function postChunked(
  url: string,
  body: number | Buffer,
  options: { contentType?: string; chunk?: number; headers?: Record<string, string>; beforeRest?: () => Promise<void> } = {},
): Promise<ChunkedResult> {
  const chunkSize = options.chunk ?? 16 * 1024;
  const filler = Buffer.alloc(chunkSize, 'a=&');
  const total = typeof body === 'number' ? body : body.length;
  const pieceAt = (offset: number) => (typeof body === 'number' ? filler : body.subarray(offset, offset + chunkSize));
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'Content-Type': options.contentType ?? 'application/x-www-form-urlencoded', Origin: baseURL, ...options.headers },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      // Done when the answer is read and the server has closed the connection.
      const closed = new Promise<void>((done) => (req.destroyed ? done() : req.once('close', () => done())));
      res.on('end', () => void closed.then(() => resolve({ status: res.statusCode!, body, headers: res.headers, sent })));
      res.on('error', reject);
    });
    // Writing into a connection the server closed fails: expected, once it answered.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = async () => {
      let first = true;
      while (sent < total && !answered && !req.destroyed) {
        const piece = pieceAt(sent);
        const ok = req.write(piece);
        sent += piece.length;
        // A real client reads while it sends: let the answer in between writes.
        await new Promise((resolve) => setImmediate(resolve));
        if (first && options.beforeRest) {
          first = false;
          await options.beforeRest();
        }
        // Only while the buffer is still full: 'drain' may have come during the yield above, and would not come again.
        if (!ok && req.writableNeedDrain) await new Promise<void>((done) => req.once('drain', done).once('close', done));
      }
      if (!answered && !req.destroyed) req.end();
    };
    pump().catch(() => {});
  });
}

/** A form as the bytes and Content-Type a browser would send for it. */
export async function encodeForm(form: FormData): Promise<{ bytes: Buffer; contentType: string }> {
  const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
