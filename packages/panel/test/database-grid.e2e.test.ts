// The database page's grid in Chromium through the real server: sorting by headers, columns laid out and
// kept per table, cells edited in place, rows selected and deleted, paging a large table, pointers by a display
// column with a preview, relations, JSON on one line, and windows of 400 and 360 px.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { database, type Database } from '../../../packages/engine/test/database/support.js';
import { masterAuth } from '../../engine/test/support/users.js';
import { date, expectIds, importRows, path, rowsStatus, seedNotes, shownIds } from './database-support.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let master: Database;
beforeAll(async () => {
  panel = await startPanel();
  master = database(panel.server, await masterAuth(panel.server));
  await seedNotes(panel);
  await importRows(
    panel,
    'Item',
    Array.from({ length: 1250 }, (_, i) => ({ _id: `i${String(i).padStart(4, '0')}`, n: i })),
  );
  await signIn(panel, 'database/Note');
});
afterAll(() => panel.close());

const grid = (table = 'Note') => panel.page.getByRole('table', { name: `Rows of ${table}` });
const header = (name: string) =>
  grid()
    .getByRole('columnheader')
    .filter({ hasText: new RegExp(`^${name}\\b`) });
/**
 * The cell of a row's column (one of the table's own, typed): its position among the headers, once the table's
 * columns have come. Rows may show first, their columns in the rows' order and without a type: a position read then
 * would name another column once the types come and put the columns in the table's order.
 */
async function cell(id: string, column: string, table = 'Note') {
  let at = -1;
  await expect
    .poll(async () => {
      const titles = await grid(table).getByRole('columnheader').allTextContents();
      at = titles.findIndex((title) => title.startsWith(`${column} `));
      return at;
    })
    .toBeGreaterThanOrEqual(0);
  return grid(table)
    .getByRole('row')
    .filter({ has: panel.page.getByRole('link', { name: id, exact: true }) })
    .getByRole('cell')
    .nth(at);
}

it('sorts by a click on a header, by several columns with Shift, and keeps the order in the URL', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await header('views').getByRole('button').click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note?order=views');
  await expectIds(panel, 'Note', ['n1', 'n2', 'n3', 'n4']);
  expect(await header('views').getAttribute('aria-sort')).toBe('ascending');
  await header('views').getByRole('button').click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note?order=-views');
  await header('title')
    .getByRole('button')
    .click({ modifiers: ['Shift'] });
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note?order=-views,title');
  await expectIds(panel, 'Note', ['n4', 'n2', 'n3', 'n1']);
  expect(await header('title').textContent()).toBe('title String ▲2, sorted 2nd ascending');
  // The keyboard does the same: Shift+Enter on a header adds its column.
  await header('title').getByRole('button').focus();
  await page.keyboard.press('Shift+Enter');
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note?order=-views,-title');
  await expectIds(panel, 'Note', ['n4', 'n3', 'n2', 'n1']);
  await header('views').getByRole('button').click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note');
});

