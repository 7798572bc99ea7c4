import type { Principal } from '../../../shared/env.js';
import { unrecordedFraction } from '../../../shared/ids.js';
import type { Project } from '../../../shared/project.js';
import { canRead } from '../rows/acl.js';
import { COST, QueryBudget, outputCost } from './budget.js';
import { TopK, rowComparator, type SortKey } from './order.js';
import { lowerBound } from '../indexes/indexes.js';
import { narrowest, planIndexes, wholeIndexPlan, type IndexPlan } from '../indexes/planner.js';
import { compilePredicate } from '../where/predicate.js';
import { findTable } from '../rows/rows.js';
import { showRelations } from './relations.js';
import { pathTree } from './path-tree.js';
import { includePointers, projectKeys } from './shape.js';
import type { Row, Table } from '../state.js';
import { resolveWhere, type QueryRun, type WhereContext } from '../where/where.js';

/** The URL parameters of a query (the contract's `queryRows`), already checked. */
export interface QueryOptions {
  order: SortKey[];
  limit: number;
  skip: number;
  /** Absent: every column. */
  keys?: string[];
  include: string[];
  count: boolean;
  /** Absent: no sampling. */
  sample?: number;
}

interface QueryResult {
  results: Record<string, unknown>[];
  count?: number;
}

// Above this many rows to keep, one sort of all matches beats a heap.
const HEAP_LIMIT = 2000;

/** A where compiled for one table: the row test, what testing a row costs, and what each column's index can serve. */
interface Prepared {
  table: Table;
  test: (row: Row) => boolean;
  perRow: number;
  plans: Map<string, IndexPlan>;
  /** The where has no clause: every row satisfies it. */
  everyRow: boolean;
}

/** Resolves and compiles a where (paid for even when the table does not exist); undefined for an unknown table. */
function prepare(ctx: WhereContext, table: Table | undefined, where: unknown): Prepared | undefined {
  const clauses = resolveWhere(ctx, where);
  const predicate = compilePredicate(table, clauses, ctx.run.budget);
  if (!table) return undefined;
  return {
    table,
    test: predicate.test,
    perRow: COST.row + predicate.cost,
    plans: planIndexes(table, clauses),
    everyRow: clauses.length === 0,
  };
}

/**
 * The rows of a plan's spans in creation order, paid for (`gather` each, for gathering and sorting them). Rows of one
 * value are already in creation order in the index; rows of several values are sorted by their creation sequence:
 * each entry's key is sequence × entries + its position (exact below 2^53: some 90 million rows), so that one sort
 * of plain numbers orders them, and each key gives back its position.
 */
function inCreationOrder(ctx: WhereContext, plan: IndexPlan): Row[] {
  ctx.run.budget.charge(plan.size * COST.gather);
  const { values, seqs, rows } = plan.index;
  const [first] = plan.spans;
  if (plan.spans.length === 1 && values[first![0]] === values[first![1] - 1]) return rows.slice(first![0], first![1]);
  const keys = new Float64Array(plan.size);
  let gathered = 0;
  for (const [from, to] of plan.spans) for (let i = from; i < to; i++) keys[gathered++] = seqs[i]! * rows.length + i;
  return Array.from(keys.sort(), (key) => rows[key % rows.length]!);
}

/**
 * Calls `visit` with every row of the table that the caller may read and that satisfies the where, in creation order,
 * until `visit` answers false. The rows visited are those of the narrowest index plan when gathering and visiting them
 * costs fewer units than the scan (which, when it stops early, visits about `wanted` × rows / matches), else every row. Each
 * row visited is paid for: the visit and every clause of the where. A visit of a known number of rows pays for all of
 * them before it starts, so a query past its budget is refused before any of that work; one that may stop early
 * (`visit` answers false once a page is full) pays row by row.
 */
