import { readFileSync } from 'node:fs';
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '@basekit/engine';

/** The server's config keys this file reads (issue 24): every one a key of the whole server. */
export type ConnectionLimits = Pick<Config, 'maxConnections' | 'headersTimeoutMs' | 'idleTimeoutMs'>;

/** Files the server may hold open besides its connections: its own, the journal's, ffmpeg's pipes. */
const RESERVED_FILES = 64;

/**
 * The cap on connections when the config sets none: half of what the open-files limit leaves (a connection may hold
 * a file open too, an upload or a download), at most 10,000; 1,000 where the limit cannot be read (not Linux).
 */
export function defaultMaxConnections(): number {
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

/**
 * The options of Node's server for these limits: the header timeout, the kept-alive idle timeout, and how often Node
 * looks for connections past the header timeout (every 30 s by default, which let idle connections live 60-90 s).
 */
export function serverOptions({ headersTimeoutMs, idleTimeoutMs }: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: headersTimeoutMs,
    keepAliveTimeout: idleTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, headersTimeoutMs / 2),
  };
}

/**
 * Caps the server's open connections at `maxConnections`, so that sockets opened and left idle can never take every
 * file the process may open (past it, ordinary requests went unanswered). At the cap a new connection takes the place
 * of the one idle the longest (no request under way: kept alive after its answers, or still without a whole
 * request); when every connection has a request under way, the new one is closed at once. `limits` is read for each
 * new connection, so config changes apply to the next one.
 */
export function limitConnections(server: Server, limits: () => ConnectionLimits): void {
  const fallback = defaultMaxConnections();
  /** Every open connection: the requests under way on it, and since when it has had none. */
  const open = new Map<Socket, { busy: number; idleSince: number }>();
  server.on('connection', (socket: Socket) => {
    const { maxConnections = fallback, headersTimeoutMs, idleTimeoutMs } = limits();
    server.headersTimeout = headersTimeoutMs;
    server.keepAliveTimeout = idleTimeoutMs;
    if (open.size >= maxConnections && !closeIdlest(open)) {
      socket.destroy();
      return;
    }
    open.set(socket, { busy: 0, idleSince: performance.now() });
    socket.once('close', () => open.delete(socket));
    // Node's header timeout starts at a request's first byte: a connection that sends none is closed by this one
    // (Node closes a socket whose timeout passes with nothing else listening), which each request lifts.
    socket.setTimeout(headersTimeoutMs);
  });
  server.on('request', (request, response) => {
    request.socket.setTimeout(0);
    const connection = open.get(request.socket);
    if (!connection) return;
    connection.busy++;
    response.once('close', () => {
      connection.busy--;
      connection.idleSince = performance.now();
    });
  });
}

/** Closes the connection idle the longest; false when every one has a request under way. */
function closeIdlest(open: Map<Socket, { busy: number; idleSince: number }>): boolean {
  let idlest: Socket | undefined;
  let since = Number.POSITIVE_INFINITY;
  for (const [socket, { busy, idleSince }] of open) {
    if (busy === 0 && idleSince < since) [idlest, since] = [socket, idleSince];
  }
  if (!idlest) return false;
  open.delete(idlest);
  idlest.destroy();
  return true;
}
