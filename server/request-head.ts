// Reading the head of a plain GET or HEAD request for the fast lane
// (server/fast-lane.ts, docs/decisions/0026). It is deliberately narrow: it
// accepts only the well-formed, bodiless HTTP/1.1 requests a browser or CDN
// sends for a page or an asset, and says "hand off" for everything else, so
// that Node's own parser (llhttp) judges every request that is in any way
// unusual, and answers the malformed ones with its 400 or 431.

/** What the fast lane needs to know of a request it may answer itself. */
export interface SimpleRequest {
  method: 'GET' | 'HEAD';
  /** The request target as sent: path and query. */
  target: string;
  host: string;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
  cookie: string | undefined;
  /** The client asked to close the connection after this answer. */
  close: boolean;
  /** Where the next request starts in the buffer. */
  end: number;
}

export type HeadReading = { kind: 'incomplete' } | { kind: 'handoff' } | ({ kind: 'request' } & SimpleRequest);

/** Node's own limit (--max-http-header-size): a longer head is its to refuse with 431. */
export const MAX_HEAD_BYTES = 16 * 1024;
const MAX_HEADER_LINES = 100;

const REQUEST_LINE = /^(GET|HEAD) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
// RFC 9110 field-name (a token) and a field-value without control characters.
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*$/;
// A body, a protocol switch or an expectation: Node handles those.
const HANDED_OFF_HEADERS = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect']);

/**
 * Reads one request head starting at `from`. "incomplete" while the blank line
 * that ends it has not arrived (and the head is still within the limit).
 */
export function readRequestHead(buffer: Buffer, from = 0): HeadReading {
  const stop = buffer.indexOf('\r\n\r\n', from, 'latin1');
  if (stop < 0) return buffer.length - from > MAX_HEAD_BYTES ? { kind: 'handoff' } : { kind: 'incomplete' };
  if (stop - from > MAX_HEAD_BYTES) return { kind: 'handoff' };
  const lines = buffer.toString('latin1', from, stop).split('\r\n');
  // A bare LF anywhere is a sign of a client (or an attacker) Node should judge.
  if (lines.length > MAX_HEADER_LINES + 1 || lines.some((line) => line.includes('\n'))) return { kind: 'handoff' };
  const requestLine = REQUEST_LINE.exec(lines[0]!);
  if (!requestLine) return { kind: 'handoff' };
  const found: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const header = HEADER_LINE.exec(lines[i]!);
    if (!header) return { kind: 'handoff' };
    const name = header[1]!.toLowerCase();
    if (HANDED_OFF_HEADERS.has(name)) return { kind: 'handoff' };
    // Two Hosts is a malformed request; two of the others, Node would join.
    if (name in found) {
      if (name === 'host') return { kind: 'handoff' };
      found[name] += name === 'cookie' ? `; ${header[2]}` : `, ${header[2]}`;
    } else found[name] = header[2]!;
  }
  if (!found.host) return { kind: 'handoff' };
  return {
    kind: 'request',
    method: requestLine[1] as 'GET' | 'HEAD',
    target: requestLine[2]!,
    host: found.host,
    acceptEncoding: found['accept-encoding'],
    ifNoneMatch: found['if-none-match'],
    cookie: found.cookie,
    close: /(?:^|,)\s*close\s*(?:,|$)/i.test(found.connection ?? ''),
    end: stop + 4,
  };
}
