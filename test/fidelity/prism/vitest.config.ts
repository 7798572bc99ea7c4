import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Runs the SDK's end-to-end suite through Prism (see ../prism.test.ts, which starts it). The SDK tests get their
 * server through `mock-server/test/support/shared-server.ts`, which imports `startTestServer` (its own server per
 * test file outside a shared-server run, as here); for that one importer this config hands over `./server.ts`, which
 * puts `prism proxy --errors` in front of the same reference server.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const prismServer = fileURLToPath(new URL('./server.ts', import.meta.url));

const throughPrism: Plugin = {
  name: 'sdk-suite-through-prism',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer?.endsWith('mock-server/test/support/shared-server.ts') && source === './server.js') return prismServer;
    return null;
  },
};

export default defineConfig({
  root,
  plugins: [throughPrism],
  test: {
    // The end-to-end scenarios; pack.test.ts (packaging) and types.test.ts (compile-time) send no traffic.
    include: ['packages/sdk/test/{auth,db,files,leaderboards,transcoder,guests,leaderboards-admin}.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
