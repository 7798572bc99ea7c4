import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/**
 * Vite copies the whole of public/ into every build, msw's worker script included (msw: "Please do NOT serve this
 * file on production"). A build that does not mock removes it again; the condition is src/main.ts's own.
 */
function withoutMockWorker(): Plugin {
  let worker: string | undefined;
  return {
    name: 'without-mock-worker',
    apply: 'build',
    configResolved({ env, root, build }) {
      const mocks = env['DEV'] === true || env['VITE_MOCK'] === 'true';
      if (!mocks) worker = resolve(root, build.outDir, 'mockServiceWorker.js');
    },
    async closeBundle() {
      if (worker) await rm(worker, { force: true });
    },
  };
}

export default defineConfig({
  plugins: [withoutMockWorker()],
  build: {
    // Builds that mock (`vite build --mode mock`) carry the engine and msw as one lazily loaded chunk of about
    // 0.6 MB, loaded only when mocking.
    chunkSizeWarningLimit: 1000,
  },
});
