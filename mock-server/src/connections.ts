import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { Config } from '@basekit/engine';

/** The server's config keys this file reads: every one a key of the whole server. */
type ConnectionLimits = Pick<Config, 'maxConnections' | 'headersTimeoutMs' | 'idleTimeoutMs'>;

/** Files the server may hold open besides its connections: its own, the journal's, ffmpeg's pipes. */
const RESERVED_FILES = 64;

/**
 * Requests one HTTP/2 connection may have under way at once (Node's default is 2^32 - 1), as nginx (128) and Go (250)
 * bound them: without it one connection could carry as many requests as the whole cap.
 */
export const MAX_STREAMS_PER_CONNECTION = 100;

/**
 * The cap on connections when the config sets none: half of what the open-files limit leaves (a connection may hold
 * a file open too, an upload or a download), at most 10,000; 1,000 where the limit cannot be read (not Linux).
 */
function defaultMaxConnections(): number {
  const limit = openFilesLimit();
  if (limit === undefined) return 1000;
  return Math.max(16, Math.min(10_000, Math.floor((limit - RESERVED_FILES) / 2)));
}

/** The process's open-files limit (the soft one, which Node raises to the hard one at start), on Linux. */
function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return line === undefined ? undefined : line === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line);
  } catch {
    return undefined;
  }
}

/** One open connection, as its TCP socket. */
interface Connection {
  socket: Socket;
  /** Requests under way on it. */
  busy: number;
  /** Since when it has had no request under way. */
  idleSince: number;
  /** Set once a request's headers came whole: the header timeout no longer applies to it. */
  used: boolean;
  /** Its HTTP/2 session, which the idle timeout closes with a GOAWAY (Node's keep-alive timeout is HTTP/1's). */
  session?: ServerHttp2Session;
  idleTimer?: NodeJS.Timeout;
}

/** A listener of the server: the HTTP one, or the HTTPS one (HTTP/2, and HTTP/1.1 beside it). */
type Listener = Server | Http2SecureServer;

/**
 * What a TLS socket, an HTTP/2 session's socket and the TCP socket below them share: a connection's two ends. (The
 * objects differ: requests over TLS see the TLS socket, HTTP/2 ones a stand-in for it.)
 */
const endsOf = (socket: Pick<Socket, 'localPort' | 'remoteAddress' | 'remotePort'>) =>
  `${socket.localPort} ${socket.remoteAddress} ${socket.remotePort}`;

/**
 * Keeps the connections of every listener of a server within its limits, so that sockets opened and left
 * idle can never take every file the process may open (past it, ordinary requests went unanswered) nor live long:
 * - at most `maxConnections` open, across listeners; at the cap a new connection takes the place of the one idle the
 *   longest (no request under way: kept alive after its answers, or still without a whole request, TLS handshakes
 *   included); when every connection has a request under way, the new one is closed at once;
 * - a connection that brings no whole request head within `headersTimeoutMs` of opening is closed (Node's own header
 *   timeout starts at a request's first byte, and never covered a TLS handshake), and so are the later requests of a
 *   kept-alive HTTP/1.1 one (Node's header timeout, checked every half of it rather than every 30 s);
 * - a connection without a request under way is closed after `idleTimeoutMs` (Node's keep-alive timeout for HTTP/1.1;
 *   a GOAWAY for HTTP/2, whose connections Node never closed).
 * `limits` is read for each new connection, so config changes apply to the next one.
 *
 * @example
 * const connections = new ConnectionLimiter(() => engine.project.config);
 * connections.watch(httpServer); // before it listens
 */
export class ConnectionLimiter {
  readonly #limits: () => ConnectionLimits;
  readonly #fallback = defaultMaxConnections();
  /** Every open connection of every listener, by its two ends. */
  readonly #open = new Map<string, Connection>();

  constructor(limits: () => ConnectionLimits) {
    this.#limits = limits;
  }

  /** Applies the limits to `server`'s connections; call it before the server listens. */
  watch(server: Listener): void {
    const { headersTimeoutMs, idleTimeoutMs } = this.#limits();
    // Node's HTTP/1.1 timeouts, on the HTTPS listener too (its HTTP/1.1 side reads the same properties).
    Object.assign(server, {
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: idleTimeoutMs,
      // Read when the server starts listening: 30 s by default, which let slow-header sockets live 60-90 s.
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs / 2),
    });
    server.on('connection', (socket: Socket) => this.#opened(server, socket));
    server.on(
      'request',
      (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) =>
        this.#requested(request, response),
    );
    if ('updateSettings' in server) {
      server.updateSettings({ maxConcurrentStreams: MAX_STREAMS_PER_CONNECTION });
      server.on('session', (session: ServerHttp2Session) => {
        const connection = session.socket && this.#open.get(endsOf(session.socket));
        if (connection) connection.session = session;
      });
    }
  }

  #opened(server: Listener, socket: Socket): void {
    const { maxConnections = this.#fallback, headersTimeoutMs, idleTimeoutMs } = this.#limits();
    Object.assign(server, { headersTimeout: headersTimeoutMs, keepAliveTimeout: idleTimeoutMs });
    if (this.#open.size >= maxConnections && !this.#closeIdlest()) {
      socket.destroy();
      return;
    }
    const ends = endsOf(socket);
    const connection: Connection = { socket, busy: 0, idleSince: performance.now(), used: false };
    this.#open.set(ends, connection);
    const headers = setTimeout(() => connection.used || socket.destroy(), headersTimeoutMs).unref();
    socket.once('close', () => {
      clearTimeout(headers);
      clearTimeout(connection.idleTimer);
      if (this.#open.get(ends) === connection) this.#open.delete(ends);
    });
  }

  #requested(request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse): void {
    const connection = this.#open.get(endsOf(request.socket));
    if (!connection) return;
    connection.used = true;
    connection.busy++;
    clearTimeout(connection.idleTimer);
    response.once('close', () => {
      connection.busy--;
      connection.idleSince = performance.now();
      const { session } = connection;
      if (session && connection.busy === 0)
        connection.idleTimer = setTimeout(() => session.close(), this.#limits().idleTimeoutMs).unref();
    });
  }

  /** Closes the connection idle the longest; false when every one has a request under way. */
  #closeIdlest(): boolean {
    let idlest: [string, Connection] | undefined;
    for (const entry of this.#open) {
      const { busy, idleSince } = entry[1];
      if (busy === 0 && (!idlest || idleSince < idlest[1].idleSince)) idlest = entry;
    }
    if (!idlest) return false;
    this.#open.delete(idlest[0]);
    idlest[1].socket.destroy();
    return true;
  }
}
