// The baseline page: msw's worker with one handler of its own.
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import { reportReady } from './report.js';

const loaded = performance.now();
const worker = setupWorker(http.get('https://api.example.test/hello', () => HttpResponse.json({ hello: 'world' })));
const created = performance.now();
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
await reportReady({ loaded, created }, () => fetch('https://api.example.test/hello'));