it('hides, moves and resizes columns, by mouse or keyboard, and keeps that per table across reloads', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  const titles = () => grid().getByRole('columnheader').allTextContents();
  await page.locator('summary', { hasText: 'Columns' }).click();
  const menu = page.locator('.columns-menu');
  await menu.getByRole('checkbox', { name: 'meta' }).uncheck();
  await menu.getByRole('button', { name: 'Move title earlier' }).click();
  await menu.getByRole('button', { name: 'Move title earlier' }).click();
  await expect.poll(titles).toEqual(expect.arrayContaining(['title String']));
  expect((await titles()).slice(0, 4)).toEqual(['', 'title String', '_id', 'likes Relation']);
  expect(await titles()).not.toContain('meta Object');
  // Dragging a header moves its column before the one it is dropped on.
  await header('done').dragTo(header('title'));
  await expect.poll(async () => (await titles()).slice(0, 3)).toEqual(['', 'done Boolean', 'title String']);
  const width = () => header('views').evaluate((th) => Math.round(th.getBoundingClientRect().width));
  const before = await width();
  await grid().getByRole('separator', { name: 'Width of views' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(width).toBe(before + 32);
  const box = (await grid().getByRole('separator', { name: 'Width of title' }).boundingBox())!;
  await page.mouse.move(box.x + 3, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 63, box.y + 10, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => header('title').evaluate((th) => Math.round(th.getBoundingClientRect().width))).toBe(240);

  await page.reload();
  await expect.poll(async () => (await titles()).slice(0, 3)).toEqual(['', 'done Boolean', 'title String']);
  expect(await titles()).not.toContain('meta Object');
  expect(await width()).toBe(before + 32);
  // Another table keeps its own layout.
  await openPanel(panel, 'database/Author');
  await expect
    .poll(async () => (await grid('Author').getByRole('columnheader').allTextContents()).slice(0, 3))
    .toEqual(['', '_id', 'name String']);
  await openPanel(panel, 'database/Note');
  await page.locator('summary', { hasText: 'Columns' }).click();
  await page.getByRole('button', { name: 'Reset the columns' }).click();
  await expect.poll(async () => (await titles()).slice(0, 3)).toEqual(['', '_id', 'likes Relation']);
});

it('edits a cell in place with its typed editor on a double click or Enter', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await (await cell('n1', 'views')).dblclick();
  const editor = page.getByRole('dialog', { name: 'Edit views of row n1' });
  await editor.getByLabel('views (Number)').fill('many');
  await editor.getByLabel('views (Number)').press('Enter');
  await expect.poll(() => editor.getByRole('status').textContent()).toBe('views: not a number');
  await editor.getByLabel('views (Number)').fill('7');
  await editor.getByLabel('views (Number)').press('Enter');
  await expect.poll(() => rowsStatus(panel).textContent()).toContain('Saved views of row n1.');
  expect((await master.get('Note', 'n1')).body.views).toBe(7);
  await expect.poll(async () => (await cell('n1', 'views')).textContent()).toBe('7');
});

it('moves between cells with keys as fast as they come, each from the last, edits with Enter, cancels with Escape', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
  const views = await cell('n1', 'views');
  await views.click();
  const [row, column] = (await views.getAttribute('data-cell'))!.split(':').map(Number);
  await expect.poll(focused).toBe(`${row}:${column}`);
  // No wait between the keys: each must start from where the one before it went, rendered or not.
  for (const key of ['ArrowDown', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp', 'ArrowLeft', 'Enter'])
    await page.keyboard.press(key);
  const title = page.getByRole('dialog', { name: 'Edit title of row n2' });
  await title.getByLabel('title (String)').fill('not kept');
  await page.keyboard.press('Escape');
  await expect.poll(() => title.count()).toBe(0);
  // Focus is back on the cell the keys reached, and the keys go on from there.
  await expect.poll(focused).toBe(`${row! + 1}:${column! - 1}`);
  expect((await master.get('Note', 'n2')).body.title).toBe('second');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('F2');
  await page.getByRole('dialog', { name: 'Edit views of row n2' }).waitFor();
  // The editor learns it was closed a task after its popover hid (the toggle event): a key pressed in between has
  // moved on, and the editor's leaving must not take focus back to the cell it edited.
  await page.evaluate(() => {
    document.querySelector<HTMLElement>('[popover]:popover-open')!.hidePopover();
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
  });
  await page.locator('[popover]').waitFor({ state: 'detached' });
  expect(await focused()).toBe(`${row! + 1}:${column! - 1}`);
});

it('goes on with fast keys to rows not rendered yet, far down a page of 1,000 rows', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Item?limit=1000');
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
  const n = await cell('i0000', 'n', 'Item');
  await n.click();
  const column = Number((await n.getAttribute('data-cell'))!.split(':')[1]);
  await expect.poll(focused).toBe(`0:${column}`);
  // The last row is far below the rendered ones; the keys after Ctrl+End come before it is.
  const right = Array<string>(column).fill('ArrowRight');
  for (const key of ['Control+End', 'Home', ...right, 'ArrowUp', 'ArrowUp', 'Enter']) await page.keyboard.press(key);
  const editor = page.getByRole('dialog', { name: 'Edit n of row i0997' });
  await editor.waitFor();
  await page.keyboard.press('Escape');
  await expect.poll(() => editor.count()).toBe(0);
  await expect.poll(focused).toBe(`997:${column}`);
  for (const key of ['Control+Home', ...right, 'Enter']) await page.keyboard.press(key);
  await page.getByRole('dialog', { name: 'Edit n of row i0000' }).waitFor();
  await page.keyboard.press('Escape');
  await expect.poll(focused).toBe(`0:${column}`);
});

