import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';

export interface ExchangeLog {
  /** The exchanges since the last call, as `METHOD path → status`, oldest first. */
  take(): string[];
  stop(): void;
}

const CHANNEL = 'http.client.response.finish';

/**
 * Records every HTTP exchange this process makes with `origin` through Node's `http` module, which is how the
 * published clients send (they never reach the test's own `fetch` calls). A failure then names the exact request.
 */
export function recordExchanges(origin: string): ExchangeLog {
  const { hostname, port } = new URL(origin);
  const seen: string[] = [];
  const onResponse = (message: unknown) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    if (request.host === hostname && String(request.socket?.remotePort) === port)
      seen.push(`${request.method} ${request.path} → ${response.statusCode}`);
  };
  diagnostics.subscribe(CHANNEL, onResponse);
  return { take: () => seen.splice(0), stop: () => diagnostics.unsubscribe(CHANNEL, onResponse) };
}
