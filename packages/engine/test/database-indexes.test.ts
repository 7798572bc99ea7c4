import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { developmentConfig } from '../src/config.js';
import { canRead } from '../src/areas/database/rows/acl.js';
import { QueryBudget } from '../src/areas/database/query/budget.js';
import { loadEvaluatorsFor } from '../src/areas/database/where/evaluators.js';
import { rowComparator, type SortKey } from '../src/areas/database/query/order.js';
import { compilePredicate } from '../src/areas/database/where/predicate.js';
import { queryRows } from '../src/areas/database/query/query.js';
import { createRow, deleteAllRows, deleteRow, findTable, updateRow } from '../src/areas/database/rows/rows.js';
import { resolveWhere } from '../src/areas/database/where/where.js';
import type { Principal } from '../src/shared/env.js';
import { Moment } from '../src/shared/moment.js';
import type { Project } from '../src/shared/project.js';

const master: Principal = { isMaster: true } as Principal;
const readers: Principal[] = [master, { isMaster: false, userId: 'u1' } as Principal, { isMaster: false } as Principal];

// Few distinct values, so that equal keys (ties), nulls and missing values are common.
const number = fc.constantFrom(-2, -1, -0, 0, 0.5, 1, 2, 3);
const text = fc.constantFrom('', 'a', 'ab', 'b', 'B', 'é');
const cell = (values: fc.Arbitrary<unknown>) =>
  fc.option(fc.oneof({ arbitrary: values, weight: 8 }, fc.constant(null)), { nil: undefined, freq: 8 });
const fields = fc.record({ n: cell(number), s: cell(text), b: cell(fc.boolean()) });
const acl = fc.constantFrom(
  undefined,
  { '*': { read: true, write: true } },
  { u1: { read: true, write: true } },
  { u2: { read: true } },
);

// Mostly creates, so that tables grow large enough for the planner to prefer an index to a scan.
const write = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), fields, acl }), weight: 12 },
  fc.record({ kind: fc.constant('update' as const), at: fc.nat(), fields }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('deleteAll' as const) }),
);

const range = (values: fc.Arbitrary<unknown>) =>
  fc.dictionary(fc.constantFrom('$gt', '$gte', '$lt', '$lte', '$eq'), values, { minKeys: 1, maxKeys: 2 });
const condition = fc.oneof(
  fc.record({
    n: fc.oneof(
      number,
      range(number),
      fc.record({ $in: fc.array(number, { maxLength: 3 }) }),
      fc.constant(null),
      fc.record({ $ne: number }),
    ),
  }),
  fc.record({
    s: fc.oneof(text, range(text), fc.record({ $in: fc.array(fc.oneof(text, fc.constant(null)), { maxLength: 3 }) })),
  }),
  fc.record({ b: fc.oneof(fc.boolean(), fc.record({ $ne: fc.boolean() })) }),
  fc.record({ $or: fc.tuple(fc.record({ n: number }), fc.record({ s: text })) }),
);
const where = fc
  .array(condition, { maxLength: 3 })
  .map((parts) => Object.assign({}, ...parts) as Record<string, unknown>);
const order = fc.constantFrom<SortKey[]>(
  [],
  [{ path: 'n', descending: false }],
  [{ path: 'n', descending: true }],
  [
    { path: 's', descending: true },
    { path: 'n', descending: false },
  ],
  [
    { path: 'b', descending: false },
    { path: 's', descending: true },
  ],
);
const query = fc.record({
  where,
  order,
  limit: fc.integer({ min: 1, max: 8 }),
  skip: fc.integer({ min: 0, max: 3 }),
  count: fc.boolean(),
  reader: fc.nat(readers.length - 1),
});

