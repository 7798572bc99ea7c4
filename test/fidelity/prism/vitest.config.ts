import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Runs the SDK's end-to-end suite through Prism (see ../prism.test.ts, which starts it). The SDK tests get their
 * server from `packages/sdk/test/support.ts`, which imports `startTestServer`; for that one importer this config
 * hands over `./server.ts`, which puts `prism proxy --errors` in front of the same reference server.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const prismServer = fileURLToPath(new URL('./server.ts', import.meta.url));

const throughPrism: Plugin = {
  name: 'sdk-suite-through-prism',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer?.endsWith('packages/sdk/test/support.ts') && source.endsWith('mock-server/test/support/server.js')) return prismServer;
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
