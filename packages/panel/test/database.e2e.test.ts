// The database page in Chromium through the real server: the table list, the query in the URL, a row read, edited
// with typed editors and followed by its pointers, created with a pointer, a relation and an ACL, deleted; and the
// relation editor refusing rows that do not exist (it used to save them).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { database, type Database } from '../../../packages/engine/test/database/support.js';
import { createUser, masterAuth, type TestUser } from '../../engine/test/support/users.js';
import { date, expectIds, path, pointer, rowsStatus, seedNotes } from './database-support.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let master: Database;
let ann: TestUser;
beforeAll(async () => {
  panel = await startPanel();
  master = database(panel.server, await masterAuth(panel.server));
  await seedNotes(panel);
  // A row written as an app would, by a user.
  ann = await createUser(panel.server, 'panel-db-ann');
  const db = database(panel.server, ann.auth);
  expect((await db.create('Note', { title: 'by a user', views: 2 })).status).toBe(201);
  await signIn(panel, 'database');
});
afterAll(() => panel.close());

it('lists the tables with row counts and column types, and keeps the query of a table in the URL', async () => {
  const { page } = panel;
  await openPanel(panel, 'database');
  const note = page.getByRole('table', { name: 'Tables' }).getByRole('row').filter({ hasText: 'Note' });
  await expect.poll(() => note.textContent()).toContain('views: Number');
  expect(await note.getByRole('cell').nth(1).textContent()).toBe('5');
  expect(await note.textContent()).toContain('author: Pointer<Author>');

  await note.getByRole('link', { name: 'Note' }).click();
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–5 of 5.');
  // Titles on one line: the column's name and type, never wrapped.
  const grid = page.getByRole('table', { name: 'Rows of Note' });
  expect(await grid.getByRole('columnheader').allTextContents()).toEqual([
    '',
    '_id',
    'likes Relation',
    'title String',
    'views Number',
    'done Boolean',
    'author Pointer',
    'due Date',
    'meta Object',
    'tags Array',
    'createdAt Date',
    'updatedAt Date',
    'ACL',
  ]);
  // And whole: each column starts as wide as its header needs (the name and type not cut by an ellipsis).
  for (const header of await grid.getByRole('columnheader').all()) {
    expect(await header.evaluate((th) => th.getBoundingClientRect().height)).toBeLessThan(40);
    const label = header.locator('.grid-sort');
    if (await label.count()) expect(await label.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  }

  // The URL is the query: a shared link shows the same rows; a reload too.
  await openPanel(panel, 'database/Note?where={"views": {"$gt": 2}}&order=-views,_id');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–3 of 3.');
  await expectIds(panel, 'Note', ['n4', 'n2', 'n3']);
  await page.reload();
  await expectIds(panel, 'Note', ['n4', 'n2', 'n3']);

  // A bad query is the service's clear error, not an empty grid.
  await openPanel(panel, 'database/Note?where={"views": {"$bogus": 1}}');
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'code' }).first().textContent())
    .toMatch(/code \d+/);
});

it('edits a row with typed editors (a date in ISO 8601 UTC), each column once, and follows its pointer', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note/n2');
  await page.getByRole('button', { name: 'Edit row' }).click();
  // The editor takes the place of the columns' list: each column shows once.
  expect(await page.getByRole('table', { name: 'Columns' }).count()).toBe(0);
  await expect.poll(() => page.getByLabel('due (Date)').inputValue()).toBe('2024-03-04T05:06:07.890Z');
  await page.getByLabel('title (String)').fill('edited');
  await page.getByLabel('due (Date)').fill('2025-06-07T18:09:10.123Z');
  await page.getByRole('button', { name: 'Unset views' }).click();
  // The Set/Unset buttons line up in one column.
  const lefts = await page
    .getByRole('button', { name: /^(Unset|Set) / })
    .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().left)));
  expect(new Set(lefts).size).toBe(1);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
  const { body } = await master.get('Note', 'n2');
  expect(body).toMatchObject({ title: 'edited', due: date('2025-06-07T18:09:10.123Z') });
  expect(body).not.toHaveProperty('views');
  await expect.poll(() => page.getByLabel("The row's JSON").textContent()).toContain('"edited"');

  // A date that is not ISO 8601 UTC is refused with the form the field takes.
  await page.getByRole('button', { name: 'Edit row' }).click();
  await page.getByLabel('due (Date)').fill('06/07/2025, 6:09:10 PM');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'due:' }).textContent())
    .toBe('due: not a UTC date and time like 2024-01-02T15:04:05.678Z');
  await page.getByRole('button', { name: 'Edit row' }).click();

  // The pointer shows the row it names, by its display column; a click follows it.
  await page.getByRole('table', { name: 'Columns' }).getByRole('link', { name: 'Bob' }).click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Author/bob');
  await expect.poll(() => page.getByLabel("The row's JSON").textContent()).toContain('"Bob"');
});

