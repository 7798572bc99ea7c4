// The database page's visual filter in Chromium through the real server: conditions for every operator of
// the query language (docs/database.md#queries) written as the same where the URL keeps, values read by their column's type, "or"
// groups, sub-queries of another table, rows related to a row; and a where of the URL read back into conditions.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { expectIds, path, seedNotes } from './database-support.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
beforeAll(async () => {
  panel = await startPanel();
  await seedNotes(panel);
  await signIn(panel, 'database');
});
afterAll(() => panel.close());

const filter = () => panel.page.getByRole('form', { name: 'Filter' });

/** Opens a table's rows with the filter shown. */
async function openFilter(table: string, where?: unknown) {
  const query = where === undefined ? '' : `?${new URLSearchParams({ where: JSON.stringify(where) })}`;
  await openPanel(panel, `database/${table}${query}`);
  const summary = panel.page.locator('summary', { hasText: 'Filter' });
  if (!(await summary.evaluate((s) => (s.parentElement as HTMLDetailsElement).open))) await summary.click();
}

/** Adds a condition (the n-th of its list, `name` e.g. "condition 2") and fills it in. */
async function addCondition(name: string, column: string, op: string, value?: string, add = 'Add a condition') {
  const form = filter();
  await form.getByRole('button', { name: add, exact: true }).click();
  await form.getByLabel(`Column of ${name}`, { exact: true }).fill(column);
  await form.getByLabel(`Operator of ${name}`, { exact: true }).selectOption(op);
  if (value === undefined) return;
  const field = form.getByLabel(`Value of ${name}`, { exact: true });
  if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value);
  else await field.fill(value);
}

/** Applies the filter and answers the where the URL then holds. */
async function apply(): Promise<unknown> {
  const before = panel.page.url();
  await filter().getByRole('button', { name: 'Apply the filter' }).click();
  await expect.poll(() => panel.page.url()).not.toBe(before);
  const where = new URL(panel.page.url()).searchParams.get('where');
  return where === null ? undefined : JSON.parse(where);
}

beforeEach(() => openFilter('Note'));

it('compares numbers, dates, text patterns and pointers by their column types', async () => {
  await addCondition('condition 1', 'views', '$gte', '5');
  expect(await apply()).toEqual({ views: { $gte: 5 } });
  await expectIds(panel, 'Note', ['n2', 'n3', 'n4']);

  // The URL's where comes back as conditions after a reload, and more can be added to it.
  await panel.page.reload();
  await expect.poll(() => filter().getByLabel('Value of condition 1', { exact: true }).inputValue()).toBe('5');
  expect(await filter().getByLabel('Operator of condition 1', { exact: true }).inputValue()).toBe('$gte');
  await addCondition('condition 2', 'views', '$lt', '9');
  await addCondition('condition 3', 'title', '$ne', 'third');
  expect(await apply()).toEqual({ views: { $gte: 5, $lt: 9 }, title: { $ne: 'third' } });
  await expectIds(panel, 'Note', ['n2']);

  await openFilter('Note');
  await addCondition('condition 1', 'title', '$regex', '^f');
  await filter().getByLabel('ignore case in condition 1').check();
  expect(await apply()).toEqual({ title: { $regex: '^f', $options: 'i' } });
  await expectIds(panel, 'Note', ['n1', 'n4']);

  await openFilter('Note');
  await addCondition('condition 1', 'due', '$gt', '2024-02-01T00:00:00Z');
  await addCondition('condition 2', 'author', '$eq', 'bob');
  expect(await apply()).toEqual({
    due: { $gt: { __type: 'Date', iso: '2024-02-01T00:00:00.000Z' } },
    author: { __type: 'Pointer', className: 'Author', _id: 'bob' },
  });
  await expectIds(panel, 'Note', ['n2']);

  // A value that does not fit its column is named, and nothing is applied.
  await openFilter('Note');
  await addCondition('condition 1', 'views', '$gt', 'many');
  await filter().getByRole('button', { name: 'Apply the filter' }).click();
  await expect.poll(() => filter().getByRole('status').textContent()).toBe('views: "many" is not a number');
  expect(path(panel)).toBe('/__admin/panel/database/Note');
});

