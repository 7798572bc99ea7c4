import { afterAll, beforeAll, expect, it } from 'vitest';
import { database, date, pointer, type Database } from '../../../packages/engine/test/database/support.js';
import { createUser, masterAuth } from '../support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let master: Database;
const ids: Record<string, string> = {};
beforeAll(async () => {
  panel = await startPanel();
  master = database(panel.server, await masterAuth(panel.server));
  // Rows written as an app would, by a user.
  const db = database(panel.server, (await createUser(panel.server, 'panel-db-ann')).auth);
  for (const name of ['Ann', 'Bob']) ids[name] = (await db.create('Author', { name })).body._id;
  ids['first'] = (
    await db.create('Note', { title: 'first', views: 1, author: pointer('Author', ids['Ann']!) })
  ).body._id;
  ids['second'] = (
    await db.create('Note', {
      title: 'second',
      views: 5,
      author: pointer('Author', ids['Bob']!),
      due: date('2024-01-02T03:04:05.678Z'),
    })
  ).body._id;
});
afterAll(() => panel.close());

/** The page's panel path and its query, decoded. */
const path = () => {
  const url = new URL(panel.page.url());
  return (
    decodeURIComponent(url.pathname) +
    (url.search && `?${[...url.searchParams].map(([k, v]) => `${k}=${v}`).join('&')}`)
  );
};

it('lists the tables with row counts and column types, and queries rows with a query kept in the URL', async () => {
  const { page } = panel;
  await signIn(panel, 'database');
  const note = page.getByRole('table', { name: 'Tables' }).getByRole('row').filter({ hasText: 'Note' });
  await expect.poll(() => note.textContent()).toContain('views: Number');
  expect(await note.getByRole('cell').nth(1).textContent()).toBe('2');
  expect(await note.textContent()).toContain('author: Pointer<Author>');

  await note.getByRole('link', { name: 'Note' }).click();
  await page.getByLabel('Where').fill('{"views": {"$gt": 2}}');
  await page.getByLabel('Order').fill('-views');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect.poll(path).toBe('/__admin/panel/database/Note?where={"views": {"$gt": 2}}&order=-views');
  const grid = page.getByRole('table', { name: 'Rows of Note' });
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Rows 1–1 of 1.');
  expect(await grid.textContent()).toContain('second');
  expect(await grid.textContent()).not.toContain('first');
  expect(await grid.getByRole('columnheader').allTextContents()).toEqual([
    '_id',
    'title (String)',
    'views (Number)',
    'author (Pointer)',
    'due (Date)',
    'createdAt',
    'updatedAt',
    'ACL',
  ]);

  // The URL is the query: a reload (or a shared link) shows the same rows; paging moves `skip`.
  await page.reload();
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Rows 1–1 of 1.');
  expect(await page.getByLabel('Where').inputValue()).toBe('{"views": {"$gt": 2}}');
  await openPanel(panel, 'database/Note?limit=1&order=views');
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Rows 1–1 of 2.');
  await page.getByRole('navigation', { name: 'Paging of rows' }).getByRole('button', { name: 'Next' }).click();
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Rows 2–2 of 2.');
  expect(path()).toBe('/__admin/panel/database/Note?order=views&limit=1&skip=1');
  expect(await grid.textContent()).toContain('second');

  // A bad query is the service's clear error, not an empty grid.
  await openPanel(panel, 'database/Note?where={"views": {"$bogus": 1}}');
  await expect.poll(() => page.getByRole('status').textContent()).toMatch(/code \d+/);
});

it('edits a row with typed editors and follows its pointer to the row it names', async () => {
  const { page } = panel;
  await openPanel(panel, `database/Note/${ids['second']}`);
  await page.getByRole('button', { name: 'Edit row' }).click();
  await page.getByLabel('title (String)').fill('edited');
  await page.getByLabel('due (Date)').fill('2025-06-07T08:09:10.123');
  await page.getByRole('button', { name: 'Unset views' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
  const { body } = await master.get('Note', ids['second']!);
  expect(body).toMatchObject({ title: 'edited', due: date('2025-06-07T08:09:10.123Z') });
  expect(body).not.toHaveProperty('views');
  // The page reads the row again after saving.
  await expect.poll(() => page.getByLabel("The row's JSON").textContent()).toContain('"edited"');

  await page.getByRole('link', { name: `Open Author row ${ids['Bob']}` }).click();
  await expect.poll(path).toBe(`/__admin/panel/database/Author/${ids['Bob']}`);
  await expect.poll(() => page.getByLabel("The row's JSON").textContent()).toContain('"Bob"');
});

it('creates a row with a pointer, a relation and an ACL, changes its relation, then deletes it', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await page.getByRole('button', { name: 'New row' }).click();
  await page.getByRole('button', { name: 'Set title' }).click();
  await page.getByLabel('title (String)').fill('third');
  await page.getByRole('button', { name: 'Set author' }).click();
  await page.getByLabel('author (Pointer): row id').fill(ids['Ann']!);
  await page.getByRole('button', { name: 'Set ACL' }).click();
  await page.getByRole('button', { name: 'Add an ACL entry' }).click();
  await page.getByLabel('ACL (ACL): principal 1').fill('*');
  await page.getByLabel('New column').fill('likes');
  await page.getByLabel('Its type').selectOption('Relation');
  await page.getByRole('button', { name: 'Add column' }).click();
  await page.getByLabel('likes (Relation): table').fill('Author');
  await page.getByLabel('likes (Relation): row id to add').fill(ids['Bob']!);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Create row' }).click();
  await expect.poll(path).toMatch(/^\/__admin\/panel\/database\/Note\/\w+$/);
  const id = path().split('/').pop()!;
  expect((await master.get('Note', id)).body).toMatchObject({
    title: 'third',
    author: pointer('Author', ids['Ann']!),
    ACL: { '*': { read: true, write: false } },
    likes: [pointer('Author', ids['Bob']!)],
  });

  // One save both adds to and removes from the relation.
  await page.getByRole('button', { name: 'Edit row' }).click();
  await page.getByRole('button', { name: `Remove ${ids['Bob']} from likes (Relation)` }).click();
  await page.getByLabel('likes (Relation): row id to add').fill(ids['Ann']!);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
  expect((await master.get('Note', id)).body.likes).toEqual([pointer('Author', ids['Ann']!)]);

  await page.getByRole('button', { name: 'Delete row' }).click();
  await page.getByRole('dialog', { name: 'Delete this row?' }).getByRole('button', { name: 'Delete' }).click();
  await expect.poll(path).toBe('/__admin/panel/database/Note');
  expect((await master.get('Note', id)).status).toBe(404);
});
