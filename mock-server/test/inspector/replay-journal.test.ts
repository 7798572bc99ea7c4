// The request inspector's replay under --data-dir: kept by the journal once, as the request it sends (the replay's
// own admin call is not), so a restart rebuilds its change and nothing more. Needs the Node server's data folder; the
// replay itself is packages/engine/test/inspector/replay.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExchangeSummary } from '@basekit/engine';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';

describe('a replay under --data-dir', () => {
  it('is kept once, as the request it sends: a restart rebuilds its change and nothing more', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'basekit-replay-'));
    const first = await startServer({ port: 0, dataDir: dir });
    try {
      const { masterKey, authenticationId, clientKey, objectStorageId } = first.engine.project.config;
      const admin = { 'X-Service-Authentication-Key': masterKey };
      const send = (server: RunningServer, path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, init).then(async (res) => ({ status: res.status, json: await res.json() }));
      await send(first, '/auth/users', {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': authenticationId, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'carl', password: 'pw' }),
      });
      const form = new FormData();
      form.set('username', 'carl');
      form.set('password', 'pw');
      const login = await send(first, '/auth/login', {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': clientKey },
        body: form,
      });
      const db = { 'X-Service-Object-Storage-Id': objectStorageId, 'Content-Type': 'application/json' };
      const user = { Authorization: `Bearer ${(login.json as { access_token: string }).access_token}` };
      const created = await send(first, '/object-storage/classes/Note', {
        method: 'POST',
        headers: { ...db, ...user },
        body: JSON.stringify({ text: 'once' }),
      });
      expect(created.status).toBe(201);
      const page = await send(first, '/__admin/requests?limit=1', { headers: admin });
      const [original] = (page.json as { requests: ExchangeSummary[] }).requests;
      const again = await send(first, `/__admin/requests/${original!.id}/replay`, { method: 'POST', headers: admin });
      expect((again.json as ExchangeSummary).status).toBe(201);

      // Started on the folder of the first, which never stopped: its journal alone tells the state.
      const second = await startServer({ port: 0, dataDir: dir });
      try {
        expect(second.restored).toMatchObject({ diverged: 0 });
        const query = await send(second, '/object-storage/classes/query/Note', {
          method: 'POST',
          headers: { ...db, ...user },
          body: '{}',
        });
        expect((query.json as { results: { text: string }[] }).results.map((row) => row.text)).toEqual([
          'once',
          'once',
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
