// The panel's Faults and Snapshots sections of the Project page, in Chromium against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authIdHeader } from '../../engine/test/support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

describe('panel: faults and snapshots', () => {
  let panel: PanelTest;
  const region = (name: string) => panel.page.getByRole('region', { name });
  const status = (name: string) => region(name).getByRole('status').last();
  const masterLogin = () =>
    panel.server.request('/auth/login', {
      method: 'POST',
      headers: { ...authIdHeader(panel.server), 'X-Service-Authentication-Key': panel.server.config.masterKey },
    });

  beforeAll(async () => {
    panel = await startPanel();
    await signIn(panel, 'project');
  });
  afterAll(() => panel.close());

  it('sets a fault that the server then applies, lists what is left of it, removes it', async () => {
    const faults = region('Faults');
    await expect.poll(() => faults.getByText('No fault is set').count()).toBe(1);
    await faults.getByLabel('Method').selectOption('POST');
    await faults.getByLabel('Path').fill('/auth/login');
    await faults.getByLabel('Effect').selectOption('status');
    await faults.getByLabel('Status').fill('503');
    await faults.getByLabel('Times').fill('2');
    await faults.getByRole('button', { name: 'Set the fault' }).click();
    await expect.poll(() => status('Faults').textContent()).toMatch(/^Fault f\d+ set on POST \/auth\/login\.$/);
    const table = faults.getByRole('table', { name: 'Set on this project' });
    await expect.poll(() => table.getByText('POST /auth/login').count()).toBe(1);

    expect((await masterLogin()).status).toBe(503);
    const { faults: listed } = (await (await panel.server.admin('/__admin/faults')).json()) as {
      faults: { id: string; remaining: number }[];
    };
    expect(listed).toMatchObject([{ remaining: 1 }]);

    await table.getByRole('button', { name: `Remove fault ${listed[0]!.id}` }).click();
    await expect.poll(() => faults.getByText('No fault is set').count()).toBe(1);
    expect((await masterLogin()).status).toBe(200);
  });

  it('shows a drop of the connection as injected on the Requests page', async () => {
    const faults = region('Faults');
    await faults.getByLabel('Method').selectOption('any');
    await faults.getByLabel('Path').fill('/auth/users/me');
    await faults.getByLabel('Effect').selectOption('reset');
    await faults.getByRole('button', { name: 'Set the fault' }).click();
    await expect.poll(() => status('Faults').textContent()).toMatch(/set on every method \/auth\/users\/me/);
    await expect(panel.server.request('/auth/users/me', { headers: authIdHeader(panel.server) })).rejects.toThrow();
    await openPanel(panel, 'requests');
    const row = panel.page.getByRole('row').filter({ hasText: '/auth/users/me' });
    await expect.poll(() => row.first().textContent()).toMatch(/dropped injected \(f\d+\)/);
    await openPanel(panel, 'project');
    await region('Faults').getByRole('button', { name: 'Remove all' }).click();
    await expect.poll(() => status('Faults').textContent()).toBe('Every fault was removed.');
  });

  it('saves a snapshot and restores the project to it', async () => {
    const snapshots = region('Snapshots');
    await snapshots.getByLabel('Snapshot name').fill('empty');
    await snapshots.getByRole('button', { name: 'Save a snapshot' }).click();
    await expect.poll(() => status('Snapshots').textContent()).toBe('Snapshot "empty" saved.');
    const registered = await panel.server.request('/auth/users', {
      method: 'POST',
      headers: { ...authIdHeader(panel.server), 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'ann', password: 'pw-ann' }),
    });
    expect(registered.status).toBe(200);
    const users = async () =>
      ((await (await panel.server.admin('/__admin/state')).json()) as { areas: { users: { users: unknown[] } } }).areas
        .users.users.length;
    expect(await users()).toBe(1);

    await snapshots.getByRole('button', { name: 'Restore empty' }).click();
    await expect
      .poll(() => status('Snapshots').textContent())
      .toBe('The project is back as it was at snapshot "empty".');
    expect(await users()).toBe(0);
    await expect.poll(() => snapshots.getByRole('table').getByText('1 times').count()).toBe(1);

    await snapshots.getByRole('button', { name: 'Delete empty' }).click();
    await expect.poll(() => snapshots.getByText('No snapshot saved.').count()).toBe(1);
  });
});
