import { createHandlers, type BasekitHandlers } from '@basekit/msw';
import { http, HttpResponse } from 'msw';
import { setupWorker, type SetupWorker } from 'msw/browser';
import { demoSeed } from './demo-seed';

/**
 * What a Playwright test reaches through `page.evaluate`: the backend's controls, the worker for per-test
 * overrides, and msw's `http` and `HttpResponse` to write them with (a handler must be created inside the page).
 */
interface MockControls {
  backend: BasekitHandlers;
  worker: SetupWorker;
  http: typeof http;
  HttpResponse: typeof HttpResponse;
}

declare global {
  interface Window {
    /** Present only in builds that mock (this module is in no other build). */
    mock?: MockControls;
  }
}

/** Starts the service worker with the reference engine behind `baseUrl`, seeded with the demo players. */
export async function startMockBackend(baseUrl: string): Promise<void> {
  const backend = createHandlers({ baseUrl, seed: demoSeed });
  const worker = setupWorker(...backend);
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
  await backend.ready;
  window.mock = { backend, worker, http, HttpResponse };
}
