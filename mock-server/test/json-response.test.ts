// The Node server's JSON answers (src/json-response.ts): a Response that its transport writes as it is, and that still
// behaves as a standard Response for anything that reads it.
import type { OutgoingHttpHeaders } from 'node:http';
import type { ExchangeDetails } from '@basekit/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonResponse, writeJsonAnswer } from '../src/json-response.js';
import { startTestServer, type TestServer } from './support/server.js';
import { createUser, type TestUser } from './support/users.js';

const TEXT = JSON.stringify({ name: 'Zoë 🎮', score: 3 });

/** Node's answer as `writeTo` sees it, recording what was written. */
function fakeAnswer() {
  const written: { status?: number; headers?: OutgoingHttpHeaders; body?: string } = {};
  return {
    written,
    writeHead(status: number, headers: OutgoingHttpHeaders) {
      Object.assign(written, { status, headers });
    },
    end(body: string) {
      written.body = body;
    },
  };
}

describe('JsonResponse', () => {
  const make = () => new JsonResponse(TEXT, { status: 201, headers: { 'Content-Type': 'application/json' } });

  it('is a Response: status, headers and every reader of the body', async () => {
    const res = make();
    expect(res).toBeInstanceOf(Response);
    expect([res.status, res.ok, res.headers.get('content-type')]).toEqual([201, true, 'application/json']);
    expect(await res.clone().json()).toEqual(JSON.parse(TEXT));
    expect(res.body).toBeInstanceOf(ReadableStream);
    expect(await res.text()).toBe(TEXT);
    expect(res.bodyUsed).toBe(true);
    expect(await new Response(make().body).text()).toBe(TEXT);
  });

  it('is written as it is, its length counted in bytes, with the changes made to its headers', () => {
    const untouched = fakeAnswer();
    expect(make().writeTo(untouched)).toBe(true);
    expect(untouched.written).toEqual({
      status: 201,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(TEXT)) },
      body: TEXT,
    });
    expect(Buffer.byteLength(TEXT)).toBeGreaterThan(TEXT.length);

    const res = make();
    res.headers.set('Access-Control-Allow-Origin', '*');
    res.headers.append('Set-Cookie', 'a=1');
    res.headers.append('Set-Cookie', 'b=2');
    const changed = fakeAnswer();
    expect(writeJsonAnswer(res, changed)).not.toBe(res);
    expect(changed.written.headers).toEqual({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(TEXT)),
      'access-control-allow-origin': '*',
      'set-cookie': ['a=1', 'b=2'],
    });
  });

  it('is of the type of a Response made with `new Response`, and is still written as it is once asked', () => {
    const res = make();
    expect(res.type).toBe(new Response(TEXT).type);
    expect(res.type).toBe('default');
    expect(res.writeTo(fakeAnswer())).toBe(true);
  });

  it('is handed to the adaptor once its body was asked for', async () => {
    const res = make();
    const reader = res.body!.getReader();
    const answer = fakeAnswer();
    expect(writeJsonAnswer(res, answer)).toBe(res);
    expect(answer.written).toEqual({});
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(TEXT);
  });
});

describe('JSON answers of the server', () => {
  let server: TestServer;
  let user: TestUser;
  let path: string;
  beforeAll(async () => {
    server = await startTestServer();
    user = await createUser(server, 'writer');
    const headers = { 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...user.auth };
    const res = await server.request('/object-storage/classes/Note/', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Zoë 🎮 ünïcode' }),
    });
    path = `/object-storage/classes/Note/${((await res.json()) as { _id: string })._id}`;
  });
  afterAll(() => server.close());
  const headers = () => ({ 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...user.auth });

  it('carry the length of their bytes and the JSON type', async () => {
    const res = await server.request(path, { headers: headers() });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-length')]).toEqual([
      200,
      'application/json',
      String(bytes.byteLength),
    ]);
    expect(JSON.parse(new TextDecoder().decode(bytes)).title).toBe('Zoë 🎮 ünïcode');
  });

  it('are recorded by the request inspector without their headers being made, which it shows when asked', async () => {
    const made = vi.spyOn(JsonResponse.prototype, 'headers', 'get');
    const res = await server.request(path, { headers: headers() });
    expect(res.status).toBe(200);
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    const listed = await server.admin('/__admin/requests?limit=1');
    const [recorded] = ((await listed.json()) as { requests: { id: string; path: string }[] }).requests;
    expect(recorded!.path).toBe(path);
    const details = await server.admin(`/__admin/requests/${recorded!.id}`);
    expect(((await details.json()) as ExchangeDetails).response.headers).toMatchObject({
      'content-type': 'application/json',
    });
  });

  it('answer HEAD with the length and no body', async () => {
    const get = await server.request(path, { headers: headers() });
    const head = await server.request(path, { method: 'HEAD', headers: headers() });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      get.headers.get('content-length'),
      '',
    ]);
  });

  it('carry the CORS headers a browser needs', async () => {
    const res = await server.request(path, { headers: { ...headers(), Origin: 'http://app.example' } });
    expect([
      res.status,
      res.headers.get('access-control-allow-origin'),
      res.headers.get('access-control-expose-headers'),
    ]).toEqual([200, '*', expect.stringContaining('Content-Disposition')]);
    expect(((await res.json()) as { title: string }).title).toBe('Zoë 🎮 ünïcode');
  });

  it('are written by the server itself: no standard Response, no body stream (the server asks each answer its type)', async () => {
    const standard = vi.spyOn(JsonResponse.prototype, 'standard');
    try {
      const res = await server.request(path, { headers: headers() });
      expect([res.status, ((await res.json()) as { title: string }).title]).toEqual([200, 'Zoë 🎮 ünïcode']);
      expect(standard).not.toHaveBeenCalled();
    } finally {
      standard.mockRestore();
    }
  });

  it('are the answers the engine gives a fetch in the same process (as msw does)', async () => {
    const over = await (await server.request(path, { headers: headers() })).text();
    const direct = await server.engine.fetch(new Request(`${server.url}${path}`, { headers: headers() }));
    expect([direct.status, await direct.text()]).toEqual([200, over]);
  });
});
