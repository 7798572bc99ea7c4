import { defineConfig } from 'vitest/config';

// Two ways to give the app a backend in tests: msw in each test file (test/*.test.ts), or one reference server for
// the whole run with a project of its own per test file (test/server/, its server started in global set-up).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'msw', include: ['test/*.test.ts'] } },
      {
        test: {
          name: 'reference server',
          include: ['test/server/**/*.test.ts'],
          globalSetup: ['test/server/global-setup.ts'],
        },
      },
    ],
  },
});
