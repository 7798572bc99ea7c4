// The Requests page in Chromium: a request made beside the panel appears live, opens at its own URL, and shows its
// secrets masked; filters live in the URL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
beforeAll(async () => {
  panel = await startPanel();
}, 60_000);
afterAll(() => panel.close());

it('shows a request live, opens it at its own URL with its secrets masked, and filters through the URL', async () => {
  const { page, server } = panel;
  await signIn(panel, 'requests');
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
      .getByRole('table', { name: 'Request headers' })
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
