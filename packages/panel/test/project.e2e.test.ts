import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../engine/test/support/users.js';
import { signIn, startPanel, type PanelTest } from './support.js';

describe('panel: Project page', () => {
  let panel: PanelTest;
  const status = (section: string) => panel.page.getByRole('region', { name: section }).getByRole('status').last();
  const config = async () => (await (await panel.server.admin('/__admin/config')).json()) as Record<string, unknown>;

  beforeAll(async () => {
    panel = await startPanel();
    await panel.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(panel, 'project');
  });
  afterAll(() => panel.close());

  it('shows every key, id and URL with a copy button, and snippets made of them', async () => {
    const { page, server } = panel;
    const keys = page.getByRole('region', { name: 'Keys, ids and URLs' });
    for (const value of [
      server.url,
      server.config.authenticationId,
      server.config.clientKey,
      server.config.masterKey,
      server.config.objectStorageId,
      server.config.storageId,
      server.config.gameId,
    ]) {
      await expect.poll(() => keys.getByText(value, { exact: true }).count()).toBeGreaterThan(0);
    }
    await keys.getByRole('button', { name: 'Copy Client key' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(server.config.clientKey);

    const snippets = page.getByRole('region', { name: 'Snippets' });
    const sdk = await snippets.getByLabel('SDK snippet', { exact: true }).textContent();
    expect(sdk).toContain(`baseUrl: '${server.url}'`);
    expect(sdk).toContain(`clientKey: '${server.config.clientKey}'`);
    expect(await snippets.getByLabel('msw snippet', { exact: true }).textContent()).toContain(
      `"masterKey": "${server.config.masterKey}"`,
    );
    expect(await snippets.getByLabel('curl snippet', { exact: true }).textContent()).toContain(
      `-H 'X-Service-Authentication-Id: ${server.config.authenticationId}'`,
    );
  });

  it('changes services, e-mail confirmation and token lifetimes through the admin API', async () => {
    const { page } = panel;
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByRole('group', { name: 'Services' }).getByLabel('database').uncheck();
    await settings.getByLabel(/E-mail confirmation/).check();
    await settings.getByLabel('Access token lifetime (seconds)').fill('600');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => status('Settings').textContent()).toBe('Settings saved.');
    expect(await config()).toMatchObject({
      emailConfirmation: true,
      accessTokenTtlSeconds: 600,
      services: { database: false, users: true },
    });

    await settings.getByLabel('Refresh token lifetime (seconds)').fill('0');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    // The browser's own check stops 0 (min 1) before anything is sent.
    expect(
      await settings
        .getByLabel('Refresh token lifetime (seconds)')
        .evaluate((input: HTMLInputElement) => input.validity.valid),
    ).toBe(false);
  });

  it('shows the clock and moves it forward', async () => {
    const { page, server } = panel;
    const clock = page.getByRole('region', { name: 'Clock' });
    await expect.poll(() => clock.getByText(/Server time/).textContent()).toContain('real time');
    await clock.getByLabel('Move forward by').fill('2');
    await clock.getByLabel('Unit').selectOption('hours');
    await clock.getByRole('button', { name: 'Move the clock' }).click();
    await expect.poll(() => status('Clock').textContent()).toMatch(/^Clock moved forward by 2 hours/);
    await expect.poll(() => clock.getByText(/Server time/).textContent()).toMatch(/02:00:0\d ahead of real time/);
    const { offsetSeconds } = (await (await server.admin('/__admin/clock')).json()) as { offsetSeconds: number };
    expect(offsetSeconds).toBe(7200);
  });

  it('exports the state as a download, imports it from a file, and resets the project', async () => {
    const { page, server } = panel;
    // E-mail confirmation is on (the test before): ann registers with an e-mail and stays inactive.
    await registerUser(server, 'ann', { email: 'ann@example.com' });
    const state = page.getByRole('region', { name: 'State' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      state.getByRole('button', { name: 'Export state' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^basekit-state-dev-auth-id-.*\.json$/);
    const exported = await readFile((await download.path())!, 'utf8');
    expect(exported).toContain('"ann"');

    await state.getByRole('button', { name: 'Reset…' }).click();
    await page
      .getByRole('dialog', { name: 'Reset the project?' })
      .getByRole('button', { name: 'Reset the project' })
      .click();
    await expect.poll(() => status('State').textContent()).toBe('The project was reset.');
    expect(await config()).toMatchObject({ emailConfirmation: false, services: { database: true } });
    // The page follows: the settings and the clock show the server's values again.
    await expect.poll(() => page.getByLabel(/E-mail confirmation/).isChecked()).toBe(false);
    await expect.poll(() => page.getByText(/Server time/).textContent()).toContain('real time');
    const count = async () =>
      ((await (await server.admin('/__admin/state')).json()) as { areas: { users: { users: unknown[] } } }).areas.users
        .users.length;
    expect(await count()).toBe(0);

    await state
      .getByLabel('State file (a JSON export)')
      .setInputFiles({ name: 'state.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
    await state.getByRole('button', { name: 'Import state' }).click();
    // It says what it restored, and the whole project came back: the user, and the settings of the export.
    await expect
      .poll(() => status('State').textContent())
      .toMatch(
        /^State imported from state\.json\. Restored: users: users 1, sessions 0, confirmations 1; .*settings \d+/,
      );
    expect(await count()).toBe(1);
    expect(await config()).toMatchObject({ emailConfirmation: true });
    await expect.poll(() => page.getByLabel(/E-mail confirmation/).isChecked()).toBe(true);

    await state
      .getByLabel('State file (a JSON export)')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"areas": 1}') });
    await state.getByRole('button', { name: 'Import state' }).click();
    await expect.poll(() => status('State').textContent()).toMatch(/"areas" must be an object \(code \d+\)/);
    expect(await count()).toBe(1);
  });
});
