// HTTPS beside HTTP, each figure beside its peer in the same run:
// - start-up of the built CLI with --https-port (its CA already made) against without, in alternating rounds, timed
//   from spawning to the line that says it is ready (target within 1.2x); and a first start that makes the CA;
// - get-by-id over HTTP, HTTPS with HTTP/1.1 and HTTP/2, in alternating rounds, load from another process;
// - the HTTP/1.1 path of the HTTP/2 server (allowHTTP1, what the server runs) against a plain node:https server, on
//   one hello-world answered as the server answers: what HTTP/2 costs HTTP/1.1 clients.
// Run: `npm run bench -w @basekit/mock-server -- https`.
import { createAdaptorServer } from '@hono/node-server';
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { jsonResponse, writeJsonAnswer } from '../src/json-response.js';
import { startServer } from '../src/server.js';
import { tlsSetup } from '../src/tls/certificate.js';
import { median } from './processes.js';
import { cliReadyTime } from './ready-time.js';
import { benchUsers } from './users.js';

const show = (values: number[]) => values.map((v) => Math.round(v)).join(', ');

async function startUp(): Promise<void> {
  const ROUNDS = 9;
  const home = await mkdtemp(join(tmpdir(), 'basekit-bench-https-'));
  const env = { XDG_DATA_HOME: home };
  const http = /^listening on http:/m;
  const https = /^listening on https:/m;
  await cliReadyTime(['--https-port', '0'], { ready: https, env }); // makes the CA and the server certificate once
  const plain: number[] = [];
  const secure: number[] = [];
  const runs = [
    async () => plain.push(await cliReadyTime([], { ready: http, env })),
    async () => secure.push(await cliReadyTime(['--https-port', '0'], { ready: https, env })),
  ];
  for (let i = 0; i < ROUNDS; i++) for (const run of i % 2 ? [...runs].reverse() : runs) await run();
  // A first start: the CA and the server certificate are made (and the x509 library loaded for it).
  const first: number[] = [];
  for (let i = 0; i < 3; i++)
    first.push(
      await cliReadyTime(['--https-port', '0'], { ready: https, env: { XDG_DATA_HOME: join(home, `first-${i}`) } }),
    );
  await rm(home, { recursive: true, force: true });
  console.log(`start-up, built CLI, to its ready line (${ROUNDS} alternating rounds):`);
  console.log(`  HTTP only                         median ${Math.round(median(plain))} ms   [${show(plain)}]`);
  console.log(`  HTTP + HTTPS, CA already made     median ${Math.round(median(secure))} ms   [${show(secure)}]`);
  console.log(`  HTTP + HTTPS, first start (makes the CA)  median ${Math.round(median(first))} ms   [${show(first)}]`);
  console.log(
    `  with HTTPS / without: ${(median(secure) / median(plain)).toFixed(2)}x (target <= 1.2x); a first start: ${(median(first) / median(plain)).toFixed(2)}x`,
  );
}

interface Target {
  name: string;
  protocol: 'http' | 'https' | 'h2';
  url: string;
  headers?: Record<string, string>;
}

interface Figures {
  rps: number;
  /** The server's CPU time (this process: the load comes from another) per answered request, microseconds. */
  cpu: number;
  median?: number;
  p99?: number;
}

/**
 * Loads each target in turn for `rounds` rounds (the order turning), then one-at-a-time latency; prints each. The
 * server's CPU time per request does not depend on how fast the client is, nor on what else the machine runs.
 */
