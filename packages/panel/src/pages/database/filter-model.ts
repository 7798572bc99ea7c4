// The filter builder's model: a where of the query language (docs/database.md#queries) as rows of "column, operator, value" that the
// builder shows, and back. The value is text as typed, read by the column's type (a number, a date, a row id for a
// pointer); sub-queries ($select, $inQuery) hold a filter of their own table. `whereOf(draftOf(where))` gives the
// where back, so the builder can edit any where the URL holds that it can show (`draftOf` answers undefined for
// the others: $and, $nor, an $or inside an $or).

type Json = Record<string, unknown>;

/** A column's type as the table list gives it; undefined for a column the schema does not know. */
interface ColumnType {
  type: string;
  targetClass?: string;
}

/** The type of a column of a table (the system columns included); undefined when unknown. */
export type TypeOf = (table: string, column: string) => ColumnType | undefined;

export const OPERATORS = {
  $eq: 'equals',
  $ne: 'does not equal',
  $lt: 'is less than',
  $lte: 'is at most',
  $gt: 'is greater than',
  $gte: 'is at least',
  $in: 'is one of',
  $nin: 'is none of',
  $all: 'contains all of',
  $exists: 'has a value',
  $regex: 'matches the pattern',
  $select: 'is a value of a column in rows where',
  $dontSelect: 'is no value of a column in rows where',
  $inQuery: 'points to a row where',
  $notInQuery: 'does not point to a row where',
} as const;

export type Operator = keyof typeof OPERATORS;

const LIST_OPS: Operator[] = ['$in', '$nin', '$all'];
const SUB_QUERY_OPS: Operator[] = ['$select', '$dontSelect', '$inQuery', '$notInQuery'];
export const takesList = (op: Operator) => LIST_OPS.includes(op);
export const takesSubQuery = (op: Operator) => SUB_QUERY_OPS.includes(op);

/** One condition as the builder edits it. */
export interface ConditionDraft {
  column: string;
  op: Operator;
  /** The value as typed; for $exists "true" or "false"; for a list, items separated by commas (or a JSON array). */
  text: string;
  /** $regex: the `i` option. */
  ignoreCase?: boolean;
  /** $select, $dontSelect, $inQuery, $notInQuery: the table of the sub-query, its where, and ($select) its column. */
  table?: string;
  key?: string;
  filter?: FilterDraft;
}

/** A where as the builder edits it: conditions that must all hold, `$or` groups, `$relatedTo`. */
export interface FilterDraft {
  conditions: ConditionDraft[];
  /** `$or`: a row matches when every condition of one group holds. */
  anyOf: ConditionDraft[][];
  /** `$relatedTo`: rows related to the row `id` of `table` through its relation column `key`. */
  relatedTo?: { table: string; id: string; key: string };
}

export const emptyFilter = (): FilterDraft => ({ conditions: [], anyOf: [] });

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const typed = (value: unknown, type: string): value is Json => isObject(value) && value['__type'] === type;
const isOperatorObject = (value: unknown): value is Json =>
  isObject(value) && Object.keys(value).some((key) => key.startsWith('$'));

/** A value as text in the builder, read back by `parseValue`: a date's ISO form, a pointer's row id, text as is. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typed(value, 'Date')) return String(value['iso']);
  if (typed(value, 'Pointer')) return String(value['_id']);
  return JSON.stringify(value);
}

/** A value typed in the builder, as the column's type reads it; an error message when it is not one. */
function parseValue(text: string, column: ColumnType | undefined): { value: unknown } | { error: string } {
  switch (column?.type) {
    case 'String':
      return { value: text };
    case 'Number': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? { value: n } : { error: `"${text}" is not a number` };
    }
    case 'Boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true' } : { error: 'true or false' };
    case 'Date': {
      const date = new Date(text);
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/.test(text) && !Number.isNaN(date.getTime())
        ? { value: { __type: 'Date', iso: date.toISOString() } }
        : { error: `"${text}" is not a UTC date and time (2024-01-02T15:04:05.000Z)` };
    }
    case 'Pointer':
      return text ? { value: { __type: 'Pointer', className: column.targetClass, _id: text } } : { error: 'a row id' };
    default:
      // Objects, arrays, relations and unknown columns: JSON when it is JSON, else the text itself.
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { value: text };
      }
  }
}

