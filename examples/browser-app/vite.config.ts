import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    // The page awaits its mocked backend before it wires the UI (top-level await).
    target: 'es2022',
    // The mocked backend (the whole engine and msw) is one lazily loaded chunk of about 0.9 MB, loaded only when mocking.
    chunkSizeWarningLimit: 1000,
  },
});
