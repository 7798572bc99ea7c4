// The claims of docs/msw.md about msw's service worker in Chromium, checked on this example's page: what a
// production build carries, navigations, Playwright's routing beside the worker, per-test overrides, the
// transcoder's source download, and where the state lives.
import type { TranscoderJob } from '@basekit/msw';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { MOCK_URL } from '../src/config.js';
import { launchChromium, openApp, serveBuild, signIn, type Site } from './support.js';

let site: Site;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  site = await serveBuild('mock');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

beforeEach(async () => {
  context = await browser.newContext();
});

afterEach(async () => {
  await context.close();
});

async function openMocked(): Promise<Page> {
  const page = await context.newPage();
  await openApp(page, site.url);
  return page;
}

/** The text of every script a build emitted. */
async function scriptsOf(outDir: string): Promise<string> {
  const assets = join(outDir, 'assets');
  const names = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  return (await Promise.all(names.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
}

it("leaves msw, the engine and msw's worker script out of a production build, which starts no worker", async () => {
  const production = await serveBuild('production');
  try {
    // vite.config.ts removes the worker script Vite copied from public/: only builds that mock serve it.
    expect((await readdir(production.outDir)).includes('mockServiceWorker.js')).toBe(false);
    expect((await readdir(site.outDir)).includes('mockServiceWorker.js')).toBe(true);
    // The worker's address (msw) and the engine's message for an unknown operation.
    const markers = (scripts: string) =>
      ['/mockServiceWorker.js', 'no such operation'].filter((marker) => scripts.includes(marker));
    expect(markers(await scriptsOf(production.outDir))).toEqual([]);
    expect(markers(await scriptsOf(site.outDir))).toEqual(['/mockServiceWorker.js', 'no such operation']);

    const page = await context.newPage();
    await openApp(page, production.url);
    expect(
      await page.evaluate(async () => ({
        mock: typeof window.mock,
        workers: (await navigator.serviceWorker.getRegistrations()).length,
        backend: document.getElementById('backend')!.textContent,
      })),
    ).toEqual({
      mock: 'undefined',
      workers: 0,
      backend: 'No backend: this build does not mock; open it with ?server=<url>',
    });
  } finally {
    await production.close();
  }
});

type Navigation = 'download link' | 'target=_blank' | 'location';

/**
 * Navigates from a fresh mocked page to `url` in one of three ways, with a worker handler that answers the
 * same-origin `/report.txt`, and tells what came of it: the downloaded text, or the address and title the page
 * (or the new tab) ended on.
 */
async function navigate(url: string, how: Navigation): Promise<string> {
  const page = await openMocked();
  await page.evaluate(() => {
    const { worker, http, HttpResponse } = window.mock!;
    worker.use(http.get('/report.txt', () => new HttpResponse('mocked report')));
  });
  const click = (target: string | null, download: string | null) =>
    page.evaluate(
      ({ url, target, download }) => {
        const link = Object.assign(document.createElement('a'), { href: url });
        if (target) link.target = target;
        if (download) link.download = download;
        document.body.append(link);
        link.click();
      },
      { url, target, download },
    );
  const ended = async (target: Page) => `${target.url()} "${await target.title()}"`;
  if (how === 'target=_blank') {
    const [tab] = await Promise.all([page.waitForEvent('popup'), click('_blank', null)]);
    await tab.waitForLoadState();
    return ended(tab);
  }
  // A download or a navigation of this page (to an error page when the address cannot be reached), whichever comes.
  const outcome = Promise.race([
    page.waitForEvent('download'),
    page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame() }),
  ]);
  await (how === 'location' ? page.evaluate((url) => (location.href = url), url) : click(null, 'report.txt'));
  const happened = await outcome;
  if ('path' in happened) return `download: ${(await readFile(await happened.path(), 'utf8')).slice(0, 15)}`;
  await page.waitForLoadState();
  return ended(page);
}

