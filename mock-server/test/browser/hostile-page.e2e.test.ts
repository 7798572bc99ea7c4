// A hostile page in the developer's Chromium, against a reference server on their machine (docs/reliability.md#a-hostile-page-dns-rebinding): a page of
// another site tries every way a page has to reach the admin API and the built-in master key, and a page whose name
// is rebound to 127.0.0.1 (DNS rebinding, made here with Chromium's host resolver rules) tries the same as a
// same-origin page. Nothing it tries reads or changes the server's state.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { database } from '../../../packages/engine/test/database/support.js';
import { launchChromium } from '../../../test/support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';

let server: TestServer;
let hostile: Server;
let browser: Browser;
let page: Page;
let serverPort: string;
let hostilePort: number;

beforeAll(async () => {
  server = await startTestServer();
  serverPort = new URL(server.url).port;
  // The hostile site: an empty page; what it does runs in it through page.evaluate.
  hostile = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>hostile</title>'));
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostilePort = (hostile.address() as AddressInfo).port;
  browser = await launchChromium(['--host-resolver-rules=MAP hostile.test 127.0.0.1, MAP rebound.test 127.0.0.1']);
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => hostile?.close(resolve));
  await server?.close();
});

/** The database rows and e-mails the server holds, and its config: what an attack would read or change. */
async function serverState(): Promise<unknown> {
  const { body: rows } = await database(server, await masterAuth(server)).query('Note', {}, 'count=1');
  const config = await (await server.admin('/__admin/config')).json();
  return { rows, config };
}

describe('a page of another site', () => {
  it('can neither read nor change the admin API, by fetch, forms, beacons, images or EventSource', async () => {
    await server.reset();
    await server.request('/object-storage/classes/Note', {
      method: 'POST',
      headers: {
        'X-Service-Object-Storage-Id': 'dev-db',
        ...(await masterAuth(server)),
        'Content-Type': 'application/json',
      },
      body: '{"text":"mine"}',
    });
    const before = await serverState();
    await page.goto(`http://hostile.test:${hostilePort}/`);
    const outcomes = await page.evaluate(async (target) => {
      const key = { 'X-Service-Authentication-Key': 'dev-master-key' };
      const attempt = (run: () => Promise<unknown>) =>
        run().then(
          (value) => `answered ${String(value)}`,
          (error: Error) => `failed: ${error.name}`,
        );
      /** Sets `url` on a new element of `tag` and settles with how it loaded. */
      const load = (tag: 'img' | 'iframe', url: string) =>
        new Promise((resolve) => {
          const element = document.createElement(tag);
          element.onload = () => resolve('loaded');
          element.onerror = () => resolve('error');
          if (tag === 'iframe') (element as HTMLIFrameElement).name = 'sink';
          document.body.append(element);
          element.src = url;
        });
      const image = load('img', `${target}/__admin/state`);
      const framed = load('iframe', 'about:blank?sink');
      await framed;
      const form = Object.assign(document.createElement('form'), {
        method: 'POST',
        action: `${target}/__admin/reset`,
        target: 'sink',
        enctype: 'text/plain',
      });
      form.append(
        Object.assign(document.createElement('input'), {
          name: 'X-Service-Authentication-Key',
          value: 'dev-master-key',
        }),
      );
      document.body.append(form);
      const posted = new Promise((resolve) => {
        document.querySelector('iframe')!.onload = () => resolve('loaded');
      });
      form.submit();
      return {
        readState: await attempt(() => fetch(`${target}/__admin/state`, { headers: key }).then((r) => r.status)),
        reset: await attempt(() =>
          fetch(`${target}/__admin/reset`, { method: 'POST', headers: key }).then((r) => r.status),
        ),
        patchConfig: await attempt(() =>
          fetch(`${target}/__admin/config`, {
            method: 'PATCH',
            headers: { ...key, 'Content-Type': 'application/json' },
            body: '{"publicUrl":"https://hostile.test"}',
          }).then((r) => r.status),
        ),
        noCorsReset: await attempt(() =>
          fetch(`${target}/__admin/reset`, { method: 'POST', mode: 'no-cors', body: 'dev-master-key' }).then(
            (r) => r.type,
          ),
        ),
        beacon: navigator.sendBeacon(`${target}/__admin/reset`, 'X-Service-Authentication-Key: dev-master-key'),
        form: await posted,
        image: await image,
        events: await new Promise((resolve) => {
          const source = new EventSource(`${target}/__admin/requests/stream`);
          source.onerror = () => {
            source.close();
            resolve('error');
          };
          source.onmessage = () => resolve('message');
        }),
        masterLogin: await fetch(`${target}/auth/login`, {
          method: 'POST',
          headers: { ...key, 'X-Service-Authentication-Id': 'dev-auth-id' },
        }).then(async (r) => `${r.status} ${((await r.json()) as { code: number }).code}`),
      };
    }, server.url);
    expect(outcomes).toEqual({
      readState: 'failed: TypeError',
      reset: 'failed: TypeError',
      patchConfig: 'failed: TypeError',
      noCorsReset: 'answered opaque',
      beacon: true,
      form: 'loaded',
      image: 'error',
      events: 'error',
      masterLogin: `417 ${ErrorCode.BUILT_IN_KEY_REFUSED}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the beacon is sent after the page's turn
    expect(await serverState()).toEqual(before);
  });
});

describe('a page whose name is rebound to the server (DNS rebinding)', () => {
  it('is same-origin with the server and still reads and changes nothing: 403 code 20, 417 code 21', async () => {
    const before = await serverState();
    // The attacker's page comes from the attacker first, then its name is made to point at 127.0.0.1; here a page of
    // that origin is had from the server itself under the rebound name (a JSON answer makes a page like any other).
    await page.goto(`http://rebound.test:${serverPort}/__health`);
    const outcomes = await page.evaluate(async () => {
      const key = { 'X-Service-Authentication-Key': 'dev-master-key' };
      const answer = async (response: Response) =>
        `${response.status} ${((await response.json()) as { code: number }).code}`;
      return {
        readState: await fetch('/__admin/state', { headers: key }).then(answer),
        reset: await fetch('/__admin/reset', { method: 'POST', headers: key }).then(answer),
        projects: await fetch('/__admin/projects', { headers: key }).then(answer),
        masterLogin: await fetch('/auth/login', {
          method: 'POST',
          headers: { ...key, 'X-Service-Authentication-Id': 'dev-auth-id' },
        }).then(answer),
      };
    });
    expect(outcomes).toEqual({
      readState: `403 ${ErrorCode.HOST_NOT_ALLOWED}`,
      reset: `403 ${ErrorCode.HOST_NOT_ALLOWED}`,
      projects: `403 ${ErrorCode.HOST_NOT_ALLOWED}`,
      masterLogin: `417 ${ErrorCode.BUILT_IN_KEY_REFUSED}`,
    });
    expect(await serverState()).toEqual(before);
  });
});
