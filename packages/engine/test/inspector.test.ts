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
