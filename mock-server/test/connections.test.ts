// Connections the Node server keeps: a cap, and header and idle timeouts, so that sockets opened and left
// idle neither starve ordinary requests nor live long. Before: under a 1,024 open-files limit, 1,100 idle sockets made
// ordinary requests time out, and idle or slow-header sockets lived 60-90 s.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect as http2Connect, type Settings } from 'node:http2';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_CONNECTION } from '../src/connections.js';
import { startServer, type RunningServer } from '../src/server.js';
import { http2Session, overHttp2, trustingFetch } from './https/support.js';
import { startTestServer, type TestServer } from './support/server.js';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface Opened {
  sockets: Socket[];
  /** When each socket was closed by the server (ms after it was opened), in the order they were opened. */
  closedAfter: (number | undefined)[];
}

/** Opens `count` connections to `url` that send `send` (nothing: idle) and waits until every one is connected. */
async function open(url: string, count: number, send = ''): Promise<Opened> {
  const { hostname, port } = new URL(url);
  const closedAfter: (number | undefined)[] = [];
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect({ host: hostname, port: Number(port) });
          const opened = performance.now();
          socket.on('connect', () => {
            if (send) socket.write(send);
            resolve(socket);
          });
          socket.on('error', () => undefined); // a reset is one way of being closed
          socket.on('close', () => (closedAfter[i] = performance.now() - opened));
          socket.once('error', reject);
        }),
    ),
  );
  return { sockets, closedAfter };
}

const openCount = ({ closedAfter, sockets }: Opened) =>
  sockets.length - closedAfter.filter((t) => t !== undefined).length;

/** An ordinary request on a connection of its own, with how long it took. */
async function ordinary(url: string, fetchWith: typeof fetch = fetch): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetchWith(`${url}/__health`, {
    headers: { Connection: 'close' },
    signal: AbortSignal.timeout(20_000),
  });
  await res.text();
  return { status: res.status, ms: performance.now() - started };
}

describe('a server with a cap of 40 connections, a 1 s header timeout and a 0.5 s idle timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ maxConnections: 40, headersTimeoutMs: 1000, idleTimeoutMs: 500 });
  });
  afterAll(() => server.close());

  it('answers an ordinary request while 100 idle sockets are open, keeps at most 40, and closes the rest after 1 s', async () => {
    const idle = await open(server.url, 100);
    const answer = await ordinary(server.url);
    expect(answer.status).toBe(200);
    // At the cap, each new connection took the place of the one idle the longest: 39 are left beside the request's.
    await expect.poll(() => openCount(idle)).toBeLessThanOrEqual(39);
    const survivors = idle.sockets.flatMap((_, i) => (idle.closedAfter[i] === undefined ? [i] : []));
    expect(survivors.length).toBeGreaterThanOrEqual(30);
    // The header timeout (checked every half of it) closes them: none lives 60 s any more.
    await expect.poll(() => openCount(idle), { timeout: 5000 }).toBe(0);
    const lived = survivors.map((i) => idle.closedAfter[i]!);
    expect(Math.min(...lived)).toBeGreaterThanOrEqual(900);
    expect(Math.max(...lived)).toBeLessThan(3000);
  });

  it('closes a connection that sends its headers slower than the header timeout', async () => {
    const slow = await open(server.url, 1, 'GET /__health HTTP/1.1\r\nHost: x\r\n');
    const [socket] = slow.sockets;
    const drip = setInterval(() => socket!.write('X-Slow: 1\r\n'), 200);
    await expect.poll(() => slow.closedAfter[0], { timeout: 5000 }).toBeDefined();
    clearInterval(drip);
    expect(slow.closedAfter[0]).toBeLessThan(3000);
  });

  it('closes a kept-alive connection after 0.5 s without a request', async () => {
    const kept = await open(server.url, 1, 'GET /__health HTTP/1.1\r\nHost: x\r\n\r\n');
    let answered = 0;
    kept.sockets[0]!.on('data', () => (answered ||= performance.now()));
    await expect.poll(() => kept.closedAfter[0], { timeout: 5000 }).toBeDefined();
    const idleFor = performance.now() - answered;
    expect(answered).toBeGreaterThan(0);
    expect(idleFor).toBeGreaterThanOrEqual(400);
    expect(idleFor).toBeLessThan(2500);
  });

  it('never closes a connection with a request under way: past the cap then, the new one is closed', async () => {
    const capped = await startTestServer({ maxConnections: 3, headersTimeoutMs: 5000 });
    try {
      // Three registrations under way: their headers are in, their bodies are not.
      const register =
        'POST /auth/users HTTP/1.1\r\nHost: x\r\nX-Service-Authentication-Id: dev-auth-id\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
      const busy = await open(capped.url, 3, register);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = await open(capped.url, 1);
      await expect.poll(() => refused.closedAfter[0]).toBeDefined();
      expect(openCount(busy)).toBe(3);
      busy.sockets[0]!.destroy();
      await expect.poll(() => openCount(busy)).toBe(2);
      expect((await ordinary(capped.url)).status).toBe(200);
      for (const socket of busy.sockets) socket.destroy();
    } finally {
      await capped.close();
    }
  });
});