function scan(
  ctx: WhereContext,
  prepared: Prepared | undefined,
  visit: (row: Row) => unknown,
  { stopsEarly = false, wanted = Infinity } = {},
): void {
  if (!prepared) return;
  const { table, test, perRow } = prepared;
  const { budget } = ctx.run;
  const principal = ctx.principal;
  const best = narrowest(prepared.plans);
  const scanVisits =
    stopsEarly && best
      ? Math.min(table.rows.size, (wanted * table.rows.size) / Math.max(best.size, 1))
      : table.rows.size;
  // The index when it costs fewer units: gathering its rows, then visiting them, against visiting the scan's rows.
  const useIndex = best !== undefined && best.size * (COST.gather + perRow) < scanVisits * perRow;
  const rows = useIndex ? inCreationOrder(ctx, best) : table.rows.values();
  // Two loops, not one with a test of `stopsEarly` per row: the single loop ran 2.5 times slower.
  if (!stopsEarly) {
    budget.charge((useIndex ? best.size : table.rows.size) * perRow);
    for (const row of rows) if (canRead(row, principal) && test(row) && visit(row) === false) return;
    return;
  }
  for (const row of rows) {
    budget.charge(perRow);
    if (canRead(row, principal) && test(row) && visit(row) === false) return;
  }
}

/** Calls `visit` with index positions in the order of `key` (rows of one value in creation order) until it answers false. */
function walkIndex(plan: IndexPlan, descending: boolean, visit: (position: number) => boolean): void {
  if (!descending) {
    for (const [from, to] of plan.spans) for (let i = from; i < to; i++) if (!visit(i)) return;
    return;
  }
  for (let s = plan.spans.length - 1; s >= 0; s--) {
    const [from, to] = plan.spans[s]!;
    for (let end = to; end > from; ) {
      const start = lowerBound(plan.index, plan.index.values[end - 1]!, from, end);
      for (let i = start; i < end; i++) if (!visit(i)) return;
      end = start;
    }
  }
}

/**
 * A page of an ordered query read from the index of its first `order` key, when the where bounds that column or
 * every row has a value there (so no row outside the index can match) and the walk is expected to visit fewer rows than the narrowest plan holds:
 * it visits rows in order, tests the where on each, and stops once `wanted` rows are found and the last one's value
 * is complete (later keys and ties are then sorted as usual among those rows). Undefined when it does not serve.
 */
function orderedPage(
  ctx: WhereContext,
  prepared: Prepared | undefined,
  options: QueryOptions,
  compare: (a: Row, b: Row) => number,
): Row[] | undefined {
  const [key] = options.order;
  const wanted = options.skip + options.limit;
  if (!prepared || options.count || options.sample !== undefined || wanted > HEAP_LIMIT) return undefined;
  const plan = prepared.plans.get(key!.path) ?? wholeIndexPlan(prepared.table, key!.path);
  if (!plan) return undefined;
  const fewest = narrowest(prepared.plans)?.size ?? prepared.table.rows.size;
  // Matches spread evenly over the walked column: about wanted × plan.size / matches entries before the page is full.
  if (Math.min(plan.size, (wanted * plan.size) / Math.max(fewest, 1)) > fewest) return undefined;
  const { test, perRow } = prepared;
  const { budget } = ctx.run;
  const { values, rows: indexed } = plan.index;
  const rows: Row[] = [];
  let last: unknown;
  walkIndex(plan, key!.descending, (i) => {
    if (rows.length >= wanted && values[i] !== last) return false;
    budget.charge(perRow);
    const row = indexed[i]!;
    if (canRead(row, ctx.principal) && test(row)) {
      rows.push(row);
      last = values[i];
    }
    return true;
  });
  return rows.sort(compare).slice(options.skip, wanted);
}

// Comparisons are paid for in batches of this many: one charge per comparison doubled the time of a sort.
const COMPARISONS_PER_CHARGE = 64;

/** The `order` comparator, paying for the comparisons it makes (one unit of `comparison` per key). */
function paidComparator(budget: QueryBudget, keys: SortKey[]): (a: Row, b: Row) => number {
  const compare = rowComparator(keys);
  const batchCost = COMPARISONS_PER_CHARGE * keys.length * COST.comparison;
  let unpaid = 0;
  return (a, b) => {
    if (++unpaid === COMPARISONS_PER_CHARGE) {
      budget.charge(batchCost);
      unpaid = 0;
    }
    return compare(a, b);
  };
}

