import { expect, it } from 'vitest';
import { developmentConfig } from '../src/config.js';
import { createEngine, type Engine } from '../src/index.js';
import { MemoryJournal } from './support/memory-journal.js';
import { MemoryProjectStore } from './support/memory-project-store.js';
import { secondProject } from './projects/support.js';

// What a recorded request reads (its time, random bytes, the results of its work on secrets) is its own, however
// many requests of other projects are under way at once: each request has its moment (`c.env.moment`), and no global
// random source is swapped while a journal records. On the engine alone, with journals in memory.

const second = secondProject();
const config = { ...developmentConfig(), projects: [second] };
const projects = [config, second].map(({ authenticationId, masterKey }) => ({ id: authenticationId, key: masterKey }));

const send = (engine: Engine, path: string, headers: Record<string, string>, body?: unknown) =>
  engine.fetch(
    new Request(`http://engine.test${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

const statesOf = (engine: Engine) =>
  Promise.all(
    projects.map(async ({ id, key }) =>
      (
        await send(engine, '/__admin/state', { 'X-Service-Authentication-Id': id, 'X-Service-Authentication-Key': key })
      ).json(),
    ),
  );

it('replays each project to the same state after requests of several projects ran at once', async () => {
  const journal = new MemoryJournal();
  const store = new MemoryProjectStore();
  const engine = createEngine({ config, capabilities: { journal, projects: store } });
  await engine.ready;
  // Registrations hash a password (awaiting WebCrypto between draws of a salt and ids), so that the requests of the
  // two projects interleave; each project's journal records its own one at a time.
  const answers = await Promise.all(
    projects.flatMap(({ id }) =>
      Array.from({ length: 8 }, async (_, i) => {
        const body = { username: `u${i}`, password: `pw-${i}` };
        return (await send(engine, '/auth/users', { 'X-Service-Authentication-Id': id }, body)).status;
      }),
    ),
  );
  expect(answers).toEqual(Array(16).fill(200));
  const before = await statesOf(engine);

  const restarted = createEngine({ config, capabilities: { journal: journal.copy(), projects: store.copy() } });
  await restarted.ready;
  expect(await statesOf(restarted)).toEqual(before);
  await Promise.all([engine.close(), restarted.close()]);
});