it('tests lists, arrays and presence: $in, $nin, $all, an array containing a value, $exists', async () => {
  await addCondition('condition 1', 'views', '$in', '1, 9');
  expect(await apply()).toEqual({ views: { $in: [1, 9] } });
  await expectIds(panel, 'Note', ['n1', 'n4']);

  await openFilter('Note');
  await addCondition('condition 1', 'views', '$nin', '1, 9');
  await addCondition('condition 2', 'tags', '$eq', 'red');
  expect(await apply()).toEqual({ views: { $nin: [1, 9] }, tags: 'red' });
  await expectIds(panel, 'Note', ['n3']);

  await openFilter('Note');
  await addCondition('condition 1', 'tags', '$all', 'red, blue');
  expect(await apply()).toEqual({ tags: { $all: ['red', 'blue'] } });
  await expectIds(panel, 'Note', ['n1']);

  await openFilter('Note');
  await addCondition('condition 1', 'done', '$exists', 'false');
  expect(await apply()).toEqual({ done: { $exists: false } });
  await expectIds(panel, 'Note', ['n3']);
});

it('matches any of several groups ($or) and rows of another table ($inQuery, $notInQuery, $select, $dontSelect)', async () => {
  await addCondition('condition 1 of group 1', 'views', '$lt', '2', 'Add an “or” group');
  await addCondition('condition 1 of group 2', 'title', '$eq', 'third', 'Add an “or” group');
  expect(await apply()).toEqual({ $or: [{ views: { $lt: 2 } }, { title: 'third' }] });
  await expectIds(panel, 'Note', ['n1', 'n3']);

  // Notes whose author is over 40: a condition on the Author table inside one on Note.
  await openFilter('Note');
  await addCondition('condition 1', 'author', '$inQuery');
  expect(await filter().getByLabel('Table of condition 1', { exact: true }).inputValue()).toBe('Author');
  await addCondition('condition 1 in condition 1', 'age', '$gt', '40', 'Add a condition (in condition 1)');
  expect(await apply()).toEqual({ author: { $inQuery: { className: 'Author', where: { age: { $gt: 40 } } } } });
  await expectIds(panel, 'Note', ['n2']);
  await openFilter('Note', { author: { $notInQuery: { className: 'Author', where: { age: { $gt: 40 } } } } });
  await expectIds(panel, 'Note', ['n1', 'n3', 'n4']);

  // Notes whose title is the favourite of an author under 40.
  await openFilter('Note');
  await addCondition('condition 1', 'title', '$select');
  await filter().getByLabel('Table of condition 1', { exact: true }).selectOption('Author');
  await filter().getByLabel('Column of the rows of condition 1', { exact: true }).selectOption('favourite');
  await addCondition('condition 1 in condition 1', 'age', '$lt', '40', 'Add a condition (in condition 1)');
  const select = { query: { className: 'Author', where: { age: { $lt: 40 } } }, key: 'favourite' };
  expect(await apply()).toEqual({ title: { $select: select } });
  await expectIds(panel, 'Note', ['n1', 'n3']);
  await filter().getByLabel('Operator of condition 1', { exact: true }).selectOption('$dontSelect');
  expect(await apply()).toEqual({ title: { $dontSelect: select } });
  await expectIds(panel, 'Note', ['n2', 'n4']);
});

it('finds the rows related to a row ($relatedTo), and leaves a where it cannot show to JSON', async () => {
  await openFilter('Author');
  await filter().getByRole('button', { name: 'Related to a row…' }).click();
  await filter().getByLabel('Row id').fill('n2');
  expect(await apply()).toEqual({
    $relatedTo: { object: { __type: 'Pointer', className: 'Note', _id: 'n2' }, key: 'likes' },
  });
  await expectIds(panel, 'Author', ['ann', 'cy']);

  // $and is not of the spec: the where is shown, and edited, as JSON.
  await openFilter('Note', { $and: [{ views: 5 }] });
  await expectIds(panel, 'Note', ['n2', 'n3']);
  const json = filter().getByLabel('Where (JSON)');
  expect(JSON.parse(await json.inputValue())).toEqual({ $and: [{ views: 5 }] });
  await json.fill('{"views": 9}');
  await filter().getByRole('button', { name: 'Edit as conditions' }).click();
  expect(await filter().getByLabel('Value of condition 1', { exact: true }).inputValue()).toBe('9');
  expect(await apply()).toEqual({ views: 9 });
  await expectIds(panel, 'Note', ['n4']);

  await filter().getByRole('button', { name: 'Clear' }).click();
  await expect.poll(() => path(panel)).toBe('/__admin/panel/database/Note');
});
