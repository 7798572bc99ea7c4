import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `@basekit/source` export condition), so a
// test always runs the code as it is now, never a stale `dist/`.
const conditions = ['@basekit/source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'mock-server/test/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