async function compare(title: string, targets: Target[], ca: string, { rounds = 5, seconds = 1, samples = 0 } = {}) {
  const child = fork(new URL('./tls-load.mjs', import.meta.url));
  const run = (target: Target, withSamples: boolean) =>
    new Promise<Figures>((resolve, reject) => {
      const cpuAtStart = process.cpuUsage();
      child.once('exit', reject);
      child.once('message', (figures: { rps: number; requests: number; median?: number; p99?: number }) => {
        child.off('exit', reject);
        const { user, system } = process.cpuUsage(cpuAtStart);
        resolve({ ...figures, cpu: (user + system) / figures.requests });
      });
      const load = { headers: target.headers ?? {}, ca, connections: 10, seconds, samples: withSamples ? samples : 0 };
      child.send({ ...target, ...load });
    });
  const figures: Figures[][] = targets.map(() => []);
  const latency: Figures[] = [];
  try {
    for (const target of targets) await run(target, false); // warm-up
    for (let round = 0; round < rounds; round++)
      for (let i = 0; i < targets.length; i++) {
        const which = (round + i) % targets.length;
        figures[which]!.push(await run(targets[which]!, false));
      }
    if (samples) for (const target of targets) latency.push(await run(target, true));
  } finally {
    if (child.connected) child.disconnect();
  }
  console.log(
    `${title} (${rounds} rounds of ${seconds} s in turn, 10 requests at once on Node's own clients, load from another process):`,
  );
  const of = (i: number, key: 'rps' | 'cpu') => figures[i]!.map((f) => f[key]);
  targets.forEach((target, i) => {
    const one = latency[i];
    console.log(
      `  ${target.name.padEnd(44)} server CPU median ${median(of(i, 'cpu')).toFixed(0).padStart(4)} µs/request (${Math.round((100 * median(of(i, 'cpu'))) / median(of(0, 'cpu')))} %) [${show(of(i, 'cpu'))}]; ` +
        `${median(of(i, 'rps'))} req/s [${show(of(i, 'rps'))}]` +
        (one?.median ? `; one at a time: median ${Math.round(one.median)} µs, p99 ${Math.round(one.p99!)} µs` : ''),
    );
  });
}

async function getById(): Promise<void> {
  const tlsDir = join(await mkdtemp(join(tmpdir(), 'basekit-bench-tls-')), 'tls');
  const server = await startServer({ port: 0, httpsPort: 0, tlsDir });
  try {
    const { objectStorageId } = server.engine.project.config;
    const [user] = await benchUsers(server, 1);
    const headers = { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${user!.accessToken}` };
    const created = await fetch(`${server.url}/object-storage/classes/Score/`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ score: 1, name: 'player' }),
    });
    const path = `/object-storage/classes/Score/${((await created.json()) as { _id: string })._id}`;
    const ca = await readFile(server.certificate!.file, 'utf8');
    // HTTP/2 sends header names in lower case.
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    await compare(
      'get row by id',
      [
        { name: 'HTTP/1.1', protocol: 'http', url: `${server.url}${path}`, headers },
        { name: 'HTTPS, HTTP/1.1 (no ALPN offered)', protocol: 'https', url: `${server.httpsUrl}${path}`, headers },
        { name: 'HTTPS, HTTP/2 (h2 offered)', protocol: 'h2', url: `${server.httpsUrl}${path}`, headers: lower },
      ],
      ca,
      { samples: 2000 },
    );
  } finally {
    await server.close();
    await rm(dirname(tlsDir), { recursive: true, force: true });
  }
}

/** A hello-world answered as the server answers its JSON, over TLS on `createServer`. */
async function helloOver(
  createServer: typeof createSecureServer | typeof createHttpsServer,
  key: string,
  cert: string,
) {
  const server = createAdaptorServer({
    fetch: (_request, { outgoing }) =>
      writeJsonAnswer(
        jsonResponse('{"hello":"world"}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
        outgoing,
      ),
    overrideGlobalObjects: false,
    createServer: createServer as typeof createSecureServer,
    serverOptions: { key, cert, allowHTTP1: true },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

async function http1OnTheHttp2Server(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'basekit-bench-tls-'));
  const { key, cert, ownCa } = await tlsSetup({ host: '127.0.0.1', folder });
  const servers = [await helloOver(createHttpsServer, key, cert), await helloOver(createSecureServer, key, cert)];
  try {
    await compare(
      'HTTP/1.1 over TLS, a hello-world answered as the server answers',
      [
        { name: 'node:https server', protocol: 'https', url: servers[0]!.url },
        { name: 'node:http2 server, allowHTTP1 (what runs)', protocol: 'https', url: servers[1]!.url },
      ],
      ownCa!,
      { rounds: 7 },
    );
  } finally {
    for (const server of servers) server.close();
    await rm(folder, { recursive: true, force: true });
  }
}

await startUp();
await getById();
await http1OnTheHttp2Server();
