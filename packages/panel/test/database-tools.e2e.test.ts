// The database page's table tools in Chromium through the real server: export as CSV or JSON (the current
// query or every row), import from them (every value checked, a bad row refused with its line and nothing written),
// the schema with its counts, renaming and dropping a column, deleting a table, each after a confirmation that says
// what goes.
import { readFile } from 'node:fs/promises';
import type { Download } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { database, type Database } from '../../../packages/engine/test/database/support.js';
import { masterAuth } from '../../engine/test/support/users.js';
import { expectIds, path, pointer, rowsStatus, seedNotes } from './database-support.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let master: Database;
beforeAll(async () => {
  panel = await startPanel();
  master = database(panel.server, await masterAuth(panel.server));
  await seedNotes(panel);
  await signIn(panel, 'database/Note');
});
afterAll(() => panel.close());

/** Exports the current table from its dialog; answers the file's name and text. */
async function exportRows(format: 'CSV' | 'JSON', rows: 'The current query' | 'All rows') {
  const { page } = panel;
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Export rows of/ });
  await dialog.getByRole('radio', { name: new RegExp(`^${format}`) }).check();
  await dialog.getByRole('radio', { name: new RegExp(`^${rows}`) }).check();
  const [download] = await Promise.all([
    page.waitForEvent('download') as Promise<Download>,
    dialog.getByRole('button', { name: 'Export' }).click(),
  ]);
  await expect.poll(() => dialog.getByRole('status').textContent()).toMatch(/^Exported \d+ rows as /);
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
}

/** Imports a file into the current table from its dialog; answers the dialog's status once it is done. */
async function importFile(name: string, text: string, mimeType: string) {
  const { page } = panel;
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Import rows into/ });
  await dialog.getByLabel('File (CSV or JSON)').setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect.poll(() => dialog.getByRole('status').textContent()).toMatch(/^(Imported|.*Nothing was imported\.$)/);
  const status = (await dialog.getByRole('status').textContent())!;
  await dialog.getByRole('button', { name: 'Close' }).click();
  return status;
}

it('exports the current query as CSV, every row as JSON, and imports them back', async () => {
  await openPanel(panel, 'database/Note?where={"views":{"$gte":5}}&order=-views');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–3 of 3.');
  const csv = await exportRows('CSV', 'The current query');
  expect(csv.name).toMatch(/^Note-.*\.csv$/);
  const lines = csv.text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('_id,createdAt,updatedAt,likes,title,views,done,author,due,meta,tags,ACL');
  expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['n4', 'n2', 'n3']);
  expect(lines[2]).toContain(',"[""ann"",""cy""]",second,5,false,bob,2024-03-04T05:06:07.890Z,"{""level"":2}"');

  const json = await exportRows('JSON', 'All rows');
  const file = JSON.parse(json.text) as { table: string; columns: unknown[]; rows: { _id: string }[] };
  expect(file.table).toBe('Note');
  expect(file.rows.map((row) => row._id)).toEqual(['n1', 'n2', 'n3', 'n4']);
  expect(file.columns).toContainEqual({ name: 'likes', type: 'Relation', targetClass: 'Author' });

  // Into a new table: the JSON export brings its column types (the relation too), the CSV its values by type.
  await openPanel(panel, 'database/Copy');
  expect(await importFile('notes.json', json.text, 'application/json')).toBe('Imported 4 rows from notes.json.');
  await expectIds(panel, 'Copy', ['n1', 'n2', 'n3', 'n4']);
  const original = (await master.get('Note', 'n2')).body;
  expect((await master.get('Copy', 'n2')).body).toEqual(original);
  await openPanel(panel, 'database/FromCsv');
  expect(await importFile('notes.csv', csv.text, 'text/csv')).toBe('Imported 3 rows from notes.csv.');
  const fromCsv = (await master.get('FromCsv', 'n2')).body;
  expect(fromCsv).toMatchObject({
    title: 'second',
    views: 5,
    done: false,
    meta: { level: 2 },
    createdAt: original.createdAt,
  });
  // A CSV has no column types: a pointer's id stays text unless the table already has the pointer column.
  expect(fromCsv.author).toBe('bob');
});

