// The server's front door (docs/decisions/0026). It accepts the connections,
// answers the plain GET and HEAD requests for pre-rendered pages and assets
// whose bytes are in memory straight onto the socket, and hands every other
// connection, at its first request that is anything else, to Node's HTTP
// server for the rest of its life. Node's HTTP layer costs about 50 µs a
// request here, which held static serving to a quarter of nginx's speed; the
// lane's cost is a header scan and one write.
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { readRequestHead, type SimpleRequest } from './request-head.ts';

export interface LaneAnswer {
  status: number;
  /** "Name: value\r\n" each, as they go on the wire (without Date and Connection, which the lane adds). */
  headerLines: string;
  /** Null for a 304 or a HEAD. */
  body: Buffer | null;
}

export interface FastLaneOptions {
  /** Where every request the lane does not answer goes. */
  http: HttpServer;
  /** The answer to a simple request, or null to hand the connection to `http`. */
  answer(request: SimpleRequest): LaneAnswer | null;
  /** A request head must arrive whole within this (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (Node's keepAliveTimeout). */
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

export interface FastLane {
  readonly server: NetServer;
  /** Stop accepting and end the connections that are between requests; `done` when every connection has closed. */
  close(done: () => void): void;
  /** Cut every connection still open (the end of a graceful stop). */
  closeAll(): void;
}

// The Date header changes once a second: make it once a second.
let dateSecond = 0;
let dateText = '';
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** The status line and headers of an answer, as the bytes go out. */
export function formatHead(answer: LaneAnswer, keepAliveSeconds: number, close: boolean): string {
  const connection = close ? 'Connection: close\r\n\r\n' : `Connection: keep-alive\r\nKeep-Alive: timeout=${keepAliveSeconds}\r\n\r\n`;
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${answer.headerLines}Date: ${httpDate()}\r\n${connection}`;
}

export function createFastLane(options: FastLaneOptions): FastLane {
  const { http, answer, headersTimeoutMs, keepAliveTimeoutMs } = options;
  const keepAliveSeconds = Math.round(keepAliveTimeoutMs / 1000);
  // Sockets the lane still reads (not yet handed to Node): a stop ends them, as nothing is in flight on them.
  const laneSockets = new Set<Socket>();
  let closing = false;

  function handOff(socket: Socket, unread: Buffer, ownListeners: [string, Parameters<Socket['off']>[1]][]) {
    laneSockets.delete(socket);
    socket.setTimeout(0);
    // From here Node's HTTP server owns the socket: its timers, its back-pressure, its error answers.
    for (const [event, listener] of ownListeners) socket.off(event, listener);
    socket.pause();
    if (unread.length > 0) socket.unshift(unread);
    http.emit('connection', socket);
    socket.resume();
  }

  const server = createServer({ noDelay: true }, (socket) => {
    laneSockets.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    // A head that is slow to arrive (a byte every few seconds) is cut at the deadline, not kept alive by its trickle.
    let headDeadline: NodeJS.Timeout | null = null;
    const clearDeadline = () => {
      if (headDeadline) clearTimeout(headDeadline);
      headDeadline = null;
    };

    const onError = () => socket.destroy();
    const onIdle = () => {
      if (pending.length === 0) socket.destroy();
    };
    const onDrain = () => socket.resume();
    socket.on('close', () => {
      clearDeadline();
      laneSockets.delete(socket);
    });
    socket.on('error', onError);
    socket.setTimeout(keepAliveTimeoutMs);
    socket.on('timeout', onIdle);
    socket.on('drain', onDrain);

    const onData = (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let from = 0;
      while (from < pending.length) {
        const head = readRequestHead(pending, from);
        if (head.kind === 'incomplete') break;
        const answered = head.kind === 'request' && !closing ? answerOrNull(head) : null;
        if (head.kind !== 'request' || !answered) {
          clearDeadline();
          return handOff(socket, pending.subarray(from), [
            ['data', onData],
            ['error', onError],
            ['timeout', onIdle],
            ['drain', onDrain],
          ]);
        }
        const close = head.close;
        const bytes = formatHead(answered, keepAliveSeconds, close);
        if (answered.body && head.method === 'GET') {
          // One writev of both; copying the body behind the head would cost a copy of every page.
          socket.cork();
          socket.write(bytes, 'latin1');
          socket.write(answered.body);
          socket.uncork();
        } else socket.write(bytes, 'latin1');
        from = head.end;
        if (close) {
          clearDeadline();
          socket.off('data', onData);
          socket.end();
          return;
        }
      }
      pending = from >= pending.length ? Buffer.alloc(0) : pending.subarray(from);
      if (pending.length === 0) clearDeadline();
      else headDeadline ??= setTimeout(() => requestTimedOut(socket), headersTimeoutMs);
      // A client that sends faster than it reads waits for its answers to drain.
      if (socket.writableNeedDrain) socket.pause();
    };
    socket.on('data', onData);
  });
  server.maxConnections = options.maxConnections;
  // Node starts the HTTP server's request timers (headersTimeout,
  // requestTimeout) when it listens; this one never listens itself.
  server.on('listening', () => http.emit('listening'));

  function requestTimedOut(socket: Socket) {
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
  }

  // Whatever goes wrong in making an answer, Node's side answers it (with its 500 if need be).
  function answerOrNull(request: SimpleRequest): LaneAnswer | null {
    try {
      return answer(request);
    } catch {
      return null;
    }
  }

  return {
    server,
    close(done) {
      closing = true;
      server.close(() => done());
      // Between requests on the lane: nothing in flight, nothing to lose.
      for (const socket of laneSockets) socket.end();
      http.closeIdleConnections();
    },
    closeAll() {
      for (const socket of laneSockets) socket.destroy();
      http.closeAllConnections();
    },
  };
}