it('answers no navigation from the worker: download links, new tabs and location go to the network', async () => {
  const page = await openMocked();
  await page.evaluate(() =>
    window.mock!.backend.seed({ files: [{ path: 'docs/report.txt', content: 'mocked report' }] }),
  );
  const crossOrigin = `${MOCK_URL}/dev-storage/docs/report.txt`;
  const sameOrigin = `${site.url}report.txt`;
  // fetch() (so the SDK) and XMLHttpRequest (so axios) get the mocked file...
  const requested = await page.evaluate(async (url) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    const loaded = new Promise((resolve) => xhr.addEventListener('loadend', resolve));
    xhr.send();
    await loaded;
    return { fetch: await (await fetch(url)).text(), xhr: xhr.responseText };
  }, crossOrigin);
  expect(requested).toEqual({ fetch: 'mocked report', xhr: 'mocked report' });

  const ways = ['download link', 'target=_blank', 'location'] as const;
  const cases = ways.flatMap((how) => [
    [`cross-origin ${how}`, crossOrigin, how] as const,
    [`same-origin ${how}`, sameOrigin, how] as const,
  ]);
  const outcomes = Object.fromEntries(
    await Promise.all(cases.map(async ([name, url, how]) => [name, await navigate(url, how)])),
  );
  // ...a navigation does not: cross-origin it fails (the name does not exist), same-origin it gets what the web
  // server answers at that address (Vite preview answers unknown paths with the app's index.html).
  const failed = 'chrome-error://chromewebdata/ "api.basekit.test"';
  const app = `${sameOrigin} "basekit notes"`;
  expect(outcomes).toEqual({
    'cross-origin download link': failed,
    'same-origin download link': 'download: <!doctype html>',
    'cross-origin target=_blank': failed,
    'same-origin target=_blank': app,
    'cross-origin location': failed,
    'same-origin location': app,
  });
});

/**
 * Submits a conversion of `source` in the page (master token, one thumbnail, deliveries to `deliveries`) and waits
 * until the job ends.
 */
function convert(page: Page, source: string, deliveries: string): Promise<TranscoderJob> {
  return page.evaluate(
    async ({ api, source, deliveries }) => {
      const { access_token } = await (
        await fetch(`${api}/auth/login`, {
          method: 'POST',
          headers: { 'X-Service-Authentication-Id': 'dev-auth-id', 'X-Service-Authentication-Key': 'dev-master-key' },
        })
      ).json();
      const post = (path: string, body: unknown) =>
        fetch(`${api}${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      await post('/metadata/upload', { name: 'deliveries', url: deliveries });
      await post('/metadata/thumbnail', { name: 'cover', shots: ['00:00:01'] });
      const submitted = await post('/video/convert', { url: source, upload: 'deliveries', thumbnail: 'cover' });
      if (!submitted.ok) throw new Error(`convert answered ${submitted.status} ${await submitted.text()}`);
      const { requestId } = await submitted.json();
      const { backend } = window.mock!;
      for (;;) {
        const job = (await backend.jobs()).find((each) => each.requestId === requestId)!;
        if (job.state === 'complete' || job.state === 'rejected') return job;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    { api: MOCK_URL, source, deliveries },
  );
}

it('runs the transcoder on a source a worker handler answers, and rejects the job of an unanswered one', async () => {
  const page = await openMocked();
  await page.evaluate(() => {
    const { worker, http, HttpResponse } = window.mock!;
    worker.use(
      // Any non-empty body will do: the simulated transcoder reads the source to its end and decodes nothing.
      http.get('https://videos.example.test/*', () => new HttpResponse(new Uint8Array(64))),
      http.post('https://hooks.example.test/deliveries', () => new HttpResponse(null, { status: 204 })),
    );
  });
  const answered = await convert(page, 'https://videos.example.test/in.mp4', 'https://hooks.example.test/deliveries');
  expect([answered.state, answered.deliveries.delivered > 0]).toEqual(['complete', true]);
  const unanswered = await convert(
    page,
    'https://elsewhere.example.test/in.mp4',
    'https://hooks.example.test/deliveries',
  );
  // Nothing answers that address (no handler, and the name does not exist): the job is rejected for its source.
  expect(unanswered).toMatchObject({ state: 'rejected', reason: expect.stringContaining('source') });
});

it('hides what the worker answers from page.route and context.route; context.route sees what msw lets through', async () => {
  const seen: string[] = [];
  await context.route(`${MOCK_URL}/**`, (route) => {
    seen.push(`context.route ${route.request().url()}`);
    return route.fulfill({ status: 418 });
  });
  await context.route('https://videos.example.test/**', (route) => {
    seen.push(`context.route ${route.request().url()}`);
    return route.fulfill({ body: Buffer.alloc(64) });
  });
  const page = await context.newPage();
  await page.route('**/*', (route) => {
    seen.push(`page.route ${route.request().url()}`);
    return route.fallback();
  });
  await openApp(page, site.url);
  await page.evaluate(() => {
    const { worker, http, HttpResponse } = window.mock!;
    worker.use(http.post('https://hooks.example.test/deliveries', () => new HttpResponse(null, { status: 204 })));
  });
  // Logging in, reading the notes and the leaderboard: all answered by the worker, none by the 418 route.
  await signIn(page, 'bob');
  // No handler claims these, so msw lets them through to the network, where context.route answers.
  const unknownOperation = await page.evaluate(
    (url) => fetch(url).then((res) => res.status),
    `${MOCK_URL}/no/such/operation`,
  );
  const job = await convert(page, 'https://videos.example.test/in.mp4', 'https://hooks.example.test/deliveries');

  expect({ unknownOperation, job: job.state }).toEqual({ unknownOperation: 418, job: 'complete' });
  // page.route saw the page and its scripts, loaded before the worker took control, and nothing after.
  expect(seen.filter((line) => !line.startsWith(`page.route ${site.url}`))).toEqual([
    `context.route ${MOCK_URL}/no/such/operation`,
    'context.route https://videos.example.test/in.mp4',
  ]);
});

