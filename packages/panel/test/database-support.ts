// Set-up shared by the database page's Chromium tests: rows seeded through the admin import (fixed ids, so a test
// names them), the page's URL and the grid's status line.
import { expect } from 'vitest';
import type { PanelTest } from './support.js';

type Json = Record<string, unknown>;

export const pointer = (className: string, _id: string) => ({ __type: 'Pointer', className, _id });
export const date = (iso: string) => ({ __type: 'Date', iso });

/** Imports rows into a table at once (`POST /__admin/database/tables/{table}/import`); throws when refused. */
export async function importRows(panel: PanelTest, table: string, rows: Json[], columns?: Json[]): Promise<void> {
  const res = await panel.server.admin(`/__admin/database/tables/${table}/import`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rows, ...(columns && { columns }) }),
  });
  if (!res.ok) throw new Error(`import into ${table}: ${res.status} ${await res.text()}`);
}

/** Authors and notes pointing to them, a relation, dates, JSON and arrays: what most tests read. */
export async function seedNotes(panel: PanelTest): Promise<void> {
  await importRows(panel, 'Author', [
    { _id: 'ann', name: 'Ann', email: 'ann@example.com', age: 31, favourite: 'first' },
    { _id: 'bob', name: 'Bob', email: 'bob@example.com', age: 45, favourite: 'second' },
    { _id: 'cy', name: 'Cy', email: 'cy@example.com', age: 27, favourite: 'third' },
  ]);
  await importRows(
    panel,
    'Note',
    [
      {
        _id: 'n1',
        title: 'first',
        views: 1,
        done: true,
        author: pointer('Author', 'ann'),
        due: date('2024-01-02T03:04:05.678Z'),
        meta: { level: 1, deep: { list: [1, 2, { x: 'y' }] } },
        tags: ['red', 'blue'],
        likes: [pointer('Author', 'bob')],
      },
      {
        _id: 'n2',
        title: 'second',
        views: 5,
        done: false,
        author: pointer('Author', 'bob'),
        due: date('2024-03-04T05:06:07.890Z'),
        meta: { level: 2 },
        tags: ['green'],
        likes: [pointer('Author', 'ann'), pointer('Author', 'cy')],
      },
      { _id: 'n3', title: 'third', views: 5, author: pointer('Author', 'ann'), tags: ['red'], likes: [] },
      { _id: 'n4', title: 'Fourth word', views: 9, done: true, likes: [] },
    ],
    [{ name: 'likes', type: 'Relation', targetClass: 'Author' }],
  );
}

/** The page's panel path and query, decoded. */
export function path({ page }: PanelTest): string {
  const url = new URL(page.url());
  return (
    decodeURIComponent(url.pathname) +
    (url.search && `?${[...url.searchParams].map(([k, v]) => `${k}=${v}`).join('&')}`)
  );
}

/** The grid's status line ("Rows 1–20 of 60."). */
export const rowsStatus = ({ page }: PanelTest) =>
  page.getByRole('status').filter({ hasText: /^(Rows|No matching|Loading)/ });

/** The ids of the rows the grid shows, in order. */
export async function shownIds(panel: PanelTest, table: string): Promise<string[]> {
  const grid = panel.page.getByRole('table', { name: `Rows of ${table}` });
  return grid.locator('tbody tr[aria-rowindex] td:nth-child(2) a').allTextContents();
}

/** Waits until the grid shows exactly these row ids (after a query ran). */
export async function expectIds(panel: PanelTest, table: string, ids: string[]): Promise<void> {
  await expect.poll(() => shownIds(panel, table)).toEqual(ids);
}