it('edits dates in ISO 8601 UTC and refuses a pointer to a row that does not exist', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await (await cell('n3', 'due')).dblclick();
  await page
    .getByRole('dialog', { name: 'Edit due of row n3' })
    .getByLabel('due (Date)')
    .fill('2026-02-03T04:05:06.007Z');
  await page.getByRole('dialog', { name: 'Edit due of row n3' }).getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await cell('n3', 'due')).textContent()).toBe('2026-02-03T04:05:06.007Z');
  expect((await master.get('Note', 'n3')).body.due).toEqual(date('2026-02-03T04:05:06.007Z'));
  await (await cell('n3', 'author')).dblclick();
  const author = page.getByRole('dialog', { name: 'Edit author of row n3' });
  await author.getByLabel('author (Pointer): row id').fill('zed');
  await author.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => author.getByRole('status').textContent())
    .toBe('author: no Author row has the id zed. Nothing was saved.');
  await author.getByRole('button', { name: 'Unset' }).click();
  await expect.poll(() => author.count()).toBe(0);
  expect((await master.get('Note', 'n3')).body).not.toHaveProperty('author');
});

it('shows pointers by the display column of their table with a preview', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await expect.poll(async () => (await cell('n2', 'author')).getByRole('link').textContent()).toBe('Bob');
  await (await cell('n2', 'author')).getByRole('button', { name: 'Preview Author row bob' }).click();
  const preview = page.getByRole('dialog', { name: 'Author row bob' });
  await expect.poll(() => preview.textContent()).toContain('bob@example.com');
  await page.keyboard.press('Escape');

  // Another display column for Author, chosen in its schema.
  await openPanel(panel, 'database/Author');
  await page.locator('summary', { hasText: 'Schema' }).click();
  await page.getByLabel('Pointers to Author show').selectOption('email');
  await openPanel(panel, 'database/Note');
  await expect.poll(async () => (await cell('n2', 'author')).getByRole('link').textContent()).toBe('bob@example.com');
  await openPanel(panel, 'database/Author');
  await page.locator('summary', { hasText: 'Schema' }).click();
  await page.getByLabel('Pointers to Author show').selectOption('name');
});

it('shows a relation by its members with a link to all of them, and JSON on one line that expands', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  const likes = await cell('n2', 'likes');
  await expect.poll(() => likes.textContent()).toBe('2 Author Ann, Cy');
  // The relation's column is not cut: its text fits its width.
  expect(await likes.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
  const meta = await cell('n1', 'meta');
  expect(await meta.locator('code').textContent()).toBe('{ "level": 1, "deep": { "list": [ 1, 2, { "x": "y" } ] } }');
  // A JSON column does not take the width of the grid: it keeps its own and cuts its line.
  expect(await meta.evaluate((td) => td.getBoundingClientRect().width)).toBeLessThan(260);
  expect(await meta.evaluate((td) => td.getBoundingClientRect().height)).toBeLessThan(40);
  await meta.getByRole('button', { name: 'Expand meta of row n1' }).click();
  const expanded = page.getByRole('dialog', { name: 'meta of row n1' });
  expect(await expanded.getByLabel('meta of row n1').textContent()).toBe(
    JSON.stringify({ level: 1, deep: { list: [1, 2, { x: 'y' }] } }, null, 2),
  );
  await page.keyboard.press('Escape');
  await likes.getByRole('link', { name: '2 Author' }).click();
  await expectIds(panel, 'Author', ['ann', 'cy']);
});

