import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Exchange } from '../src/index.js';
import { inspectorOf } from '../src/inspector/inspector.js';
import { maskJsonLikeText, maskQuery } from '../src/inspector/masking.js';
import { exchangeEvents } from '../src/inspector/stream.js';

const { authenticationId, masterKey } = createEngine().project.config;
const register = (username: string) =>
  new Request('http://local/auth/users', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Service-Authentication-Id': authenticationId },
    body: JSON.stringify({ username, password: 'pw-secret' }),
  });

describe('masking', () => {
  it('masks secret values of text that is not valid JSON, even when cut off', () => {
    expect(maskJsonLikeText('{"username":"ann","password":"pw-1"')).toBe('{"username":"ann","password":"[masked]"');
    expect(maskJsonLikeText('{"refresh_token": "abc')).toBe('{"refresh_token": "[masked]"');
  });

  it('masks secret names of a query or form however they are encoded, and leaves the rest as sent', () => {
    expect(maskQuery('a=%20x&refresh-token=t1&Pass%77ord=p&token_type=bearer')).toBe(
      'a=%20x&refresh-token=[masked]&Pass%77ord=[masked]&token_type=bearer',
    );
  });
});

describe('masking of path parameters', () => {
  it('masks the one-time token of a confirmation link, a path parameter named as a secret, as sent or not', async () => {
    const engine = createEngine({ config: { ...createEngine().project.config, emailConfirmation: true } });
    const seen: string[] = [];
    engine.onExchange((exchange) => seen.push(exchange.summary().path));
    const registration = register('ann');
    await engine.fetch(
      new Request(registration, {
        body: JSON.stringify({ username: 'ann', password: 'pw', email: 'ann@example.com' }),
      }),
    );
    const [mail] = engine.project.outbox;
    const link = new URL(mail!.link!);
    for (const path of [link.pathname, `${link.pathname}/`, link.pathname.replace('/confirm', '//confirm')])
      expect((await engine.fetch(new Request(`http://local${path}`))).status).toBe(200);
    await engine.fetch(new Request('http://local/auth/users/by-username/ann'));
    expect(seen.slice(1)).toEqual([
      ...Array(3).fill('/auth/confirm/[masked]'),
      '/auth/users/by-username/ann', // a parameter not named as a secret is shown
    ]);
  });
});

describe('Engine.onExchange', () => {
  it('reports every answered request, whatever inspectorLimit, until it is stopped', async () => {
    const engine = createEngine({ config: { ...createEngine().project.config, inspectorLimit: 0 } });
    const seen: Exchange[] = [];
    const stop = engine.onExchange((exchange) => seen.push(exchange));
    await engine.fetch(register('ann'));
    stop();
    await engine.fetch(register('bob'));
    expect(seen.map((e) => e.summary().path)).toEqual(['/auth/users']);
    expect(seen[0]!.details().request.body).toMatchObject({
      kind: 'json',
      json: { username: 'ann', password: '[masked]' },
    });
    const list = await engine.fetch(
      new Request('http://local/__admin/requests', { headers: { 'X-Service-Authentication-Key': masterKey } }),
    );
    expect(list.status).toBe(409);
  });

  it('shows a body that no header announces (in process, as msw hands requests over) as unread, not as none', async () => {
    const engine = createEngine();
    const seen: Exchange[] = [];
    engine.onExchange((exchange) => seen.push(exchange));
    const form = new FormData();
    form.append('fileItems[0].fileToUpload', new Blob([new Uint8Array(1000)]), 'a.bin');
    await engine.fetch(new Request('http://local/files', { method: 'POST', body: form }));
    expect(seen[0]!.details().request.body).toMatchObject({ kind: 'omitted', reason: 'unread' });
  });

  it('records a request without asking for its body stream when its method, its length or its route tells', async () => {
    // In Node, a request's body stream makes the adaptor build a whole standard Request (most of 0.15 ms).
    const engine = createEngine();
    const seen: Exchange[] = [];
    engine.onExchange((exchange) => seen.push(exchange));
    let asked = 0;
    const counted = (request: Request) =>
      Object.defineProperty(request, 'body', {
        get: () => {
          asked++;
          return Reflect.get(Request.prototype, 'body', request);
        },
      });
    const body = JSON.stringify({ username: 'ann', password: 'pw-secret' });
    const headers = { 'Content-Type': 'application/json', 'X-Service-Authentication-Id': authenticationId };
    const declared = { ...headers, 'Content-Length': String(body.length) };
    await engine.fetch(counted(new Request('http://local/auth/users', { method: 'POST', headers: declared, body })));
    await engine.fetch(counted(new Request('http://local/auth/users/by-username/ann', { headers })));
    await engine.fetch(counted(new Request('http://local/no/such/route', { method: 'POST', headers: declared, body })));
    expect(asked).toBe(0);
    expect(seen.map((exchange) => exchange.details().request.body)).toEqual([
      expect.objectContaining({ kind: 'json', json: { username: 'ann', password: '[masked]' } }),
      { kind: 'none' },
      expect.objectContaining({ kind: 'omitted', reason: 'unread', size: body.length }),
    ]);
  });

  it('keeps the headers of an answer made in process, not the Response that carried its body', async () => {
    // The inspector keeps its last `inspectorLimit` requests, a listener as many as it likes: a standard Response holds
    // its body's stream and more (in one process, measured: 10–17 µs of a get-by-id's 90 in the collector).
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const engine = createEngine();
    const seen: Exchange[] = [];
    engine.onExchange((exchange) => seen.push(exchange));
    let answer: Response | undefined = await engine.fetch(register('ann'));
    expect(answer.status).toBe(200);
    await answer.json();
    const answered = new WeakRef(answer);
    answer = undefined;
    // A WeakRef's target stays alive until the end of the task that made it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(answered.deref()).toBeUndefined();
    expect(seen[0]!.details().response.headers).toMatchObject({ 'content-type': 'application/json' });
    const kept = await engine.fetch(
      new Request('http://local/__admin/requests', { headers: { 'X-Service-Authentication-Key': masterKey } }),
    );
    expect((await kept.json()).requests).toHaveLength(1);
  });

  it('answers as usual when a listener throws, and reports the error as an internal one', async () => {
    const errors: unknown[] = [];
    const engine = createEngine({ onInternalError: (error) => errors.push(error) });
    engine.onExchange(() => {
      throw new Error('listener broke');
    });
    expect((await engine.fetch(register('ann'))).status).toBe(200);
    expect(errors).toEqual([new Error('listener broke')]);
  });
});

describe('exchangeEvents', () => {
  afterEach(() => vi.useRealTimers());

  it('sends a heartbeat comment while nothing happens, and stops listening when cancelled', async () => {
    vi.useFakeTimers();
    const engine = createEngine();
    const inspector = inspectorOf(engine.project);
    const reader = exchangeEvents(inspector, new AbortController().signal, {
      heartbeatMs: 1000,
      maxBacklogBytes: 1024,
    }).getReader();
    const decoder = new TextDecoder();
    const next = async () => decoder.decode((await reader.read()).value);
    expect(await next()).toBe('retry: 2000\n: connected\n\n');
    vi.advanceTimersByTime(1000);
    expect(await next()).toBe(': heartbeat\n\n');
    expect(inspector.subscriberCount).toBe(1);
    await reader.cancel();
    expect(inspector.subscriberCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends at once when the request is already aborted', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const inspector = inspectorOf(createEngine().project);
    const reader = exchangeEvents(inspector, aborted.signal).getReader();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(inspector.subscriberCount).toBe(0);
  });
});
