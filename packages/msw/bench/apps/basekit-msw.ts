// The same page with the whole backend: the engine is created and its handlers set up inside the timing.
import { createHandlers } from '@basekit/msw';
import { setupWorker } from 'msw/browser';
import { reportReady } from './report.js';

const loaded = performance.now();
const worker = setupWorker(...createHandlers({ baseUrl: 'https://api.example.test' }));
const created = performance.now();
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
await reportReady({ loaded, created }, () =>
  fetch('https://api.example.test/auth/login', {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': 'dev-auth-id', 'X-Service-Authentication-Key': 'dev-master-key' },
  }),
);
