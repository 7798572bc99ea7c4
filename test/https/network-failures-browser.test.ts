import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startServer, type RunningServer } from '../../mock-server/src/server.js';
import { closedAddress } from '../../packages/sdk/test/support.js';

/**
 * In a browser the SDK's NetworkError says what can be said. Chromium gives a script only "Failed to fetch"
 * for a refused connection and for a certificate it does not trust alike; the message says no reason was given and
 * lists the usual causes, and `reason` is `unknown`.
 */

let browser: Browser;
let page: Page;
let site: Server;
let server: RunningServer;

beforeAll(async () => {
  // The SDK as an app bundles it for browsers (from its sources), on a page served from 127.0.0.1.
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, '../../packages/sdk/src/index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'basekit',
    platform: 'browser',
    conditions: ['@basekit/source'],
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  site = createServer((request, response) => {
    const isScript = request.url === '/sdk.js';
    response.writeHead(200, { 'Content-Type': isScript ? 'text/javascript' : 'text/html' });
    response.end(isScript ? script : '<!doctype html><script src="/sdk.js"></script>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  server = await startServer({
    port: 0,
    httpsPort: 0,
    tlsDir: join(await mkdtemp(join(tmpdir(), 'basekit-browser-')), 'tls'),
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
});

afterAll(async () => {
  await browser?.close();
  site?.close();
  await server?.close();
});

/** What `auth.register` rejects with in the page, against `baseUrl`. */
function failureIn(baseUrl: string) {
  return page.evaluate(async (url) => {
    const { createClient } = (window as unknown as { basekit: typeof import('../../packages/sdk/src/index.js') })
      .basekit;
    const client = createClient({ baseUrl: url, authenticationId: 'dev-auth-id', clientKey: 'dev-client-key' });
    try {
      await client.auth.register({ username: 'ann', password: 'pw' });
      return undefined;
    } catch (error) {
      const { name, message, reason } = error as Error & { reason: string };
      return { name, message, reason };
    }
  }, baseUrl);
}

it('says no reason was given, and what the usual causes are, for a refused connection and an untrusted certificate', async () => {
  for (const url of [await closedAddress(), server.httpsUrl!]) {
    expect(await failureIn(url)).toEqual({
      name: 'NetworkError',
      reason: 'unknown',
      message: `POST /auth/users to ${url} failed: Failed to fetch: no reason given (a browser names it only in its console: the server down or unreachable, its certificate not trusted, or CORS)`,
    });
  }
});
