import { createAdaptorServer } from '@hono/node-server';
import { createSecureServer } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { urlHost } from './addresses.js';
import type { TlsSetup } from './certificate.js';

/** The adaptor's fetch callback, the same one the HTTP side serves (one engine, one state). */
type FetchCallback = Parameters<typeof createAdaptorServer>[0]['fetch'];

/** The HTTPS side of a running server. */
export interface HttpsSide {
  /** `https://HOST:PORT` */
  url: string;
  /** Stops listening and ends every connection, HTTP/2 sessions included. */
  close(): Promise<void>;
}

/**
 * Serves `fetch` over TLS on `port` (0: a free one): HTTP/2 to clients that offer it in the handshake (ALPN), HTTP/1.1
 * to the others, from the one callback the HTTP side serves too.
 *
 * @example
 * const https = await startHttps(handler, await tlsSetup({ host, folder }), 3443, '127.0.0.1');
 */
export async function startHttps(fetch: FetchCallback, tls: TlsSetup, port: number, host: string): Promise<HttpsSide> {
  const server = createAdaptorServer({
    fetch,
    overrideGlobalObjects: false,
    createServer: createSecureServer,
    serverOptions: { key: tls.key, cert: tls.cert, allowHTTP1: true },
  });
  // An HTTP/2 server has no closeAllConnections: its sockets are kept to be ended at close.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `https://${urlHost(address.address)}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