/** A list as text: items separated by commas, or a JSON array when an item holds a comma or is not a plain value. */
function listText(values: unknown[]): string {
  const texts = values.map(valueText);
  const plain = values.every((v) => typeof v !== 'object' || typed(v, 'Date') || typed(v, 'Pointer'));
  return plain && texts.every((t) => !t.includes(',') && t === t.trim() && t !== '')
    ? texts.join(', ')
    : JSON.stringify(values);
}

function parseList(text: string, column: ColumnType | undefined): { value: unknown[] } | { error: string } {
  let items: unknown[];
  if (text.trim().startsWith('[')) {
    try {
      items = JSON.parse(text);
      if (!Array.isArray(items)) return { error: 'a JSON array' };
    } catch (error) {
      return { error: `not a JSON array: ${(error as Error).message}` };
    }
  } else items = text.split(',').map((item) => item.trim());
  const values: unknown[] = [];
  for (const item of items) {
    // In a JSON array, only text is read by the column's type: other values are taken as written.
    const parsed = typeof item === 'string' ? parseValue(item, column) : { value: item };
    if ('error' in parsed) return parsed;
    values.push(parsed.value);
  }
  return { value: values };
}

/** The conditions of one column of a where: one per operator (`$options` goes with `$regex`). */
function conditionsOf(column: string, condition: unknown, typeOf: TypeOf): ConditionDraft[] | undefined {
  if (!isOperatorObject(condition)) return [{ column, op: '$eq', text: valueText(condition) }];
  const drafts: ConditionDraft[] = [];
  for (const [op, operand] of Object.entries(condition)) {
    if (op === '$options') {
      if (typeof operand !== 'string' || !/^i?$/.test(operand) || !('$regex' in condition)) return undefined;
      continue;
    }
    if (op === '$dontselect') return undefined;
    if (!(op in OPERATORS)) return undefined;
    const draft: ConditionDraft = { column, op: op as Operator, text: '' };
    if (op === '$regex') {
      if (typeof operand !== 'string') return undefined;
      Object.assign(draft, { text: operand, ignoreCase: condition['$options'] === 'i' });
    } else if (op === '$exists') {
      if (typeof operand !== 'boolean') return undefined;
      draft.text = String(operand);
    } else if (takesList(op as Operator)) {
      if (!Array.isArray(operand)) return undefined;
      draft.text = listText(operand);
    } else if (op === '$select' || op === '$dontSelect') {
      const query = isObject(operand) ? operand['query'] : undefined;
      if (!isObject(operand) || typeof operand['key'] !== 'string' || !isObject(query)) return undefined;
      const sub = subQueryDraft(query, typeOf);
      if (!sub) return undefined;
      Object.assign(draft, { key: operand['key'], ...sub });
    } else if (op === '$inQuery' || op === '$notInQuery') {
      const sub = isObject(operand) ? subQueryDraft(operand, typeOf) : undefined;
      if (!sub) return undefined;
      Object.assign(draft, sub);
    } else {
      draft.text = valueText(operand);
    }
    drafts.push(draft);
  }
  return drafts;
}

function subQueryDraft(query: Json, typeOf: TypeOf): { table: string; filter: FilterDraft } | undefined {
  if (typeof query['className'] !== 'string') return undefined;
  const where = query['where'] ?? {};
  const filter = isObject(where) ? draftOf(query['className'], where, typeOf) : undefined;
  return filter && { table: query['className'], filter };
}

/**
 * The builder's filter of a where on `table`; undefined when the builder cannot show it (then it is edited as JSON).
 *
 * @example
 * draftOf('Note', { views: { $gte: 10, $lt: 20 } }, typeOf);
 * // { conditions: [{ column: 'views', op: '$gte', text: '10' }, { column: 'views', op: '$lt', text: '20' }], anyOf: [] }
 */
