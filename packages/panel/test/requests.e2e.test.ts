// The Requests page in Chromium: a request made beside the panel appears live, opens at its own URL, and shows its
// secrets masked; filters live in the URL.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../../engine/test/support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
beforeAll(async () => {
  panel = await startPanel();
  await signIn(panel, 'requests');
}, 60_000);
afterAll(() => panel.close());

it('shows a request live, opens it at its own URL with its secrets masked, and filters through the URL', async () => {
  const { page, server } = panel;
  await openPanel(panel, 'requests');
  await page.getByText('Live: new requests appear at the top.').waitFor();

  const ann = await createUser(server, 'ann');
  const table = page.getByRole('table', { name: /^Requests/ });
  const register = table.getByRole('row').filter({ hasText: '/auth/users' });
  await register.waitFor();
  await expect(register.getByRole('cell').nth(3).textContent()).resolves.toBe('200');

  await register.getByRole('link', { name: '/auth/users' }).click();
  await page.waitForURL(/\/__admin\/panel\/requests\/[0-9a-z]+-\d+$/);
  await page.getByRole('heading', { name: /POST \/auth\/users → 200/ }).waitFor();
  const requestBody = await page.getByLabel(/^Request body \(JSON/).textContent();
  expect(JSON.parse(requestBody!)).toEqual({ username: 'ann', password: '[masked]' });
  expect(await page.content()).not.toContain(ann.password);

  // The login: its form and the tokens it answered are masked as well; the link works on its own (a fresh load).
  const [login] = (
    (await (await server.admin('/__admin/requests?text=login&limit=1')).json()) as { requests: { id: string }[] }
  ).requests;
  await openPanel(panel, `requests/${login!.id}`);
  const form = page.getByRole('table', { name: 'Request body (form)' });
  await expect(form.getByRole('row').filter({ hasText: 'password' }).textContent()).resolves.toContain('[masked]');
  expect(JSON.parse((await page.getByLabel(/^Response body \(JSON/).textContent())!)).toMatchObject({
    access_token: '[masked]',
    refresh_token: '[masked]',
  });
  await expect(
    page
      .getByRole('region', { name: 'Request', exact: true })
      .getByRole('table', { name: 'Headers' })
      .getByRole('row')
      .filter({ hasText: 'x-service-authentication-key' })
      .textContent(),
  ).resolves.toContain('[masked]');

  // Filters: the URL holds them, and a request of another area does not appear.
  await openPanel(panel, 'requests?area=database');
  await expect(page.getByLabel('Area').inputValue()).resolves.toBe('database');
  await page.getByText('Live: new requests appear at the top.').waitFor();
  await server.request('/object-storage/classes/Note/missing', {
    headers: { 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...ann.auth },
  });
  await createUser(server, 'bob');
  await table.getByRole('row').filter({ hasText: '/object-storage/classes/Note/missing' }).waitFor();
  expect(await table.getByRole('row').filter({ hasText: '/auth/' }).count()).toBe(0);

  await page.getByLabel('Status').selectOption('2xx');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/\?area=database&status=2xx$/);
  await table.getByText('No request matches.').waitFor();
});

it('names callers by username, copies a request as curl, sends it again and exports the list as HAR', async () => {
  const { page, server } = panel;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const cara = await createUser(server, 'cara');
  await openPanel(panel, 'requests');
  const created = await server.request('/object-storage/classes/Note', {
    method: 'POST',
    headers: {
      'X-Service-Object-Storage-Id': server.config.objectStorageId,
      'Content-Type': 'application/json',
      ...cara.auth,
    },
    body: JSON.stringify({ text: 'hi' }),
  });
  expect(created.status).toBe(201);
  const table = page.getByRole('table', { name: /^Requests/ });
  const row = table.getByRole('row').filter({ hasText: '/object-storage/classes/Note' });
  await expect.poll(() => row.getByRole('link', { name: 'cara' }).count()).toBe(1);
  // The caller filter takes the username.
  await page.getByLabel('Caller').fill('cara');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(1);
  expect(new Set(await table.locator('tbody tr td:nth-child(6)').allTextContents())).toEqual(new Set(['cara']));

  await row.getByRole('link', { name: '/object-storage/classes/Note' }).click();
  await page.getByRole('heading', { name: /POST \/object-storage\/classes\/Note → 201/ }).waitFor();
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain('# Secrets were masked by the inspector: set TOKEN first.');
  expect(curl).toContain(`curl -X POST '${server.url}/object-storage/classes/Note'`);
  expect(curl).toContain(`-H 'X-Service-Object-Storage-Id: ${server.config.objectStorageId}'`);
  expect(curl).toContain('-H "authorization: Bearer $TOKEN"');
  expect(curl).toContain(`--data-raw '{"text":"hi"}'`);
  // The command runs as it is, once TOKEN is set (not synchronously: the server answers from this process).
  const { stdout } = await promisify(execFile)('sh', ['-c', curl.replace(/^#.*\n/gm, '')], {
    env: { ...process.env, TOKEN: cara.accessToken },
  });
  expect(JSON.parse(stdout)).toMatchObject({ _id: expect.any(String) });

  const original = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Send again' }).click();
  await expect.poll(() => new URL(page.url()).pathname).not.toBe(original);
  await page.getByRole('heading', { name: /POST \/object-storage\/classes\/Note → 201/ }).waitFor();
  expect(await page.getByRole('status').filter({ hasText: 'Sent again' }).textContent()).toBe(
    'Sent again: answered 201.',
  );
  expect(await page.getByRole('link', { name: 'cara' }).count()).toBe(1);
  const rows = await server.request('/object-storage/classes/query/Note', {
    method: 'POST',
    headers: {
      'X-Service-Object-Storage-Id': server.config.objectStorageId,
      'Content-Type': 'application/json',
      ...cara.auth,
    },
    body: '{}',
  });
  expect(((await rows.json()) as { results: unknown[] }).results).toHaveLength(3);

  await openPanel(panel, 'requests?area=database');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as HAR' }).click();
  const har = JSON.parse(readFileSync((await (await download).path())!, 'utf8')) as {
    log: { entries: { request: { url: string; headers: { name: string; value: string }[] }; _area: string }[] };
  };
  expect(har.log.entries.length).toBeGreaterThanOrEqual(3);
  expect(har.log.entries.every((entry) => entry._area === 'database')).toBe(true);
  expect(JSON.stringify(har)).not.toContain(cara.accessToken);
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'Exported' }).textContent())
    .toMatch(/^Exported \d+ requests as a HAR file\.$/);
});
