import { expect, it } from 'vitest';
import { createEngine, DEFAULT_CONFIG } from '../src/index.js';

const ORIGIN = 'http://engine.test';
const admin = { 'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey };

type Export = { areas: { users: { users: { userId: string; active: boolean }[] } } };

it('a reset returns to the initial state as it was given, whatever requests did to the imported objects', async () => {
  const seed = createEngine({ config: { ...DEFAULT_CONFIG, emailConfirmation: true } });
  const registered = await seed.fetch(
    new Request(`${ORIGIN}/auth/users`, {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'imported', password: 'pw', email: 'imported@example.com' }),
    }),
  );
  const { userId } = (await registered.json()) as { userId: string };
  const initialState = await (await seed.fetch(new Request(`${ORIGIN}/__admin/state`, { headers: admin }))).json();

  const engine = createEngine({ config: DEFAULT_CONFIG, initialState });
  await engine.ready;
  const active = async () => {
    const res = await engine.fetch(new Request(`${ORIGIN}/__admin/state`, { headers: admin }));
    return ((await res.json()) as Export).areas.users.users.find((user) => user.userId === userId)?.active;
  };
  expect(await active()).toBe(false);
  const activated = await engine.fetch(
    new Request(`${ORIGIN}/__admin/users/${userId}/activate`, { method: 'POST', headers: admin }),
  );
  expect(activated.status).toBe(200);
  expect(await active()).toBe(true);
  await engine.fetch(new Request(`${ORIGIN}/__admin/reset`, { method: 'POST', headers: admin }));
  expect(await active()).toBe(false);
});
