// GET /__health: what the container's HEALTHCHECK and load balancers call.
import { ErrorCode } from '@basekit/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ headerWord: 'Acme' });
});
afterAll(() => server.close());

it('answers 200 without any key or id, whatever the header word', async () => {
  const res = await server.request('/__health');
  expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
  expect((await server.request('/__health', { method: 'HEAD' })).status).toBe(200);
});

it('is a read: other methods are not an operation', async () => {
  const res = await server.request('/__health', { method: 'POST' });
  expect([res.status, (await res.json()).code]).toEqual([404, ErrorCode.ROUTE_NOT_FOUND]);
});