it('refuses a file with a bad row, naming its line, and imports nothing of it', async () => {
  await openPanel(panel, 'database/Note');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–4 of 4.');
  const csv = 'title,views,author\r\nfine,1,ann\r\n"two\nlines",2,bob\r\nbad,many,cy\r\n';
  expect(await importFile('bad.csv', csv, 'text/csv')).toBe(
    'bad.csv, line 5: column "views" takes a number, not "many". Nothing was imported.',
  );
  // A row the server refuses (its id is taken): its line in the file.
  const json = '[\n  {"title": "new"},\n  {"_id": "n1", "title": "again"}\n]';
  expect(await importFile('taken.json', json, 'application/json')).toBe(
    'taken.json, line 3: "_id" "n1" is taken by another row (code 137). Nothing was imported.',
  );
  expect((await master.query('Note', {}, 'count=1&limit=0')).body.count).toBe(4);
  // A good CSV: its pointers' ids become pointers of the table's pointer column.
  expect(await importFile('good.csv', 'title,views,author\r\nfine,1,ann\r\n', 'text/csv')).toBe(
    'Imported 1 rows from good.csv.',
  );
  const { body } = await master.query('Note', { title: 'fine' });
  expect(body.results[0]).toMatchObject({ views: 1, author: pointer('Author', 'ann') });
});

it('shows the schema with its counts; renames and drops a column, deletes a table, saying first what goes', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await page.locator('summary', { hasText: 'Schema' }).click();
  const columns = page.getByRole('table', { name: 'Columns of Note' });
  const tags = columns.getByRole('row').filter({ hasText: /^tags/ });
  await expect.poll(() => tags.textContent()).toContain('Array3');
  expect(
    await columns
      .getByRole('row')
      .filter({ hasText: /^author/ })
      .textContent(),
  ).toContain('Pointer<Author>4');

  await tags.getByRole('button', { name: 'Drop tags…' }).click();
  const drop = page.getByRole('dialog', { name: 'Drop column tags?' });
  expect(await drop.textContent()).toContain('The Array values of 3 rows of Note are deleted for good');
  await drop.getByRole('button', { name: 'Drop tags' }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'was dropped' }).count()).toBe(1);
  expect((await master.get('Note', 'n1')).body).not.toHaveProperty('tags');
  await expect
    .poll(() => page.getByRole('table', { name: 'Rows of Note' }).getByRole('columnheader').allTextContents())
    .not.toContain('tags Array');

  await columns
    .getByRole('row')
    .filter({ hasText: /^views/ })
    .getByRole('button', { name: 'Rename views…' })
    .click();
  const rename = page.getByRole('dialog', { name: 'Rename column views?' });
  expect(await rename.textContent()).toContain('The values of 5 rows of Note move to the new name');
  await rename.getByLabel('New name').fill('title');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'code 52' }).textContent())
    .toBe('table "Note" already has a column "title" (code 52)');
  await columns
    .getByRole('row')
    .filter({ hasText: /^views/ })
    .getByRole('button', { name: 'Rename views…' })
    .click();
  await rename.getByLabel('New name').fill('hits');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'is now hits' }).count()).toBe(1);
  expect((await master.get('Note', 'n2')).body).toMatchObject({ hits: 5 });

  // Deleting Author names its rows and columns, and the columns that point to it.
  await openPanel(panel, 'database/Author');
  await page.locator('summary', { hasText: 'Schema' }).click();
  await page.getByRole('button', { name: 'Delete table Author…' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete table Author?' });
  await expect.poll(() => remove.textContent()).toContain('Its 3 rows and 4 columns (name, email, age, favourite)');
  // Copy (made by the first test) points to Author too.
  expect(await remove.textContent()).toContain(
    'Copy.likes, Copy.author, Note.likes, Note.author will point to rows that no longer exist',
  );
  await remove.getByRole('button', { name: 'Delete table Author' }).click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database');
  const tables = page.getByRole('table', { name: 'Tables' });
  await expect.poll(() => tables.getByRole('link').allTextContents()).toEqual(['Copy', 'FromCsv', 'Note']);
  expect((await master.get('Author', 'ann')).status).toBe(404);
});