/** Every readable row of `ctx.tableName` that satisfies the where, in creation order (sub-queries use it). */
function matchingRows(ctx: WhereContext, where: unknown): Row[] {
  const rows: Row[] = [];
  const table = findTable(ctx.project, ctx.tableName);
  scan(ctx, prepare(ctx, table, where), (row) => void rows.push(row));
  return rows;
}

/** `sample` rows chosen uniformly at random (a partial Fisher-Yates shuffle). */
function sampleOf(rows: Row[], size: number): Row[] {
  for (let i = 0; i < Math.min(size, rows.length); i++) {
    const j = i + Math.floor(unrecordedFraction() * (rows.length - i));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return rows.slice(0, size);
}

/** The rows a query returns, before shaping: sampled, or ordered and paged. Counts every match on the way. */
function selectRows(
  ctx: WhereContext,
  table: Table | undefined,
  where: unknown,
  options: QueryOptions,
): { rows: Row[]; count: number } {
  let count = 0;
  const wanted = options.skip + options.limit;
  const compare = options.order.length > 0 ? paidComparator(ctx.run.budget, options.order) : undefined;
  const prepared = prepare(ctx, table, where);
  // Every row matches and the caller may read them all (the master token, as the management panel's grid): the count
  // is the table's size, and the page is read as without `count` (stopping once it is full, or from an index).
  const known = options.count && prepared?.everyRow && ctx.principal.isMaster ? prepared.table.rows.size : undefined;
  if (known !== undefined)
    return { rows: selectRows(ctx, table, where, { ...options, count: false }).rows, count: known };
  const page = compare && orderedPage(ctx, prepared, options, compare);
  if (page) return { rows: page, count: 0 };
  if (options.sample === undefined && compare && wanted <= HEAP_LIMIT) {
    const top = new TopK(wanted, compare);
    scan(ctx, prepared, (row) => {
      count++;
      top.offer(row);
    });
    return { rows: top.sorted().slice(options.skip), count };
  }
  if (options.sample === undefined && !compare) {
    const rows: Row[] = [];
    scan(
      ctx,
      prepared,
      (row) => {
        count++;
        if (count > options.skip && rows.length < options.limit) rows.push(row);
        // Without a count, stop as soon as the page is full.
        return options.count || rows.length < options.limit;
      },
      { stopsEarly: !options.count, wanted },
    );
    return { rows, count };
  }
  const all: Row[] = [];
  scan(ctx, prepared, (row) => void all.push(row));
  if (options.sample !== undefined) {
    const sample = sampleOf(all, options.sample);
    return { rows: compare ? sample.sort(compare) : sample, count: all.length };
  }
  return { rows: all.sort(compare).slice(options.skip, wanted), count: all.length };
}

/**
 * Runs a query (the contract's `queryRows`): the readable rows of a table matching `where`, shaped by the URL parameters.
 * An unknown table has no rows. Everything the query does is paid from one budget of `maxQueryCost` units (see
 * budget.ts): past it, 400 code 150.
 *
 * @example
 * queryRows(project, principal, 'Score', { score: { $gt: 10 } }, { order: [{ path: 'score', descending: true }], limit: 10, skip: 0, include: [], count: true });
 * // { results: [{ _id: '…', score: 42, … }, …], count: 57 }
 */
export function queryRows(
  project: Project,
  principal: Principal,
  tableName: string,
  where: unknown,
  options: QueryOptions,
): QueryResult {
  const run: QueryRun = { budget: new QueryBudget(project.config.maxQueryCost), subQueries: new Map(), matchingRows };
  const ctx: WhereContext = { project, principal, tableName, depth: 0, run };
  const table = findTable(project, tableName);
  const { rows, count } = selectRows(ctx, table, where, options);
  const includes = pathTree(options.include);
  const keys = options.keys && pathTree(options.keys);
  // Shaping walks the include and keys paths for every row returned.
  const shaping = (options.include.length + (options.keys?.length ?? 0)) * COST.clause;
  const results = rows.map((row) => {
    run.budget.charge(outputCost(row) + shaping);
    const doc = includePointers(
      project,
      principal,
      showRelations(table, row, { keep: keys, budget: run.budget }),
      includes,
      run.budget,
    );
    return keys ? projectKeys(doc, keys) : doc;
  });
  return options.count ? { results, count } : { results };
}
