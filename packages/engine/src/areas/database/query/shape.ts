import type { Principal } from '../../../shared/env.js';
import { isPlainObject } from '../../../shared/http/body.js';
import type { Project } from '../../../shared/project.js';
import { canRead } from '../rows/acl.js';
import { outputCost, type QueryBudget } from './budget.js';
import { SYSTEM_COLUMNS } from '../values/names.js';
import type { PathTree } from './path-tree.js';
import { showRelations } from './relations.js';
import { databaseState } from '../state.js';
import { isTyped } from '../values/values.js';

type Doc = Record<string, unknown>;

/**
 * `include`: replaces the pointers at the given paths (also inside arrays) with the rows they point to, marked
 * `{__type: "Object", className}`. A pointer to a missing row, or to one the caller may not read, stays a pointer.
 * Each included row is paid from the query's budget like a row returned: one row can point to thousands.
 */
export function includePointers(
  project: Project,
  principal: Principal,
  doc: Doc,
  tree: PathTree,
  budget: QueryBudget,
): Doc {
  if (tree.size === 0) return doc;
  const tables = project.state(databaseState).tables;
  const expand = (value: unknown, subtree: PathTree): unknown => {
    if (Array.isArray(value)) return value.map((item) => expand(item, subtree));
    if (!isTyped(value, 'Pointer')) return value;
    const className = value['className'] as string;
    const row = tables.get(className)?.rows.get(value['_id'] as string);
    if (!row || !canRead(row, principal)) return value;
    budget.charge(outputCost(row));
    return {
      __type: 'Object',
      className,
      ...includePointers(project, principal, showRelations(tables.get(className), row, { budget }), subtree, budget),
    };
  };
  const copy = { ...doc };
  for (const [key, subtree] of tree) if (Object.hasOwn(copy, key)) copy[key] = expand(copy[key], subtree);
  return copy;
}

// Always returned with `keys`: what identifies a row or an included object.
const IDENTITY = [...SYSTEM_COLUMNS, '__type', 'className'];

/** `keys`: only the listed columns (dotted paths reach into JSON objects and included rows), plus the identity. */
export function projectKeys(doc: Doc, tree: PathTree): Doc {
  const out: Doc = {};
  for (const key of IDENTITY) if (Object.hasOwn(doc, key)) out[key] = doc[key];
  for (const [key, subtree] of tree) {
    if (!Object.hasOwn(doc, key)) continue;
    const value = doc[key];
    out[key] = subtree.size > 0 && isPlainObject(value) ? projectKeys(value, subtree) : value;
  }
  return out;
}
