// An answer written before its request's body came whole (a 413 part way through a streamed upload) closes its
// connection, so that a client's pool never sends the next request on it. Before: the answer said keep-alive, the rest
// of the body stayed unread in front of the next request, which stalled until the adaptor's clean-up closed the
// socket under it (undici: "fetch failed", other side closed), over HTTP and HTTP/1.1 over TLS alike.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@basekit/engine';
import { startServer, type RunningServer } from '../src/server.js';
import { storageHeaders, uploadForm, uploadInPieces } from './files/support.js';
import type { TestServer } from './support/server.js';
import { masterAuth } from './support/users.js';

const MAX_UPLOAD_BYTES = 64 * 1024;

let server: RunningServer;
let folder: string;
let ca: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'basekit-early-answer-'));
  server = await startServer({
    port: 0,
    httpsPort: 0,
    tlsDir: join(folder, 'tls'),
    config: { maxUploadBytes: MAX_UPLOAD_BYTES },
  });
  ca = await readFile(server.certificate!.file, 'utf8');
});

afterAll(async () => {
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

/** A client of one connection at a time (HTTP/1.1, as undici's pool speaks it) that counts the connections it opens. */
function oneConnectionClient(origin: string) {
  const connector = buildConnector({ ca });
  let opened = 0;
  const dispatcher = new Agent({
    connections: 1,
    connect: (options, callback) => {
      opened++;
      connector(options, callback);
    },
  });
  const request = (path: string, init?: RequestInit) =>
    fetch(`${origin}${path}`, { ...init, dispatcher } as RequestInit);
  // What the test helpers (masterAuth, storageHeaders) read of a test server.
  const client = { config: DEFAULT_CONFIG, request } as TestServer;
  return { client, request, opened: () => opened, close: () => dispatcher.close() };
}

/** Streams an upload of `bytes` (more than the server takes) through `request`: the 413 it is refused with. */
async function refusedUpload(
  request: (path: string, init?: RequestInit) => Promise<Response>,
  headers: Record<string, string>,
  bytes: number,
) {
  const { body, contentType } = await uploadInPieces([{ name: 'big.bin', content: new Uint8Array(bytes) }]);
  const refused = await request('/files', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': contentType },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(refused.status).toBe(413);
  return refused;
}

describe.each([
  ['HTTP', 'http', () => server.url],
  ['HTTP/1.1 over TLS', 'https', () => server.httpsUrl!],
])('an answer before the whole body, over %s', (_, name, origin) => {
  it('closes its connection (Connection: close), and the next request on the same client succeeds', async () => {
    const { client, request, close } = oneConnectionClient(origin());
    try {
      const headers = storageHeaders(client, await masterAuth(client));
      // 1 MiB: the server refuses it at 64 KiB, long before its end.
      const refused = await refusedUpload(request, headers, 1024 * 1024);
      expect(await refused.json()).toMatchObject({ code: 606 });

      const next = await request('/directories', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: `after-413-${name}` }),
      });
      expect(next.status).toBe(201);
      expect((await request('/__health')).status).toBe(200);
      // Said in the answer: a client's pool never sends the next request on that connection.
      expect(refused.headers.get('connection')).toBe('close');
    } finally {
      await close();
    }
  });

  it('reads a small rest of the body first, and keeps the connection alive', async () => {
    const { client, request, opened, close } = oneConnectionClient(origin());
    try {
      const headers = storageHeaders(client, await masterAuth(client));
      // 100 KiB, refused at 64 KiB: the 36 KiB left are read and dropped before the answer.
      const refused = await refusedUpload(request, headers, 100 * 1024);
      expect(refused.headers.get('connection')).toBe('keep-alive');
      await refused.arrayBuffer();
      expect((await request('/__health')).status).toBe(200);
      // masterAuth's login, the upload and the health check: one connection.
      expect(opened()).toBe(1);
    } finally {
      await close();
    }
  });

  it('keeps ordinary requests on one kept-alive connection, with and without a body', async () => {
    const { client, request, opened, close } = oneConnectionClient(origin());
    try {
      const headers = storageHeaders(client, await masterAuth(client));
      const answers = [
        await request('/__health'),
        await request('/files', {
          method: 'POST',
          headers,
          body: uploadForm([{ name: `small-${name}.txt`, content: 'hi' }]),
        }),
        await request('/directories', {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ path: `kept-${name}` }),
        }),
      ];
      for (const answer of answers) {
        expect(answer.ok).toBe(true);
        expect(answer.headers.get('connection')).toBe('keep-alive');
        await answer.arrayBuffer();
      }
      // masterAuth's login, then the three above: one connection.
      expect(opened()).toBe(1);
    } finally {
      await close();
    }
  });
});