it('pages through a large table: the total, a page to jump to, the page size, only the rows in view rendered', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Item');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–20 of 1,250.');
  const paging = page.getByRole('navigation', { name: 'Paging of rows' });
  await paging.getByLabel('Page', { exact: true }).fill('7');
  await paging.getByLabel('Page', { exact: true }).press('Enter');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 121–140 of 1,250.');
  expect(path(panel)).toBe('/__admin/panel/database/Item?skip=120');
  expect((await shownIds(panel, 'Item'))[0]).toBe('i0120');
  await paging.getByLabel('Rows a page').selectOption('100');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 101–200 of 1,250.');
  await paging.getByRole('button', { name: 'Last page' }).click();
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1,201–1,250 of 1,250.');
  expect(await paging.getByText(/of 13/).count()).toBe(1);
  await paging.getByRole('button', { name: 'First page' }).click();
  await paging.getByLabel('Rows a page').selectOption('1000');
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–1,000 of 1,250.');
  // A thousand rows, a few dozen rendered; scrolling renders the others.
  expect(await grid('Item').getAttribute('aria-rowcount')).toBe('1001');
  const rendered = await grid('Item').locator('tbody tr[aria-rowindex]').count();
  expect(rendered).toBeGreaterThan(10);
  expect(rendered).toBeLessThan(80);
  await page.locator('.grid-scroll').evaluate((scroller) => scroller.scrollTo(0, scroller.scrollHeight));
  await expect.poll(async () => (await shownIds(panel, 'Item')).at(-1)).toBe('i0999');
});

it('selects rows and deletes them together, after a confirmation that names them', async () => {
  const { page } = panel;
  await openPanel(panel, 'database/Note');
  await grid().getByRole('checkbox', { name: 'Select row n3' }).check();
  await grid().getByRole('checkbox', { name: 'Select row n4' }).check();
  await page.getByRole('button', { name: 'Delete 2 selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 2 rows of Note?' });
  expect(await dialog.textContent()).toContain('n3, n4 are deleted for good');
  await dialog.getByRole('button', { name: 'Delete 2 rows' }).click();
  await expect.poll(() => rowsStatus(panel).textContent()).toBe('Rows 1–2 of 2. Deleted 2 rows.');
  expect((await master.get('Note', 'n3')).status).toBe(404);
  expect((await master.get('Note', 'n4')).status).toBe(404);
  await grid().getByRole('checkbox', { name: 'Select every row shown' }).check();
  await expect.poll(() => page.getByRole('button', { name: 'Delete 2 selected' }).isEnabled()).toBe(true);
  await grid().getByRole('checkbox', { name: 'Select every row shown' }).uncheck();
  expect(await page.getByRole('button', { name: /^Delete\s+selected$/ }).isDisabled()).toBe(true);
});

it.each([400, 360])(
  'fits a %i px wide window: the grid scrolls inside the page, nothing overflows it',
  async (width) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    try {
      const overflow = () =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      for (const where of ['database', 'database/Note', 'database/Note/n1']) {
        await openPanel(panel, where);
        await page.getByRole('heading', { level: 1 }).waitFor();
        // Not networkidle: a page may keep a connection open (the project list refreshes), so it may never come.
        await page.getByRole('table').first().waitFor();
        expect(await overflow(), where).toBeLessThanOrEqual(0);
      }
      await openPanel(panel, 'database/Note');
      for (const summary of ['Filter', 'Columns', 'Query parameters', 'Schema'])
        await page.locator('summary', { hasText: summary }).click();
      await page
        .getByRole('form', { name: 'Filter' })
        .getByRole('button', { name: 'Add a condition', exact: true })
        .click();
      for (const [button, title] of [
        ['Export…', 'Export rows of Note'],
        ['Import…', 'Import rows into Note'],
      ] as const) {
        const dialog = page.getByRole('dialog', { name: title });
        await page.getByRole('button', { name: button }).click();
        await dialog.waitFor();
        expect(await overflow(), title).toBeLessThanOrEqual(0);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        // Escape at once after the click closes it too: the dialog is modal within the click's own task.
        await page.getByRole('button', { name: button }).click();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached', timeout: 5000 });
      }
      // The row's editor, each column's typed field.
      await openPanel(panel, 'database/Note/n1');
      await page.getByRole('button', { name: 'Edit row' }).click();
      await page.getByLabel('title (String)').waitFor();
      expect(await overflow(), 'row editor').toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  },
);
