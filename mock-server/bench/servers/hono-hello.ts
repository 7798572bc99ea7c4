// A bare Hono hello-world on @hono/node-server (with the adaptor options of `startServer`), alone in its process.
import { startHelloWorld } from '../hello-world.js';

const { url } = await startHelloWorld();
console.log(`ready ${JSON.stringify({ url })}`);
