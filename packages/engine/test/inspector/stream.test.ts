// The request inspector's live stream over real HTTP: events as requests are answered, and no listener or backlog
// left behind by a client that goes away or stops reading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectorOf } from '../../src/inspector/inspector.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';

let server: TestServer;
let ann: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'ann');
});
afterAll(() => server.close());

const subscribers = () => inspectorOf(server.engine.project).subscriberCount;
const db = { 'X-Service-Object-Storage-Id': 'dev-db', 'Content-Type': 'application/json' }; // TEST_CONFIG's database id

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads server-sent events as text until `done` says the text so far is enough. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe('GET /__admin/requests/stream', () => {
  it('sends each answered request as an event, live, and stops listening when the client goes away', async () => {
    const controller = new AbortController();
    const res = await server.admin('/__admin/requests/stream', { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    expect(await readUntil(reader, (text) => text.includes(': connected'))).toContain('retry: ');
    expect(subscribers()).toBe(1);

    await server.request('/object-storage/classes/Live/abc', { headers: { ...db, ...ann.auth } });
    const text = await readUntil(reader, (t) => t.includes('\n\n') && t.includes('event: request'));
    const event = /id: (\S+)\nevent: request\ndata: (.+)\n\n/.exec(text)!;
    const summary = JSON.parse(event[2]!) as Record<string, unknown>;
    expect(summary).toMatchObject({
      id: event[1],
      method: 'GET',
      path: '/object-storage/classes/Live/abc',
      status: 404,
      area: 'database',
      caller: { kind: 'user', userId: ann.userId },
    });
    const full = await server.admin(`/__admin/requests/${event[1]!}`);
    expect(full.status).toBe(200);

    controller.abort();
    await until(() => subscribers() === 0, 'the stream to stop listening');
  });

  it('cuts off a client that stops reading, and keeps answering everyone else', async () => {
    const res = await server.admin('/__admin/requests/stream');
    expect(res.status).toBe(200);
    await until(() => subscribers() === 1, 'the stream to listen');
    // Never read: the socket's buffers fill, then the server's backlog (1 MiB), then the client is cut off. Long
    // paths make big events, so that takes a few thousand requests.
    const long = 'x'.repeat(6000);
    for (let batch = 0; batch < 100 && subscribers() > 0; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          server.request(`/object-storage/classes/T/${long}`, { headers: { ...db, ...ann.auth } }),
        ),
      );
      for (const answer of answers) expect(answer.status).toBe(404);
    }
    expect(subscribers()).toBe(0);
    // What was sent before the cut-off still arrives, then a last event says why the stream ends.
    const text = await readUntil(res.body!.getReader(), () => false);
    expect(text.trimEnd().split('\n\n').at(-1)).toMatch(/^event: cut-off\ndata: /);
    const after = await server.request('/object-storage/classes/T/y', { headers: { ...db, ...ann.auth } });
    expect(after.status).toBe(404);
  });
});
