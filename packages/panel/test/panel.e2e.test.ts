import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanel, openSignedIn, signIn, startPanel, type PanelTest } from './support.js';

describe('panel: serving and sign-in', () => {
  let panel: PanelTest;
  beforeAll(async () => {
    panel = await startPanel({ headerWord: 'Acme' });
  });
  afterAll(() => panel.close());

  it('serves the page for every panel URL, with the project header word written in, and immutable assets', async () => {
    const res = await panel.server.request('/__admin/panel/users/some-id?x=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<meta name="basekit-header-word" content="Acme" />');
    const asset = /src="(\/__admin\/panel\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const script = await panel.server.request(asset);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await panel.server.request('/__admin/panel')).url).toMatch(/\/__admin\/panel\/$/);
    // Nothing outside the build's folder, however the path is written.
    expect(await (await panel.server.request('/__admin/panel/assets/..%2f..%2fpackage.json')).text()).toContain(
      '<div id="app">',
    );
  });

  it('refuses a wrong master key, signs in with the right one and keeps the session in the tab only', async () => {
    const { page } = panel;
    await page.goto(panel.panelUrl);
    await page.getByLabel('Master key').fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('not the master key');
    await signIn(panel, 'users');
    expect(await page.getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page');
    expect(await page.evaluate(() => Object.keys(localStorage))).not.toContain('basekit-panel:master-key');
    // A reload keeps the session; a shared link opens its page.
    await openPanel(panel, 'project');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Project');
  });

  it('navigates between the seven pages by links, each with its own URL, back and forward included', async () => {
    const { page } = panel;
    await openSignedIn(panel, 'project');
    for (const name of ['Project', 'Users', 'Database', 'Files', 'Transcoder', 'Leaderboards', 'Requests']) {
      await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
      expect(new URL(page.url()).pathname).toBe(`/__admin/panel/${name.toLowerCase()}`);
    }
    await page.goBack();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Leaderboards');
  });

  it('works from the keyboard: a skip link, the pages by Tab and Enter, the heading focused on each page change', async () => {
    const { page } = panel;
    await openSignedIn(panel, 'project');
    // The skip link is the first stop of the Tab order, and leads to the page.
    const first = () =>
      document.querySelector('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')?.textContent;
    expect(await page.evaluate(first)).toBe('Skip to the page');
    await page.getByRole('link', { name: 'Skip to the page' }).focus();
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).hash).toBe('#main');
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Users' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.outerHTML))
      .toBe('<h1 tabindex="-1">Users</h1>');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
  });

  it('follows the system theme and lets the user pick light or dark', async () => {
    const { page } = panel;
    await openSignedIn(panel, 'project');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(15, 18, 22)');
    await page.getByLabel('Theme').selectOption('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByLabel('Theme').selectOption('dark');
    expect(await background()).toBe('rgb(15, 18, 22)');
    await page.getByLabel('Theme').selectOption('system');
    expect(await background()).toBe('rgb(255, 255, 255)');
  });

  it('lists a project created while the panel is open, without a reload', async () => {
    const { page, server } = panel;
    await openSignedIn(panel, 'users');
    const created = await server.admin('/__admin/projects', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { id } = (await created.json()) as { id: string };
    try {
      const switcher = page.getByLabel('Project');
      await switcher.focus();
      await expect.poll(() => switcher.locator('option').allTextContents()).toContain(id);
      await switcher.selectOption(id);
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/__admin/panel/@${id}/users`);
      await switcher.selectOption(server.config.authenticationId);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/users');
    } finally {
      await server.admin(`/__admin/projects/${id}`, { method: 'DELETE' });
    }
  });

  it("switches between the server's projects, each page of each with its URL", async () => {
    const { page, server } = panel;
    const created = await server.admin('/__admin/projects', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { id, config } = (await created.json()) as {
      id: string;
      config: { authenticationId: string; masterKey: string };
    };
    const body = JSON.stringify({ username: 'only-in-b', password: 'pw' });
    expect(
      (
        await server.request('/auth/users', {
          method: 'POST',
          headers: { 'X-Acme-Authentication-Id': config.authenticationId, 'Content-Type': 'application/json' },
          body,
        })
      ).status,
    ).toBe(200);
    const users = page.getByRole('table', { name: /^Users/ });

    await openSignedIn(panel, 'users');
    await expect.poll(() => users.textContent()).toContain('No users yet.');
    await page.getByLabel('Project').selectOption(id);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/__admin/panel/@${id}/users`);
    await expect.poll(() => users.getByRole('link').allTextContents()).toEqual(['only-in-b']);
    // Links stay in the project; the URL alone opens it.
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Project' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Keys, ids and URLs' }).textContent())
      .toContain(config.masterKey);
    await openPanel(panel, `@${id}/users`);
    await expect.poll(() => users.getByRole('link').allTextContents()).toEqual(['only-in-b']);
    await page.getByLabel('Project').selectOption(server.config.authenticationId);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/users');
    await expect.poll(() => users.textContent()).toContain('No users yet.');

    // Signed in with that project's own master key: its users, and no list of the server's projects.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Master key').fill(config.masterKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in once the pages show: opening another URL before then would find no key kept yet.
    await page.getByRole('navigation', { name: 'Pages', exact: true }).waitFor();
    await openPanel(panel, 'users');
    await expect.poll(() => users.getByRole('link').allTextContents()).toEqual(['only-in-b']);
    expect(await page.getByLabel('Project').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(panel);
  });

  it('signs out and forgets the key', async () => {
    const { page } = panel;
    await openSignedIn(panel, 'project');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Master key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});
