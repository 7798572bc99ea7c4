import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../mock-server/test/support/server.js';
import { connectServer, type Backend } from '../src/index.js';
import { SEED } from './seed-fixture.js';
import { json, login, masterKey, objectStorageId, signUp, topScores } from './support.js';

// No msw here: these controls drive a real reference server through its admin API.
let real: TestServer;
let backend: Backend;
beforeAll(async () => {
  real = await startTestServer();
  backend = connectServer({ url: real.url, masterKey, seed: SEED });
  await backend.ready;
});
afterAll(() => real.close());

it('takes the same seed and resets to it', async () => {
  const { auth } = await signUp(real.url, 'eve');
  await fetch(
    `${real.url}/object-storage/classes/Note`,
    json('POST', { title: 'third' }, { 'X-Service-Object-Storage-Id': objectStorageId, ...auth }),
  );
  expect(await backend.rows('Note')).toHaveLength(3);
  await backend.reset();
  expect((await backend.rows('Note')).map((r) => [r._id, r['title']])).toEqual([
    ['note1', 'first'],
    ['note2', 'second'],
  ]);
  expect(await topScores(real.url, await login(real.url, 'ann', 'pw-ann'))).toEqual(['bob:70', 'ann:40']);
});
