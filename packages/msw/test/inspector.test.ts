// The request inspector inside msw: the app's own hook, and the admin API with its live stream when asked for.
import type { Exchange } from '@basekit/engine';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../src/index.js';
import { BASE, masterKey, objectStorageId, signUp } from './support.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const admin = { 'X-Service-Authentication-Key': masterKey };

describe('the request inspector in msw', () => {
  it('reports each answered request to onExchange, masked, and keeps no list unless asked', async () => {
    const seen: Exchange[] = [];
    server.resetHandlers(...createHandlers({ baseUrl: BASE, onExchange: (exchange) => seen.push(exchange) }));
    const { userId, auth } = await signUp(BASE, 'ann');
    await fetch(`${BASE}/object-storage/classes/Note/none`, {
      headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...auth },
    });

    // The backend's own admin calls (its baseline at start) are answered by the engine and reported too.
    const app = seen.filter((e) => e.summary().area !== 'admin');
    expect(app.map((e) => `${e.summary().method} ${e.summary().path} ${e.summary().status}`)).toEqual([
      'POST /auth/users 200',
      'POST /auth/login 200',
      'GET /object-storage/classes/Note/none 404',
    ]);
    expect(app[2]!.summary().caller).toEqual({ kind: 'user', userId, username: 'ann' });
    const login = app[1]!.details();
    expect(login.request.body).toEqual({ kind: 'form', fields: { username: 'ann', password: '[masked]' } });
    expect(login.response.body).toMatchObject({
      kind: 'json',
      json: { access_token: '[masked]', refresh_token: '[masked]' },
    });
    expect((await fetch(`${BASE}/__admin/requests`, { headers: admin })).status).toBe(409);
  });

  it('serves the list and the live stream when config.inspectorLimit asks for them', async () => {
    server.resetHandlers(...createHandlers({ baseUrl: BASE, config: { inspectorLimit: 50 } }));
    const controller = new AbortController();
    const stream = await fetch(`${BASE}/__admin/requests/stream`, { headers: admin, signal: controller.signal });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (done: (t: string) => boolean) => {
      while (!done(text)) text += decoder.decode((await reader.read()).value, { stream: true });
    };
    await readUntil((t) => t.includes(': connected'));

    await signUp(BASE, 'bob');
    await readUntil((t) => (t.match(/event: request/g) ?? []).length >= 2);
    expect([...text.matchAll(/data: (.+)/g)].map((m) => (JSON.parse(m[1]!) as { path: string }).path)).toEqual([
      '/auth/users',
      '/auth/login',
    ]);
    controller.abort();

    const list = (await (await fetch(`${BASE}/__admin/requests?area=users`, { headers: admin })).json()) as {
      requests: { path: string }[];
    };
    expect(list.requests.map((r) => r.path)).toEqual(['/auth/login', '/auth/users']);
  });
});
