// Request bodies are read here, before the app sees them, and never past a cap
// (the caps: src/lib/front-routes.ts). The node adapter would otherwise hand
// Astro a stream, and a page's formData() reads all of it: one chunked post of
// a few hundred megabytes froze every other request and kept gigabytes. The
// one route that takes a large body (a photo upload) is not read here: its
// page reads it, capped, after checking who is asking (server/serve.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PREFIX, DEFAULT_BODY_SECONDS } from '#lib/front-routes.ts';

/**
 * Reads the whole body when it fits in `limit` bytes, declared or chunked.
 * When it does not, answers 413 at once and closes the connection: the rest
 * is never buffered. When it has not arrived whole `seconds` after this call
 * (made as the request's head is read), answers 408 and closes. Resolves null
 * when it answered (or the client went away), the body otherwise.
 */
export function readCappedBody(req: IncomingMessage, res: ServerResponse, limit: number, seconds = DEFAULT_BODY_SECONDS): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    refuseTooLarge(req, res, limit);
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanUp();
        refuseTooLarge(req, res, limit);
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanUp();
      resolve(Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanUp();
      resolve(null);
    };
    // Node's own limit (server.requestTimeout) is the longest any route allows: this body's is shorter.
    const timer = setTimeout(() => {
      cleanUp();
      refuseSlow(req, res, seconds);
      resolve(null);
    }, seconds * 1000);
    function cleanUp() {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('aborted', onGone);
    }
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('aborted', onGone);
  });
}

/** After a 413 the rest of the body is thrown away for at most this long, or this many bytes, then the connection is cut. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 8 * 1024 * 1024;

/** An API client, or one that asked for JSON: refusals are answered in the API's error shape. */
const asksForJson = (req: IncomingMessage) => (req.url ?? '').startsWith(API_PREFIX) || /json/i.test(String(req.headers.accept ?? ''));

/** What a refused body is answered with: JSON for the API and clients that ask for it, else a short page. nginx says the same (server/nginx-config.ts). */
export function tooLargeAnswer(limit: number, wantsJson: boolean): { type: string; body: string } {
  return wantsJson
    ? {
        type: 'application/json; charset=utf-8',
        body: JSON.stringify({ error: { code: 'payload_too_large', message: `The body may be at most ${limit} bytes.` } }),
      }
    : {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>Too large</title><p>That was more than we accept in one form (${Math.round(limit / 1024)} KB). Please go back and shorten it.</p></html>`,
      };
}

export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  refuseBody(req, res, 413, tooLargeAnswer(limit, asksForJson(req)));
}

/** A body that did not arrive whole in time: 408, and the connection closed, as Node's own request limit does. */
function refuseSlow(req: IncomingMessage, res: ServerResponse, seconds: number): void {
  const message = `The request did not arrive whole within ${seconds} s. Please try again.`;
  refuseBody(
    req,
    res,
    408,
    asksForJson(req)
      ? { type: 'application/json; charset=utf-8', body: JSON.stringify({ error: { code: 'request_timeout', message } }) }
      : { type: 'text/plain; charset=utf-8', body: message },
  );
}

/** Answers a request whose body is not read any further, and closes its connection after the answer. */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: number, { type, body }: { type: string; body: string }): void {
  req.pause();
  closeAfterAnswer(req, res);
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

/**
 * Closes the connection once the answer is out, for a request whose body
 * may not have been read (a 413, or a page that refused an upload before
 * reading it). Said in the answer too (Connection: close): a keep-alive client
 * would otherwise send its next request into this socket, and lose it to the
 * reset when we cut it. But not at once: a socket closed with unread bytes
 * sends a reset, and the client's system then drops the answer it had not
 * read yet. So, as nginx's lingering close does, we send FIN (Node would
 * destroy the socket here: it ends it instead), let Node throw away what
 * still arrives for a moment, and then cut the connection.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  // Before the head is written: it says Connection: close.
  res.shouldKeepAlive = false;
  const socket = req.socket;
  socket.destroySoon = () => socket.end();
  res.once('finish', () => {
    const readBefore = socket.bytesRead;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started >= LINGER_MS || socket.bytesRead - readBefore > LINGER_BYTES) socket.destroy();
    }, 25);
    timer.unref();
    socket.once('close', () => clearInterval(timer));
  });
}