export function draftOf(table: string, where: Json, typeOf: TypeOf, nested = false): FilterDraft | undefined {
  const draft = emptyFilter();
  for (const [key, condition] of Object.entries(where)) {
    if (key === '$or' && !nested) {
      if (!Array.isArray(condition) || condition.length === 0) return undefined;
      for (const group of condition) {
        const sub = isObject(group) ? draftOf(table, group, typeOf, true) : undefined;
        if (!sub || sub.anyOf.length > 0 || sub.relatedTo) return undefined;
        draft.anyOf.push(sub.conditions);
      }
    } else if (key === '$relatedTo' && !nested) {
      const object = isObject(condition) ? condition['object'] : undefined;
      if (!isObject(condition) || !typed(object, 'Pointer') || typeof condition['key'] !== 'string') return undefined;
      draft.relatedTo = { table: String(object['className']), id: String(object['_id']), key: condition['key'] };
    } else if (key.startsWith('$')) {
      return undefined;
    } else {
      const conditions = conditionsOf(key, condition, typeOf);
      if (!conditions) return undefined;
      draft.conditions.push(...conditions);
    }
  }
  return draft;
}

/** The operand a condition writes, or why it cannot. */
function operandOf(table: string, draft: ConditionDraft, typeOf: TypeOf): { value: unknown } | { error: string } {
  const column = typeOf(table, draft.column);
  switch (draft.op) {
    case '$exists':
      return { value: draft.text !== 'false' };
    case '$regex':
      return { value: draft.text };
    case '$in':
    case '$nin':
    case '$all':
      return parseList(draft.text, column?.type === 'Array' ? undefined : column);
    case '$select':
    case '$dontSelect':
    case '$inQuery':
    case '$notInQuery': {
      if (!draft.table) return { error: 'choose the table of the sub-query' };
      const sub = whereOf(draft.table, draft.filter ?? emptyFilter(), typeOf);
      if ('errors' in sub) return { error: sub.errors.join('; ') };
      const query = { className: draft.table, where: sub.where };
      if (draft.op === '$inQuery' || draft.op === '$notInQuery') return { value: query };
      return draft.key ? { value: { query, key: draft.key } } : { error: 'choose the column of the sub-query' };
    }
    default:
      // Equality on an array column means "contains": the value is one item, of any type.
      return parseValue(draft.text, column?.type === 'Array' ? undefined : column);
  }
}

function conditionsWhere(table: string, drafts: ConditionDraft[], typeOf: TypeOf, errors: string[]): Json {
  const where: Json = {};
  const byColumn = new Map<string, ConditionDraft[]>();
  for (const draft of drafts) {
    if (!draft.column.trim()) {
      errors.push('a condition has no column');
      continue;
    }
    byColumn.set(draft.column, [...(byColumn.get(draft.column) ?? []), draft]);
  }
  for (const [column, list] of byColumn) {
    const ops: Json = {};
    for (const draft of list) {
      if (draft.op in ops) {
        errors.push(`${column}: one "${OPERATORS[draft.op]}" condition per column`);
        continue;
      }
      const operand = operandOf(table, draft, typeOf);
      if ('error' in operand) errors.push(`${column}: ${operand.error}`);
      else ops[draft.op] = operand.value;
      if (draft.op === '$regex' && draft.ignoreCase) ops['$options'] = 'i';
    }
    // A lone equality is written as the value itself, as the spec's examples do.
    const [only] = Object.keys(ops);
    where[column] = Object.keys(ops).length === 1 && only === '$eq' && !isOperatorObject(ops['$eq']) ? ops['$eq'] : ops;
  }
  return where;
}

/**
 * The where of a builder's filter on `table`, or the messages of the conditions that are not complete or valid.
 *
 * @example
 * whereOf('Note', { conditions: [{ column: 'views', op: '$gte', text: '10' }], anyOf: [] }, typeOf);
 * // { where: { views: { $gte: 10 } } }
 */
export function whereOf(table: string, draft: FilterDraft, typeOf: TypeOf): { where: Json } | { errors: string[] } {
  const errors: string[] = [];
  const where = conditionsWhere(table, draft.conditions, typeOf, errors);
  if (draft.anyOf.length > 0) where['$or'] = draft.anyOf.map((group) => conditionsWhere(table, group, typeOf, errors));
  if (draft.relatedTo) {
    const { table: owner, id, key } = draft.relatedTo;
    if (!owner || !id || !key) errors.push('related to: choose the table, the row id and the relation column');
    where['$relatedTo'] = { object: { __type: 'Pointer', className: owner, _id: id }, key };
  }
  return errors.length > 0 ? { errors } : { where };
}
