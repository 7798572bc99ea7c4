import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeaderWordProxy {
  /** `http://HOST:PORT` of the proxy. */
  url: string;
  close(): Promise<void>;
}

/** `X-<from>-Game-Id` becomes `X-<to>-Game-Id`; every other header passes as it is. */
function renameHeaders(headers: IncomingHttpHeaders, from: string, to: string): IncomingHttpHeaders {
  const prefix = `x-${from.toLowerCase()}-`;
  const renamed: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    renamed[name.startsWith(prefix) ? `x-${to.toLowerCase()}-${name.slice(prefix.length)}` : name] = value;
  }
  return renamed;
}

/**
 * An HTTP proxy in front of `target` that renames the word in the request header names a published client sends
 * (`X-<from>-…`) to the word the server reads (`X-<to>-…`). Method, path (byte for byte, with its trailing or doubled
 * `/`), query and body pass unchanged, and so does the whole response.
 */
export async function startHeaderWordProxy(target: string, from: string, to = 'Service'): Promise<HeaderWordProxy> {
  const { hostname, port } = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      { hostname, port, method: incoming.method, path: incoming.url, headers: renameHeaders(incoming.headers, from, to) },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => outgoing.writeHead(502).end(String(error)));
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The published client keeps its connections alive; they must not hold the proxy open.
        server.closeAllConnections();
      }),
  };
}
