import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authIdHeader, createUser, login, registerUser } from '../../engine/test/support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

describe('panel: Users page', () => {
  let panel: PanelTest;
  const heading = () => panel.page.getByRole('heading', { level: 2 }).first().textContent();
  const userTable = () => panel.page.getByRole('table', { name: /^Users/ });
  const record = async () =>
    JSON.parse((await panel.page.getByLabel('User record').textContent())!) as Record<string, unknown>;

  beforeAll(async () => {
    panel = await startPanel();
    await signIn(panel, 'users');
  });
  beforeEach(() => panel.server.reset());
  afterAll(() => panel.close());

  it('creates a user through the form and shows them, in the list and on their own URL', async () => {
    const { page } = panel;
    await openPanel(panel, 'users');
    await expect.poll(() => userTable().textContent()).toContain('No users yet.');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByLabel('Username').fill('ann');
    await dialog.getByLabel('First name').fill('Ann');
    await dialog.getByLabel('E-mail').fill('ann@example.com');
    await dialog.getByLabel('Password').fill('s3cret');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(heading).toBe('ann');
    const { userId } = await record();
    expect(new URL(page.url()).pathname).toBe(`/__admin/panel/users/${userId as string}`);
    expect(await record()).toMatchObject({ username: 'ann', firstName: 'Ann', email: 'ann@example.com', active: true });

    await page.getByRole('link', { name: '← All users' }).click();
    await expect.poll(() => userTable().getByRole('link', { name: 'ann' }).count()).toBe(1);
    expect(await userTable().getByRole('caption').textContent()).toBe('Users (1)');
  });

  it('shows a registration refused by the server, and changes nothing', async () => {
    const { page, server } = panel;
    await createUser(server, 'bob');
    await openPanel(panel, 'users');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByLabel('Username').fill('bob');
    await dialog.getByLabel('Password').fill('s3cret');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toMatch(/already taken \(code 202\)/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await userTable().getByRole('caption').textContent()).toBe('Users (1)');
  });

  it('searches and pages, each with its URL', async () => {
    const { page, server } = panel;
    for (let i = 0; i < 22; i++) await registerUser(server, `player${String(i).padStart(2, '0')}`);
    await registerUser(server, 'carol', { firstName: 'Carol' });
    await openPanel(panel, 'users');
    await expect.poll(() => userTable().getByRole('caption').textContent()).toBe('Users (23)');
    await page.getByRole('navigation', { name: 'Users pages' }).getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => userTable().getByRole('link').allTextContents()).toEqual(['player20', 'player21', 'carol']);
    expect(new URL(page.url()).search).toBe('?page=1');

    await page.getByLabel('Search users').fill('CAR');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => userTable().getByRole('link').allTextContents()).toEqual(['carol']);
    expect(new URL(page.url()).search).toBe('?q=CAR');
    // The URL alone restores the search.
    await openPanel(panel, 'users?q=player1');
    await expect.poll(() => userTable().getByRole('caption').textContent()).toBe('Users matching “player1” (10)');
  });

  it('finds users however their names are written, and by their id', async () => {
    const { page, server } = panel;
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push((await createUser(server, `player${i}`, { lastName: 'García' })).userId);
    await createUser(server, 'ann');
    await openPanel(panel, 'users');
    await page.getByLabel('Search users').fill('garcia');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => userTable().getByRole('caption').textContent()).toBe('Users matching “garcia” (23)');
    await page.getByLabel('Search users').fill(ids[7]!);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => userTable().getByRole('link').allTextContents()).toEqual(['player7']);
  });

  it('keeps a search typed as soon as the field shows', async () => {
    const { page } = panel;
    await openPanel(panel, 'requests');
    // Typed in the task that shows the field, before the page's effects run (as a fast user or a test does).
    await page.evaluate(() => {
      new MutationObserver((_, observer) => {
        const field = document.querySelector<HTMLInputElement>('input[placeholder="name, e-mail or user id"]');
        if (!field) return;
        observer.disconnect();
        field.value = 'carol';
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?q=carol');
  });

  it('filters by active and by guest, each in the URL', async () => {
    const { page, server } = panel;
    await createUser(server, 'amy');
    await server.admin('/__admin/config', { method: 'PATCH', body: JSON.stringify({ emailConfirmation: true }) });
    await registerUser(server, 'ida', { email: 'ida@example.com' });
    const guestAnswer = await server.request('/auth/guest-users', { method: 'POST', headers: authIdHeader(server) });
    expect(guestAnswer.status).toBe(201);
    const guest = (await guestAnswer.json()) as { username: string };
    const names = () => userTable().getByRole('link').allTextContents();
    await openPanel(panel, 'users');
    await expect.poll(() => userTable().getByRole('caption').textContent()).toBe('Users (3)');

    await page.getByLabel('Active').selectOption('false');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(names).toEqual(['ida']);
    expect(new URL(page.url()).search).toBe('?active=false');
    expect(await userTable().getByRole('caption').textContent()).toBe('Users, not active (1)');

    await page.getByLabel('Active').selectOption('');
    await page.getByLabel('Guest').selectOption('true');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(names).toEqual([guest.username]);
    expect(new URL(page.url()).search).toBe('?guest=true');

    // Both, from the URL alone: active registered users.
    await openPanel(panel, 'users?active=true&guest=false');
    await expect.poll(names).toEqual(['amy']);
    expect(await page.getByLabel('Active').inputValue()).toBe('true');
    expect(await page.getByLabel('Guest').inputValue()).toBe('false');
    // With a text: nobody active is called ida.
    await openPanel(panel, 'users?q=ida&active=true');
    await expect.poll(() => userTable().textContent()).toContain('No user matches.');
    await page.getByRole('link', { name: 'Clear' }).click();
    await expect.poll(names).toEqual(['amy', 'ida', guest.username]);
  });

  it('sets the password a user then logs in with through the service; their sessions stay', async () => {
    const { page, server } = panel;
    const pat = await createUser(server, 'pat');
    await openPanel(panel, `users/${pat.userId}`);
    await expect.poll(heading).toBe('pat');
    const form = page.getByRole('form', { name: 'Set the password' });
    await form.getByLabel('New password').fill('a new secret');
    await form.getByRole('button', { name: 'Set password' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent())
      .toBe('pat logs in with the new password from now on.');
    expect(await form.getByLabel('New password').inputValue()).toBe('');
    const key = { 'X-Service-Authentication-Key': server.config.clientKey };
    const tokens = await login(server, { username: 'pat', password: 'a new secret' }, key);
    expect(tokens['access_token']).toEqual(expect.any(String));
    await expect(login(server, { username: 'pat', password: pat.password }, key)).rejects.toThrow(/login failed: 401/);
    // The session made before the change still works.
    const me = await server.request(`/auth/users/${pat.userId}`, { headers: { ...authIdHeader(server), ...pat.auth } });
    expect(me.status).toBe(200);
  });

  it("edits a user's profile, signs them out everywhere and deletes them", async () => {
    const { page, server } = panel;
    const dan = await createUser(server, 'dan');
    await openPanel(panel, `users/${dan.userId}`);
    await expect.poll(heading).toBe('dan');
    await page.getByLabel('Last name').fill('Brown');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'saved' }).textContent()).toBe('dan saved.');
    await expect.poll(async () => (await record())['lastName']).toBe('Brown');

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(() => page.getByText(/^Signed out:/).textContent()).toBe('Signed out: 1 refresh token expired.');
    const renew = new FormData();
    renew.set('refresh_token', dan.refreshToken);
    const renewal = await server.request('/auth/login', {
      method: 'POST',
      headers: {
        ...authIdHeader(server),
        'X-Service-Authentication-Key': server.config.clientKey,
        'X-Service-Authentication-Refresh': '1',
      },
      body: renew,
    });
    expect(renewal.status).toBe(401);

    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog', { name: 'Delete dan?' }).getByRole('button', { name: 'Delete the user' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/users');
    await expect.poll(() => userTable().textContent()).toContain('No users yet.');
    expect((await server.admin(`/__admin/users/${dan.userId}/sign-out`, { method: 'POST' })).status).toBe(404);
  });

  it('shows the outbox with each confirmation link, and activates a user who has not confirmed', async () => {
    const { page, server } = panel;
    await server.admin('/__admin/config', { method: 'PATCH', body: JSON.stringify({ emailConfirmation: true }) });
    for (const name of ['eve', 'fay']) await registerUser(server, name, { email: `${name}@example.com` });
    await openPanel(panel, 'users');
    const mails = page.getByRole('table', { name: 'E-mails (2)' });
    const link = mails.getByRole('link', { name: 'Confirmation link for fay@example.com' });
    const { messages } = (await (await server.admin('/__admin/outbox')).json()) as {
      messages: { to: string; link: string }[];
    };
    expect(await link.getAttribute('href')).toBe(messages.find((m) => m.to === 'fay@example.com')!.link);
    // Newest first.
    expect(await mails.getByRole('link').allTextContents()).toEqual([
      'Confirmation link for fay@example.com',
      'Confirmation link for eve@example.com',
    ]);

    await userTable().getByRole('link', { name: 'eve' }).click();
    await expect.poll(heading).toBe('eve');
    expect((await record())['active']).toBe(false);
    await expect
      .poll(() => page.getByRole('table', { name: 'E-mails to eve@example.com' }).getByRole('link').allTextContents())
      .toEqual(['Confirmation link for eve@example.com']);
    await page.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(async () => (await record())['active']).toBe(true);
    expect(await page.getByRole('button', { name: 'Activate' }).count()).toBe(0);
  });
});
