import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    // Builds that mock (`vite build --mode mock`) carry the engine and msw as one lazily loaded chunk of about
    // 0.6 MB, loaded only when mocking.
    chunkSizeWarningLimit: 1000,
  },
});
