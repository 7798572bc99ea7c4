import { createHandlers } from '@basekit/msw';
import { setupWorker } from 'msw/browser';
import { demoSeed } from './demo-seed';

/** Starts the service worker with the reference engine behind `baseUrl`, seeded with the demo players. */
export async function startMockBackend(baseUrl: string): Promise<void> {
  const backend = createHandlers({ baseUrl, seed: demoSeed });
  await setupWorker(...backend).start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
  await backend.ready;
}
