// docs/msw.md against @basekit/msw in Node: its table of controls says which return Promises (and lists every one),
// its example of them runs as written, and setupServer logs nothing per request. Its claims about browsers are
// checked in Chromium by examples/browser-app/test/guide.e2e.test.ts.
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createHandlers } from '../../packages/msw/src/index.js';
import { createClient } from '../../packages/sdk/src/index.js';

const guide = readFileSync(new URL('../../docs/msw.md', import.meta.url), 'utf8');
/** The text of the guide's section under `heading`, up to the next heading of its level or above. */
const section = (heading: string) => guide.split(`\n${heading}\n`)[1]!.split(/\n##? /)[0]!;
const controls = section('## Controls for assertions');

const baseUrl = 'https://api.example.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/** A backend seeded with ann, served by msw (in place of the test before's). */
function serving() {
  const backend = createHandlers({ baseUrl, seed: { users: [{ username: 'ann', password: 'ann-password' }] } });
  server.resetHandlers(...backend);
  return backend;
}

/** Arguments that make each control run. */
const ARGUMENTS: Record<string, unknown[]> = {
  seed: [{}],
  rows: ['Note'],
  'clock.advance': [0],
  'faults.add': [{ method: 'GET', path: '/nothing', status: 503 }],
  'faults.remove': ['f1'],
  'snapshots.save': ['guide'],
  'snapshots.restore': ['guide'],
  'snapshots.delete': ['guide'],
};

it('lists every control of the backend and says rightly which return a Promise', async () => {
  const backend = serving();
  // `await backend.rows(table)` or `backend.engine`, in the first column of the table; close() last, as it ends all.
  const calls = [...controls.matchAll(/^\| (.+?) \|/gm)]
    .flatMap(([, cell]) => [...cell!.matchAll(/`(await )?backend\.([\w.]+)/g)])
    .map(([, awaited, path]) => ({ documentedAsPromise: !!awaited, path: path! }))
    .sort((a, b) => Number(a.path === 'close') - Number(b.path === 'close'));
  const controlNames = Object.keys(backend).filter((key) => !/^\d+$/.test(key));
  expect(new Set(calls.map(({ path }) => path.split('.')[0]))).toEqual(new Set(controlNames));
  for (const { documentedAsPromise, path } of calls) {
    const names = path.split('.');
    const owner = names
      .slice(0, -1)
      .reduce(
        (at: Record<string, unknown>, name) => at[name] as Record<string, unknown>,
        backend as unknown as Record<string, unknown>,
      );
    const member = owner[names.at(-1)!];
    const value = typeof member === 'function' ? member.apply(owner, ARGUMENTS[path] ?? []) : member;
    expect({ path, promise: documentedAsPromise }).toEqual({ path, promise: value instanceof Promise });
    await value;
  }
  expect(calls).toContainEqual({ path: 'rows', documentedAsPromise: true });
});

it("runs the guide's example of the controls as written", async () => {
  const backend = serving();
  const client = createClient({
    baseUrl,
    authenticationId: 'dev-auth-id',
    clientKey: 'dev-client-key',
    objectStorageId: 'dev-db',
  });
  await client.auth.login('ann', 'ann-password');
  const example = /```ts\n([\s\S]+?)```/.exec(controls)![1]!;
  const { code } = await esbuild.transform(example, { loader: 'ts' });
  const AsyncFunction = (async () => undefined).constructor as new (
    ...names: string[]
  ) => (...values: unknown[]) => Promise<void>;
  await new AsyncFunction('backend', 'client', 'expect', code)(backend, client, expect);
  // What the example warns against does fail.
  expect(() => expect(backend.rows('Note')).toHaveLength(1)).toThrow();
});

it('logs nothing per request in Node (setupServer)', async () => {
  const spies = (['log', 'info', 'warn', 'error', 'debug', 'group', 'groupCollapsed'] as const).map((method) =>
    vi.spyOn(console, method),
  );
  try {
    serving();
    const client = createClient({ baseUrl, authenticationId: 'dev-auth-id', clientKey: 'dev-client-key' });
    await client.auth.login('ann', 'ann-password');
    await client.auth.me();
    expect(spies.flatMap((spy) => spy.mock.calls)).toEqual([]);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
});
