// The ceiling of any server on this machine: plain node:http sending the bytes a bare Hono hello-world sends (status,
// Content-Type, body), with no routing, no Request or Response objects, nothing else.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(JSON.stringify({ hello: 'world' }));
const server = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`ready ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` })}`);
