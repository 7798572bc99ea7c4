// Vitest global set-up of the HTTPS run (vitest.config.ts): one reference server serving HTTPS with a local CA made in
// the folder the project names (BASEKIT_TEST_TLS_DIR), its HTTPS address provided to the tests as `sharedServer`.
// The test workers trust that CA the way docs/sdk.md tells a Node app to: NODE_EXTRA_CA_CERTS, set by the project.
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { startServer } from '../../src/server.js';

export default async function setup({ provide, config }: TestProject): Promise<() => Promise<void>> {
  const tlsDir = config.env['BASEKIT_TEST_TLS_DIR'];
  if (!tlsDir) throw new Error('the HTTPS run needs BASEKIT_TEST_TLS_DIR (vitest.config.ts)');
  const server = await startServer({ port: 0, httpsPort: 0, tlsDir });
  provide('sharedServer', { url: server.httpsUrl!, adminKey: server.engine.project.config.masterKey });
  return async () => {
    await server.close();
    await rm(tlsDir, { recursive: true, force: true });
  };
}