/** The answer without any index: every readable row in creation order, filtered, sorted stably, paged. */
function reference(project: Project, principal: Principal, q: QueryInput) {
  const table = findTable(project, 'T');
  const budget = new QueryBudget(Number.MAX_SAFE_INTEGER);
  const matchingRows = () => {
    throw new Error('the generated wheres have no sub-query');
  };
  const ctx = { project, principal, tableName: 'T', depth: 0, run: { budget, subQueries: new Map(), matchingRows } };
  const { test } = compilePredicate(table, resolveWhere(ctx, q.where), budget);
  const all = [...(table?.rows.values() ?? [])].filter((row) => canRead(row, principal) && test(row));
  const sorted = q.order.length > 0 ? all.sort(rowComparator(q.order)) : all;
  return { ids: sorted.slice(q.skip, q.skip + q.limit).map((row) => row._id), count: all.length };
}

interface QueryInput {
  where: Record<string, unknown>;
  order: SortKey[];
  limit: number;
  skip: number;
  count: boolean;
}

describe('automatic indexes', () => {
  it('answer every query exactly as a scan does, across creates, updates, deletes and delete-all', async () => {
    await loadEvaluatorsFor({ n: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ arbitrary: write, weight: 3 }, query), { minLength: 20, maxLength: 150, size: 'max' }),
        async (steps) => {
          const project = createEngine({ config: developmentConfig() }).project;
          const ids: string[] = [];
          for (const step of steps) {
            if ('kind' in step) {
              const body = Object.fromEntries(
                Object.entries(step.kind === 'create' || step.kind === 'update' ? step.fields : {}).filter(
                  ([, value]) => value !== undefined,
                ),
              );
              if (step.kind === 'create')
                ids.push(
                  createRow(project, new Moment(project.clock), 'T', { ...body, ...(step.acl && { ACL: step.acl }) })
                    ._id,
                );
              else if (step.kind === 'deleteAll') {
                deleteAllRows(project, master, 'T');
                ids.splice(0);
              } else if (ids.length > 0) {
                const id = ids[step.at % ids.length]!;
                if (step.kind === 'update')
                  updateRow(project, new Moment(project.clock), master, 'T', id, {
                    ...body,
                    ...(step.at % 3 === 0 && { n: { __op: 'Delete' } }),
                  });
                else {
                  deleteRow(project, master, 'T', id);
                  ids.splice(ids.indexOf(id), 1);
                }
              }
              continue;
            }
            const principal = readers[step.reader]!;
            const answer = queryRows(project, principal, 'T', step.where, { ...step, include: [] });
            const expected = reference(project, principal, step);
            expect(answer.results.map((row) => row['_id'])).toEqual(expected.ids);
            if (step.count) expect(answer.count).toBe(expected.count);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the query budget with indexes', () => {
  it('pays for the rows an index visits: queries a scan could not afford are answered, the rest still refused', async () => {
    await loadEvaluatorsFor({ n: 1 });
    const project = createEngine({ config: developmentConfig({ maxQueryCost: 20_000 }) }).project;
    const moment = new Moment(project.clock);
    for (let i = 0; i < 20_000; i++) createRow(project, moment, 'T', { n: i, s: `s${i % 100}` });
    const page = { order: [], limit: 10, skip: 0, include: [], count: true };
    expect(queryRows(project, master, 'T', { n: 1234 }, page)).toMatchObject({ count: 1, results: [{ n: 1234 }] });
    expect(queryRows(project, master, 'T', { n: { $gte: 100, $lt: 150 } }, page).count).toBe(50);
    const top = queryRows(
      project,
      master,
      'T',
      { n: { $gt: 10 } },
      { ...page, order: [{ path: 'n', descending: true }], count: false },
    );
    expect(top.results.map((row) => row['n'])).toEqual([
      19_999, 19_998, 19_997, 19_996, 19_995, 19_994, 19_993, 19_992, 19_991, 19_990,
    ]);
    // $ne is no index's: the scan of 20,000 rows costs 40,000 units.
    expect(() => queryRows(project, master, 'T', { n: { $ne: 5 } }, page)).toThrow(
      expect.objectContaining({ status: 400, code: 150 }),
    );
  });
});
