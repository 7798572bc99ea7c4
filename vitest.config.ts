import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `@basekit/source` export condition), so a
// test always runs the code as it is now, never a stale `dist/`.
const conditions = ['@basekit/source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'all',
          include: ['test/**/*.test.ts', 'mock-server/test/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
        },
      },
      {
        // The SDK's end-to-end suite once more, against a server that accepts only another header word (issue 15).
        extends: true,
        test: {
          name: 'sdk, header word "Acme"',
          include: ['packages/sdk/test/**/*.test.ts'],
          exclude: ['packages/sdk/test/types.test.ts'],
          env: { BASEKIT_HEADER_WORD: 'Acme' },
        },
      },
    ],
  },
});
