// The row editor's model: each column's value as its typed editor holds it (a draft), and back to the JSON the
// service takes (the contract's `DatabaseRow`: Date and Pointer objects, relations changed only through AddRelation/RemoveRelation, docs/database.md#update-operators).

/** The editor a column gets: one per type of the contract's `DatabaseRow`, JSON objects and arrays as JSON text. */
export type Kind = 'String' | 'Number' | 'Boolean' | 'Date' | 'Pointer' | 'Relation' | 'ACL' | 'JSON';

export interface AclEntry {
  principal: string;
  read: boolean;
  write: boolean;
}

/** What an editor holds: text as typed (so a half-typed number is kept), checked later by `draftValue`. */
export type Draft =
  | { kind: 'String' | 'Number' | 'JSON' | 'Date'; text: string }
  | { kind: 'Boolean'; checked: boolean }
  | { kind: 'Pointer'; className: string; id: string }
  | { kind: 'Relation'; className: string; ids: string[] }
  | { kind: 'ACL'; entries: AclEntry[] };

type Json = Record<string, unknown>;
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const typed = (value: unknown, type: string): value is Json => isObject(value) && value['__type'] === type;

/** The kind of a column: its type from the table's schema when known, else its value's. */
export function kindOf(name: string, type: string | undefined, value: unknown): Kind {
  if (name === 'ACL') return 'ACL';
  if (type === 'Object' || type === 'Array') return 'JSON';
  if (type) return type as Kind;
  if (typeof value === 'string') return 'String';
  if (typeof value === 'number') return 'Number';
  if (typeof value === 'boolean') return 'Boolean';
  if (typed(value, 'Date')) return 'Date';
  if (typed(value, 'Pointer')) return 'Pointer';
  return 'JSON';
}

/** A column's value in its editor; `targetClass` fills the table of an empty pointer or relation. */
export function toDraft(kind: Kind, value: unknown, targetClass = ''): Draft {
  switch (kind) {
    case 'String':
      return { kind, text: typeof value === 'string' ? value : '' };
    case 'Number':
      return { kind, text: typeof value === 'number' ? String(value) : '' };
    case 'Boolean':
      return { kind, checked: value === true };
    case 'Date':
      // Edited as the service writes it: ISO 8601 in UTC, 24-hour, to the millisecond.
      return { kind, text: typed(value, 'Date') && typeof value['iso'] === 'string' ? value['iso'] : '' };
    case 'Pointer':
      return typed(value, 'Pointer')
        ? { kind, className: String(value['className']), id: String(value['_id']) }
        : { kind, className: targetClass, id: '' };
    case 'Relation': {
      const pointers = Array.isArray(value) ? value.filter((item) => typed(item, 'Pointer')) : [];
      return {
        kind,
        className: String(pointers[0]?.['className'] ?? targetClass),
        ids: pointers.map((p) => String(p['_id'])),
      };
    }
    case 'ACL':
      return {
        kind,
        entries: isObject(value)
          ? Object.entries(value).map(([principal, rights]) => ({
              principal,
              read: isObject(rights) && rights['read'] === true,
              write: isObject(rights) && rights['write'] === true,
            }))
          : [],
      };
    case 'JSON':
      return { kind, text: value === undefined ? '' : JSON.stringify(value, null, 2) };
  }
}

/** The value to send for a draft (not for relations, which change by operators: `relationChanges`), or why it is not one. */
function draftValue(draft: Exclude<Draft, { kind: 'Relation' }>): { value: unknown } | { error: string } {
  switch (draft.kind) {
    case 'String':
      return { value: draft.text };
    case 'Number': {
      const n = Number(draft.text);
      return draft.text.trim() !== '' && Number.isFinite(n) ? { value: n } : { error: 'not a number' };
    }
    case 'Boolean':
      return { value: draft.checked };
    case 'Date': {
      // UTC whether or not the `Z` was typed.
      const text = draft.text.trim().replace(/Z?$/, 'Z');
      const date = new Date(text);
      return UTC_TIME.test(text) && !Number.isNaN(date.getTime())
        ? { value: { __type: 'Date', iso: date.toISOString() } }
        : { error: 'not a UTC date and time like 2024-01-02T15:04:05.678Z' };
    }
    case 'Pointer':
      return draft.className && draft.id
        ? { value: { __type: 'Pointer', className: draft.className, _id: draft.id } }
        : { error: 'a pointer needs a table and a row id' };
    case 'ACL': {
      const acl: Json = {};
      for (const { principal, read, write } of draft.entries)
        if (principal.trim()) acl[principal.trim()] = { read, write };
      return { value: acl };
    }
    case 'JSON':
      try {
        return { value: JSON.parse(draft.text) };
      } catch (error) {
        return { error: `not JSON: ${(error as Error).message}` };
      }
  }
}

const pointers = (className: string, ids: string[]) => ids.map((_id) => ({ __type: 'Pointer', className, _id }));

/** The relation operators that turn `before`'s members into `after`'s: one AddRelation and one RemoveRelation at most. */
function relationChanges(before: string[], after: Extract<Draft, { kind: 'Relation' }>): { add?: Json; remove?: Json } {
  const added = after.ids.filter((id) => id && !before.includes(id));
  const removed = before.filter((id) => !after.ids.includes(id));
  return {
    ...(added.length > 0 && { add: { __op: 'AddRelation', objects: pointers(after.className, added) } }),
    ...(removed.length > 0 && { remove: { __op: 'RemoveRelation', objects: pointers(after.className, removed) } }),
  };
}

/** The columns of the row editor: each one's draft, or null for a column to unset. */
export type Edits = Record<string, Draft | null>;

/**
 * The request bodies that turn the row of `initial` into `edits`: only the columns that changed, unset ones with the
 * Delete operator, relations by their operators. A column that both gains and loses related rows needs a second
 * body (a body names a column once). When a value is not valid: the message of each such column instead.
 */
export function changesOf(initial: Edits, edits: Edits): { bodies: Json[] } | { errors: Record<string, string> } {
  const first: Json = {};
  const second: Json = {};
  const errors: Record<string, string> = {};
  for (const [name, draft] of Object.entries(edits)) {
    const before = initial[name];
    if (JSON.stringify(before) === JSON.stringify(draft)) continue;
    if (draft === null) {
      if (before) first[name] = { __op: 'Delete' };
    } else if (draft.kind === 'Relation') {
      if (!draft.className && draft.ids.length > 0) errors[name] = 'a relation needs its table';
      const { add, remove } = relationChanges(before?.kind === 'Relation' ? before.ids : [], draft);
      if (add) first[name] = add;
      if (remove) (add ? second : first)[name] = remove;
    } else {
      const result = draftValue(draft);
      if ('error' in result) errors[name] = result.error;
      else first[name] = result.value;
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { bodies: [first, second].filter((body) => Object.keys(body).length > 0) };
}
