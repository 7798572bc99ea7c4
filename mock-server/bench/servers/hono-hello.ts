// A bare Hono hello-world on @hono/node-server, with the adaptor options of `startServer`, alone in its process.
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';

const app = new Hono().get('/', (c) => c.json({ hello: 'world' }));
const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`ready ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` })}`);
