import { createAdaptorServer } from '@hono/node-server';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { urlHost } from './addresses.js';
import { tlsSetup, type ServedCertificate } from './certificate.js';
import { fetchTrustingOwnCa } from './own-fetch.js';

/** The adaptor's fetch callback, the same one the HTTP side serves (one engine, one state). */
export type FetchCallback = Parameters<typeof createAdaptorServer>[0]['fetch'];

/** The HTTPS side of a running server. */
interface HttpsSide {
  /** `https://HOST:PORT` */
  url: string;
  /** Stops listening and ends every connection, HTTP/2 sessions included. */
  close(): Promise<void>;
}

/** The HTTPS side before it listens: what the engine and the banner need of it first. */
interface PreparedHttps {
  certificate: ServedCertificate;
  /** The engine's outbound fetch when the server must trust its own local CA (calls to its own HTTPS address). */
  fetch: typeof fetch | undefined;
  /**
   * Serves `handler` over TLS on the port: HTTP/2 to clients that offer it (ALPN), HTTP/1.1 to the others. `prepare`
   * gets the server before it listens (the connection limits).
   */
  start(handler: FetchCallback, prepare?: (server: Http2SecureServer) => void): Promise<HttpsSide>;
}

/**
 * Prepares HTTPS on `port` (0: a free one) and `host`: the given certificate files, or else a certificate of the
 * local CA kept in `folder`.
 *
 * @example
 * const https = await prepareHttps({ port: 3443, host: '127.0.0.1', folder: '/home/ann/.local/share/basekit/tls' });
 * const side = await https.start(handler); // side.url: 'https://127.0.0.1:3443'
 */
export async function prepareHttps(options: {
  port: number;
  host: string;
  folder: string;
  certFile?: string | undefined;
  keyFile?: string | undefined;
}): Promise<PreparedHttps> {
  const { port, host } = options;
  const tls = await tlsSetup(options);
  let bound: string | undefined;
  return {
    certificate: tls.certificate,
    fetch:
      tls.ownCa === undefined
        ? undefined
        : fetchTrustingOwnCa(tls.ownCa, (url) => url.protocol === 'https:' && url.port === bound),
    async start(handler, prepare) {
      const server = createAdaptorServer({
        fetch: handler,
        overrideGlobalObjects: false,
        createServer: createSecureServer,
        serverOptions: { key: tls.key, cert: tls.cert, allowHTTP1: true },
      }) as Http2SecureServer;
      prepare?.(server);
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
      bound = String(address.port);
      return {
        url: `https://${urlHost(address.address)}:${address.port}`,
        close: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            for (const socket of sockets) socket.destroy();
          }),
      };
    },
  };
}