/** A TLS connection to `url` that offers `alpn` and trusts `ca`, once its handshake is done, with when it closed. */
async function tlsOpen(url: string, ca: string, alpn: string): Promise<{ socket: TLSSocket; closedAt: () => number }> {
  const { hostname, port } = new URL(url);
  let closedAt = 0;
  const socket = await new Promise<TLSSocket>((resolve, reject) => {
    const tls = tlsConnect({ host: hostname, port: Number(port), ca, ALPNProtocols: [alpn] }, () => resolve(tls));
    tls.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.on('close', () => (closedAt = performance.now()));
  socket.resume(); // a socket read sees the server's end
  expect(socket.alpnProtocol).toBe(alpn);
  return { socket, closedAt: () => closedAt };
}

describe('the HTTPS listener (HTTP/2, and HTTP/1.1 beside it) under the same limits', () => {
  // Before: the HTTPS listener had Node's own limits: no cap, TLS handshakes waited 120 s, HTTP/2
  // connections were never closed, HTTP/1.1 ones over TLS were kept alive for ever.
  let server: RunningServer;
  let folder: string;
  let ca: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'basekit-connections-'));
    server = await startServer({
      port: 0,
      httpsPort: 0,
      tlsDir: join(folder, 'tls'),
      config: { maxConnections: 40, headersTimeoutMs: 1000, idleTimeoutMs: 500 },
    });
    ca = await readFile(server.certificate!.file, 'utf8');
  });
  afterAll(async () => {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('counts both listeners in one cap, and closes sockets that never finish a TLS handshake after 1 s', async () => {
    const plain = await open(server.url, 30);
    const secure = await open(server.httpsUrl!, 30);
    expect((await ordinary(server.httpsUrl!, trustingFetch(ca))).status).toBe(200);
    await expect.poll(() => openCount(plain) + openCount(secure)).toBeLessThanOrEqual(39);
    const survivors = secure.sockets.flatMap((_, i) => (secure.closedAfter[i] === undefined ? [i] : []));
    expect(survivors.length).toBeGreaterThan(0);
    await expect.poll(() => openCount(secure), { timeout: 5000 }).toBe(0);
    const lived = survivors.map((i) => secure.closedAfter[i]!);
    expect(Math.min(...lived)).toBeGreaterThanOrEqual(900);
    expect(Math.max(...lived)).toBeLessThan(3000);
    for (const socket of plain.sockets) socket.destroy();
  });

  it('closes a connection that sends no request within 1 s of its handshake, over HTTP/2 and HTTP/1.1', async () => {
    for (const alpn of ['h2', 'http/1.1']) {
      const { closedAt } = await tlsOpen(server.httpsUrl!, ca, alpn);
      const opened = performance.now();
      await expect.poll(closedAt, { timeout: 5000 }).toBeGreaterThan(0);
      expect(closedAt() - opened, alpn).toBeLessThan(3000);
    }
  });

  it('closes an HTTP/2 connection 0.5 s after its last answer, with a GOAWAY', async () => {
    const session = await http2Session(server.httpsUrl!, ca);
    let goaway = false;
    let closed = 0;
    session.on('goaway', () => (goaway = true));
    session.on('close', () => (closed = performance.now()));
    expect((await overHttp2(session, '/__health')).status).toBe(200);
    const answered = performance.now();
    await expect.poll(() => closed, { timeout: 5000 }).toBeGreaterThan(0);
    expect(goaway).toBe(true);
    expect(closed - answered).toBeGreaterThanOrEqual(400);
    expect(closed - answered).toBeLessThan(2500);
  });

  it('closes a kept-alive HTTP/1.1 connection over TLS 0.5 s after its last answer', async () => {
    const { socket, closedAt } = await tlsOpen(server.httpsUrl!, ca, 'http/1.1');
    let answered = 0;
    socket.on('data', () => (answered ||= performance.now()));
    socket.write('GET /__health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await expect.poll(closedAt, { timeout: 5000 }).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(0);
    expect(closedAt() - answered).toBeGreaterThanOrEqual(400);
    expect(closedAt() - answered).toBeLessThan(2500);
  });

  it('keeps an HTTP/2 connection with a request under way, and lets it carry 100 requests at once', async () => {
    const session = http2Connect(server.httpsUrl!, { ca });
    try {
      const settings = await new Promise<Settings>((resolve) => session.once('remoteSettings', resolve));
      expect(settings.maxConcurrentStreams).toBe(MAX_STREAMS_PER_CONNECTION); // Node's own: 2^32 - 1
      // A registration whose headers are in and whose body is not, for longer than both timeouts.
      const stream = session.request({
        ':method': 'POST',
        ':path': '/auth/users',
        'x-service-authentication-id': 'dev-auth-id',
        'content-type': 'application/json',
      });
      stream.write('{"username":"slow",');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(session.closed).toBe(false);
      const status = new Promise<number>((resolve) => stream.on('response', (head) => resolve(head[':status']!)));
      stream.end('"password":"pw"}');
      expect(await status).toBe(200);
    } finally {
      session.close();
    }
  });
});

describe('the default limits under a 1,024 open-files limit', () => {
  it('answers an ordinary request at once while 1,100 idle sockets are open (before: it timed out)', async ({
    skip,
  }) => {
    skip(
      process.platform !== 'linux',
      'Linux only: the default cap is read from /proc/self/limits, the limit set with ulimit',
    );
    const child = spawn(
      'bash',
      [
        '-c',
        `ulimit -n 1024 && exec "${process.execPath}" --conditions=@basekit/source --import tsx "${CLI}" --port 0`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /^listening on (http:\/\/\S+)$/m.exec(out)?.[1];
          if (found) resolve(found);
        });
        child.on('exit', (code) => reject(new Error(`the server stopped (${code}): ${out}`)));
      });
      const idle = await open(url, 1100);
      const answer = await ordinary(url);
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(5000);
      // 480 at most (half of what 1,024 leaves), once the server has taken every connection the system queued.
      await expect.poll(() => openCount(idle)).toBeLessThanOrEqual(480);
      for (const socket of idle.sockets) socket.destroy();
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