it('cannot start msw in a context with serviceWorkers: block', async () => {
  const blocked = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await blocked.newPage();
    const [error] = await Promise.all([page.waitForEvent('pageerror'), page.goto(site.url)]);
    expect(error.message).toContain('[MSW] Failed to register the Service Worker');
  } finally {
    await blocked.close();
  }
});

it('overrides one operation with worker.use, until worker.resetHandlers() or a reload', async () => {
  const page = await openMocked();
  const override = () =>
    page.evaluate((api) => {
      const { worker, http, HttpResponse } = window.mock!;
      worker.use(
        http.post(`${api}/auth/login`, () =>
          HttpResponse.json({ code: 3, error: 'the users service is disabled' }, { status: 503 }),
        ),
      );
    }, MOCK_URL);
  const refused = async () => {
    await page.fill('#username', 'bob');
    await page.fill('#password', 'bob-password');
    await page.click('#login');
    await expect.poll(() => page.textContent('#error')).toContain('the users service is disabled');
  };

  await override();
  await refused();
  await page.evaluate(() => window.mock!.worker.resetHandlers());
  await signIn(page, 'bob');

  await override();
  await page.click('#logout');
  await refused();
  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor();
  await signIn(page, 'bob');
});

it("logs every request msw's worker answers in the console, unless started with quiet: true", async () => {
  const page = await openMocked();
  const logged: string[] = [];
  page.on('console', (message) => void (message.text().includes('[MSW]') && logged.push(message.text())));
  // The example's worker starts with `quiet: true`: nothing from msw.
  await signIn(page, 'bob');
  expect(logged).toEqual([]);

  await page.evaluate(async () => {
    const { worker } = window.mock!;
    worker.stop();
    await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' } });
  });
  await page.click('#logout');
  await signIn(page, 'bob');
  // One collapsed console group per request, `[MSW] 12:00:00 POST https://api.basekit.test/auth/login (200 OK)`
  // (the status styled with %c).
  const line = (method: string, path: string) =>
    expect.stringMatching(new RegExp(`^\\[MSW\\] \\d\\d:\\d\\d:\\d\\d ${method} ${MOCK_URL}${path} \\(.*200 OK`));
  expect(logged).toEqual(
    expect.arrayContaining([
      line('DELETE', '/auth/logout'),
      line('POST', '/auth/login'),
      line('GET', '/auth/users/me'),
    ]),
  );
});

it('keeps the state in the page: another page and a reload start from the seed', async () => {
  const page = await openMocked();
  const notes = (target: Page) =>
    target.evaluate(async () => (await window.mock!.backend.rows('Note')).map((row) => row['title']));
  await page.evaluate(() => window.mock!.backend.seed({ tables: { Note: [{ title: 'seeded by the test' }] } }));
  expect(await notes(page)).toEqual(['seeded by the test']);
  expect(await notes(await openMocked())).toEqual([]);
  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor();
  expect(await notes(page)).toEqual([]);
});
