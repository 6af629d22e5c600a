// Request bodies are read here, before the app sees them, and never past a cap.
// The node adapter would otherwise hand Astro a stream of any length (its
// default limit is 1 GiB), and a page's formData() reads all of it: one chunked
// post of a few hundred megabytes froze every other request and kept gigabytes.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Forms and JSON: the largest real one (a booking request) is under 4 KB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * The one exception: a listing's photo upload (src/pages/owner/spas/[id]/photos.astro)
 * takes a 10 MB picture, plus the form around it. Only that path, only POST;
 * the page itself refuses files over 10 MB with its own message.
 */
export const PHOTO_UPLOAD_BODY_LIMIT = 10 * 1024 * 1024 + DEFAULT_BODY_LIMIT;
const PHOTO_UPLOAD_PATH = /^\/owner\/spas\/[1-9]\d{0,9}\/photos(?:\?|$)/;

/** The cap for a request's body, in bytes; 0 for methods that carry none. */
export function bodyLimitFor(method: string | undefined, url = ''): number {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 0;
  return method === 'POST' && PHOTO_UPLOAD_PATH.test(url) ? PHOTO_UPLOAD_BODY_LIMIT : DEFAULT_BODY_LIMIT;
}

/**
 * Reads the whole body when it fits in `limit` bytes, declared or chunked.
 * When it does not, answers 413 at once and closes the connection: the rest
 * is never buffered. Resolves null when it answered (or the
 * client went away), the body otherwise.
 */
export function readCappedBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer | null> {
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
    function cleanUp() {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('aborted', onGone);
    }
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('aborted', onGone);
  });
}

/** After a 413 the rest of the body is thrown away for at most this long, or this many bytes, then the connection is cut. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 8 * 1024 * 1024;

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number) {
  req.pause();
  const wantsJson = (req.url ?? '').startsWith('/api/') || /json/i.test(String(req.headers.accept ?? ''));
  const body = wantsJson
    ? JSON.stringify({ error: { code: 'payload_too_large', message: `The body may be at most ${limit} bytes.` } })
    : `<!doctype html><html lang="en"><meta charset="utf-8"><title>Too large</title><p>That was more than we accept in one form (${limit / 1024} KB). Please go back and shorten it.</p></html>`;
  // Said in the answer too: a keep-alive client would otherwise send its next
  // request into this socket, and lose it to the reset when we cut it below.
  res.shouldKeepAlive = false;
  res.writeHead(413, {
    'Content-Type': wantsJson ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  // The connection closes once the answer is out, but not at once: a socket
  // closed with unread bytes sends a reset, and the client's system then drops
  // the 413 it had not read yet. So, as nginx's lingering close does, we send
  // FIN (Node would destroy the socket here: it ends it instead), let Node
  // throw away what still arrives for a moment, and then cut the connection.
  const socket = req.socket;
  socket.destroySoon = () => socket.end();
  res.end(body);
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
