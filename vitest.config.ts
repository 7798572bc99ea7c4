import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `@basekit/source` export condition), so a
// test always runs the code as it is now, never a stale `dist/`.
const conditions = ['@basekit/source', 'module', 'node', 'development|production'];

// The HTTPS run's local CA: made here by its global set-up, trusted by its workers through NODE_EXTRA_CA_CERTS.
const httpsTlsDir = join(tmpdir(), `basekit-https-run-${process.pid}`);

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll waits for what a page or a server does next; on a loaded 2-core machine that can take longer than
    // Vitest's default second.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'all',
          include: [
            'test/**/*.test.ts',
            'mock-server/test/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'examples/*/test/**/*.test.ts',
          ],
          // An example's tests on one shared server need its global set-up, and so do the container tests: their
          // own projects below.
          exclude: [...configDefaults.exclude, 'examples/*/test/server/**', 'test/container/**'],
        },
      },
      {
        // The engine's behaviour tests (its area folders) once more, over HTTP against the Node server; in "all" they
        // reach the engine through engine.fetch in process (packages/engine/test/support/server.ts).
        extends: true,
        test: {
          name: 'engine over HTTP',
          include: ['packages/engine/test/*/**/*.test.ts'],
          provide: { engineTransport: 'http' },
        },
      },
      {
        // examples/node-vitest/vitest.config.ts's "reference server" project, as the example runs it.
        extends: true,
        test: {
          name: 'node-vitest example, one shared server',
          include: ['examples/node-vitest/test/server/**/*.test.ts'],
          globalSetup: ['examples/node-vitest/test/server/global-setup.ts'],
        },
      },
      {
        // The browser example's Playwright tests on one server and one Chromium, a project per worker.
        extends: true,
        test: {
          name: 'browser-app example, one shared server',
          include: ['examples/browser-app/test/server/**/*.test.ts'],
          globalSetup: ['examples/browser-app/test/server/global-setup.ts'],
        },
      },
      {
        // The SDK's end-to-end suite once more, against a server that accepts only another header word (`headerWord`, docs/decisions.md).
        extends: true,
        test: {
          name: 'sdk, header word "Acme"',
          include: ['packages/sdk/test/**/*.test.ts'],
          exclude: ['packages/sdk/test/types.test.ts'],
          env: { BASEKIT_HEADER_WORD: 'Acme' },
        },
      },
      {
        // The SDK's end-to-end suite once more, its files in parallel workers against one server started in the
        // global set-up, each file in a project of its own.
        extends: true,
        test: {
          name: 'sdk, one shared server',
          include: ['packages/sdk/test/**/*.test.ts'],
          exclude: ['packages/sdk/test/types.test.ts'],
          globalSetup: ['mock-server/test/support/shared-server.setup.ts'],
        },
      },
      {
        // The SDK's end-to-end suite and the published Node client once more, over HTTPS with the server's own local
        // CA, trusted as docs/sdk.md says.
        extends: true,
        test: {
          name: 'sdk and backtory-sdk over HTTPS, local CA',
          include: ['packages/sdk/test/**/*.test.ts', 'test/published-clients/**/*.test.ts'],
          exclude: ['packages/sdk/test/types.test.ts'],
          globalSetup: ['mock-server/test/support/https-server.setup.ts'],
          env: { NODE_EXTRA_CA_CERTS: join(httpsTlsDir, 'ca.pem'), BASEKIT_TEST_TLS_DIR: httpsTlsDir },
        },
      },
      {
        // The repository's Dockerfile built and run by a container engine. The global set-up starts the
        // build when the run starts; the files run after every other project's, so that the build runs beside them.
        extends: true,
        test: {
          name: 'container',
          include: ['test/container/**/*.test.ts'],
          globalSetup: ['test/container/image.setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