it('creates a row with a pointer, a relation and an ACL, changes its relation, then deletes it', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await page.getByRole('button', { name: 'New row' }).click();
  await page.getByRole('button', { name: 'Set title' }).click();
  await page.getByLabel('title (String)').fill('made here');
  await page.getByRole('button', { name: 'Set author' }).click();
  await page.getByLabel('author (Pointer): row id').fill('ann');
  await page.getByRole('button', { name: 'Set likes' }).click();
  await page.getByLabel('likes (Relation): row id to add').fill('bob');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Set ACL' }).click();
  await page.getByRole('button', { name: 'Add an ACL entry' }).click();
  await page.getByLabel('ACL (ACL): principal 1').fill('*');
  await page.getByRole('button', { name: 'Create row' }).click();
  await expect.poll(() => path(panel)).toMatch(/^\/__admin\/panel\/database\/Note\/\w+$/);
  const id = path(panel).split('/').pop()!;
  expect((await master.get('Note', id)).body).toMatchObject({
    title: 'made here',
    author: pointer('Author', 'ann'),
    ACL: { '*': { read: true, write: false } },
    likes: [pointer('Author', 'bob')],
  });

  // One save both adds to and removes from the relation.
  await page.getByRole('button', { name: 'Edit row' }).click();
  await page.getByRole('button', { name: 'Remove bob from likes (Relation)' }).click();
  await page.getByLabel('likes (Relation): row id to add').fill('cy');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
  expect((await master.get('Note', id)).body.likes).toEqual([pointer('Author', 'cy')]);

  await page.getByRole('button', { name: 'Delete row' }).click();
  await page.getByRole('dialog', { name: 'Delete this row?' }).getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note');
  expect((await master.get('Note', id)).status).toBe(404);
});

it('refuses to add to a relation a row that does not exist, and saves nothing', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note/n1');
  await page.getByRole('button', { name: 'Edit row' }).click();
  await page.getByLabel('title (String)').fill('not saved');
  await page.getByLabel('likes (Relation): row id to add').fill('nobody');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(() => page.getByRole('status').allTextContents())
    .toContain('likes: no Author row has the id nobody. Nothing was saved.');
  const { body } = await master.get('Note', 'n1');
  expect(body).toMatchObject({ title: 'first', likes: [pointer('Author', 'bob')] });
});

it('shows a row brought by include as that row, not as the bare pointer', async () => {
  const { page } = panel;
  const rowCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/classes/Author/')) rowCalls.push(request.url());
  });
  await openPanel(panel, 'database/Note?include=author&where={"_id":"n3"}');
  const row = page.getByRole('row').filter({ hasText: 'n3' });
  await expect.poll(() => row.textContent()).toContain('third');
  expect(await row.textContent()).not.toContain('Author/ann');
  // Its display column, and the whole row as it came with the answer: no other call.
  await expect.poll(() => row.getByRole('link', { name: 'Ann', exact: true }).count()).toBe(1);
  await row.getByRole('button', { name: 'Show the included Author row ann' }).click();
  const shown = page.getByRole('dialog', { name: 'Author row ann' });
  await expect.poll(() => shown.textContent()).toContain('(included)');
  expect(await shown.textContent()).toContain('ann@example.com');
  expect(rowCalls).toEqual([]);
});

it("shows an ACL by its entries, each user by username, in the grid and on the row's page", async () => {
  const { page } = panel;
  const acl = { '*': { read: true }, [ann.userId]: { read: true, write: true } };
  const created = await database(panel.server, ann.auth).create('Note', { title: 'shared', ACL: acl });
  expect(created.status).toBe(201);
  const id = String(created.body._id);
  await openPanel(panel, `database/Note?where={"_id":"${id}"}`);
  const row = page.getByRole('table', { name: 'Rows of Note' }).getByRole('row').filter({ hasText: 'shared' });
  await expect.poll(() => row.textContent()).toContain('everyone: read; panel-db-ann: read, write');
  const user = row.getByRole('link', { name: 'panel-db-ann' });
  expect(await user.getAttribute('href')).toBe(`/__admin/panel/users/${ann.userId}`);
  expect(await row.textContent()).not.toContain(ann.userId);
  // The JSON stays a click away.
  await row.getByRole('button', { name: `Expand ACL of row ${id}` }).click();
  const expanded = page.getByRole('dialog', { name: `ACL of row ${id}` });
  expect(JSON.parse((await expanded.getByLabel(`ACL of row ${id}`).textContent())!)).toEqual(acl);
  await page.keyboard.press('Escape');

  await openPanel(panel, `database/Note/${id}`);
  const value = page.getByRole('table', { name: 'Columns' }).getByRole('row').filter({ hasText: /^ACL/ });
  await expect.poll(() => value.getByRole('link', { name: 'panel-db-ann' }).count()).toBe(1);
});
