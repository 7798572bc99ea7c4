// The request inspector keeps a Node request's headers as Node's raw list (not its IncomingMessage): what it shows and
// replays must still be the Request's own headers, repeated headers joined as `Headers` joins them.
import { request } from 'node:http';
import type { ExchangeDetails, ExchangeListener, ExchangeSummary } from '@basekit/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';

type Exchange = Parameters<ExchangeListener>[0];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0 });
});
afterAll(() => server.close());

/** A GET with `rawHeaders` sent as they are (repeated names included), as fetch cannot send them. */
function rawGet(path: string, rawHeaders: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    // Given as a list, the headers go without the Host header Node adds otherwise.
    const headers = ['Host', `127.0.0.1:${port}`, ...rawHeaders];
    const sent = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the headers the inspector keeps of a Node request', () => {
  it('are the Request’s own: names lowercased, repeated ones joined, in order', async () => {
    const { objectStorageId, masterKey } = server.engine.project.config;
    const seen = new Promise<Exchange>((resolve) => {
      const stop = server.engine.onExchange((exchange) => {
        stop();
        resolve(exchange);
      });
    });
    const status = await rawGet('/object-storage/classes/Kept/none', [
      'X-Service-Object-Storage-Id',
      objectStorageId,
      'X-Trace',
      'one',
      'x-trace',
      'two',
      'Accept',
      'application/json',
    ]);
    expect(status).toBe(401); // no token: refused, and recorded all the same
    const exchange = await seen;
    expect(exchange.requestHeader('X-Trace')).toBe('one, two');
    expect([...exchange.resend('service')!.headers].filter(([name]) => name === 'x-trace')).toEqual([
      ['x-trace', 'one, two'],
    ]);
    const admin = { 'X-Service-Authentication-Key': masterKey };
    const list = (await (await fetch(`${server.url}/__admin/requests?limit=1`, { headers: admin })).json()) as {
      requests: ExchangeSummary[];
    };
    const [summary] = list.requests;
    expect(summary!.path).toBe('/object-storage/classes/Kept/none');
    const details = (await (
      await fetch(`${server.url}/__admin/requests/${summary!.id}`, { headers: admin })
    ).json()) as ExchangeDetails;
    expect(details.request.headers).toMatchObject({
      'x-service-object-storage-id': objectStorageId,
      'x-trace': 'one, two',
      accept: 'application/json',
    });
  });
});
