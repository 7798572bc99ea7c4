// The files area's test helpers live beside the engine (packages/engine/test/files); what is the Node server's
// (servers with a data folder of their own) is here.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type TestServer, startTestServer } from '../support/server.js';

import { storageSuite as engineStorageSuite, type StorageSuite } from '../../../packages/engine/test/files/support.js';

export * from '../../../packages/engine/test/files/support.js';

/** The engine's storage suite (its `storageSuite`) on the Node server, for tests that need its sockets. */
export function storageSuite(overrides: Parameters<typeof startTestServer>[0] = {}): StorageSuite {
  return engineStorageSuite(overrides, startTestServer);
}

/**
 * For a test file that starts its own servers (each with its own config, such as a data folder): `start` starts one,
 * closed after each test, and `folder(name)` is a path in a temporary folder removed after the file.
 *
 * @example
 * const servers = ownServers();
 * it('keeps files', async () => { const server = await servers.start({ dataDir: servers.folder('keep') }); });
 */
export function ownServers() {
  let dir: string;
  let running: TestServer[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'basekit-files-'));
  });
  afterEach(async () => {
    await Promise.all(running.map((s) => s.close()));
    running = [];
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return {
    async start(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
      const server = await startTestServer(overrides);
      running.push(server);
      return server;
    },
    folder: (name: string) => join(dir, name),
  };
}
