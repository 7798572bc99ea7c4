// The visual filter: conditions "column, operator, value" for every operator of the query language (docs/database.md#queries), "or"
// groups, sub-queries with conditions of their own table, rows related to a row; it writes the where the URL keeps
// (shown as JSON under it, and editable as JSON for what it cannot show).
import { useState } from 'preact/hooks';
import { Status } from '../../components/status.js';
import {
  OPERATORS,
  draftOf,
  emptyFilter,
  takesList,
  takesSubQuery,
  whereOf,
  type ConditionDraft,
  type FilterDraft,
  type Operator,
  type TypeOf,
} from './filter-model.js';
import { columnType, columnsOf, type TableSummary } from './tables.js';

interface Scope {
  tables: TableSummary[];
  typeOf: TypeOf;
}

/** What a value field expects, by the column's type. */
const PLACEHOLDERS: Record<string, string> = {
  Number: 'a number',
  Date: '2024-01-02T15:04:05.000Z',
  Pointer: 'a row id',
  Object: 'JSON',
  Array: 'an item (JSON or text)',
};

const parseWhereText = (text: string): Record<string, unknown> | undefined => {
  try {
    const where: unknown = text.trim() ? JSON.parse(text) : {};
    return typeof where === 'object' && where !== null && !Array.isArray(where)
      ? (where as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The filter of a table: built from the where of the URL (`where`, JSON text) and applied by `onApply` with the new
 * where's text ('' for none).
 */
export function FilterBuilder({
  table,
  tables,
  where,
  onApply,
}: {
  table: string;
  tables: TableSummary[];
  where: string;
  onApply: (where: string) => void;
}) {
  const typeOf: TypeOf = (t, column) => columnType(tables, t, column);
  const scope = { tables, typeOf };
  const parsed = parseWhereText(where);
  const [draft, setDraft] = useState<FilterDraft | undefined>(() =>
    parsed ? draftOf(table, parsed, typeOf) : emptyFilter(),
  );
  const [json, setJson] = useState(draft ? undefined : where);
  const [errors, setErrors] = useState<string[]>([]);
  const built = draft && whereOf(table, draft, typeOf);
  const preview = built && 'where' in built ? JSON.stringify(built.where) : undefined;
  const relations = tables.flatMap((t) =>
    t.columns
      .filter((c) => c.type === 'Relation' && c.targetClass === table)
      .map((c) => ({ table: t.name, key: c.name })),
  );

  const apply = (event: Event) => {
    event.preventDefault();
    if (json !== undefined) {
      if (!parseWhereText(json)) return setErrors(['the where is not a JSON object']);
      setErrors([]);
      return onApply(json.trim() === '{}' ? '' : json.trim());
    }
    if (!built) return;
    if ('errors' in built) return setErrors(built.errors);
    setErrors([]);
    onApply(preview === '{}' ? '' : preview!);
  };

  const editAsJson = () => setJson(preview ?? where);
  const editVisually = () => {
    const next = parseWhereText(json ?? '');
    const shown = next && draftOf(table, next, typeOf);
    if (!shown)
      return setErrors([
        'the filter cannot show this where (it has $and, $nor or an $or inside an $or): edit it as JSON',
      ]);
    setErrors([]);
    setDraft(shown);
    setJson(undefined);
  };

  return (
    <form class="filter" aria-label="Filter" onSubmit={apply}>
      {json === undefined && draft ? (
        <>
          <Conditions
            name="condition"
            table={table}
            list={draft.conditions}
            scope={scope}
            onChange={(conditions) => setDraft({ ...draft, conditions })}
          />
          {draft.anyOf.map((group, g) => (
            <fieldset key={g} class="filter-group">
              <legend>Or group {g + 1}: a row matches when every condition of one group holds</legend>
              <Conditions
                name={`condition of group ${g + 1}`}
                table={table}
                list={group}
                scope={scope}
                onChange={(conditions) =>
                  setDraft({ ...draft, anyOf: draft.anyOf.map((other, j) => (j === g ? conditions : other)) })
                }
              />
              <button
                type="button"
                onClick={() => setDraft({ ...draft, anyOf: draft.anyOf.filter((_, j) => j !== g) })}
              >
                Remove group {g + 1}
              </button>
            </fieldset>
          ))}
          {draft.relatedTo && (
            <fieldset class="toolbar">
              <legend>Related to a row through its relation</legend>
              <label>
                Relation{' '}
                <select
                  value={`${draft.relatedTo.table}.${draft.relatedTo.key}`}
                  onChange={(e) => {
                    const [owner, key] = e.currentTarget.value.split('.');
                    setDraft({ ...draft, relatedTo: { ...draft.relatedTo!, table: owner!, key: key! } });
                  }}
                >
                  {[
                    draft.relatedTo,
                    ...relations.filter((r) => r.table !== draft.relatedTo!.table || r.key !== draft.relatedTo!.key),
                  ].map((r) => (
                    <option key={`${r.table}.${r.key}`} value={`${r.table}.${r.key}`}>
                      {r.table}.{r.key}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Row id{' '}
                <input
                  value={draft.relatedTo.id}
                  onInput={(e) => setDraft({ ...draft, relatedTo: { ...draft.relatedTo!, id: e.currentTarget.value } })}
                />
              </label>
              <button type="button" onClick={() => setDraft({ ...draft, relatedTo: undefined })}>
                Remove
              </button>
            </fieldset>
          )}
          <div class="toolbar">
            <button
              type="button"
              onClick={() => setDraft({ ...draft, anyOf: [...draft.anyOf, [newCondition(table, scope)]] })}
            >
              Add an “or” group
            </button>
            {!draft.relatedTo && relations.length > 0 && (
              <button
                type="button"
                onClick={() =>
                  setDraft({ ...draft, relatedTo: { table: relations[0]!.table, key: relations[0]!.key, id: '' } })
                }
              >
                Related to a row…
              </button>
            )}
            <button type="button" onClick={editAsJson}>
              Edit as JSON
            </button>
          </div>
          <p class="filter-where">
            where <code>{preview ?? '…'}</code>
          </p>
        </>
      ) : (
        <>
          <label class="field">
            Where (JSON)
            <textarea class="mono" rows={3} value={json ?? ''} onInput={(e) => setJson(e.currentTarget.value)} />
          </label>
          <div class="toolbar">
            <button type="button" onClick={editVisually}>
              Edit as conditions
            </button>
          </div>
        </>
      )}
      <div class="toolbar">
        <button type="submit">Apply the filter</button>
        <button
          type="button"
          onClick={() => {
            setDraft(emptyFilter());
            setJson(undefined);
            setErrors([]);
            onApply('');
          }}
        >
          Clear
        </button>
      </div>
      <Status error={errors.length > 0 ? new Error(errors.join('; ')) : undefined} />
    </form>
  );
}

function newCondition(table: string, scope: Scope): ConditionDraft {
  return { column: columnsOf(scope.tables, table)[0]?.name ?? '_id', op: '$eq', text: '' };
}

/** A list of conditions that must all hold, each one line; `name` tells them apart in their labels. */
function Conditions({
  name,
  table,
  list,
  scope,
  onChange,
}: {
  name: string;
  table: string;
  list: ConditionDraft[];
  scope: Scope;
  onChange: (list: ConditionDraft[]) => void;
}) {
  const set = (i: number, condition: ConditionDraft) => onChange(list.map((c, j) => (j === i ? condition : c)));
  return (
    <div class="conditions">
      {list.map((condition, i) => (
        <Condition
          key={i}
          name={`${name.replace(/^condition/, `condition ${i + 1}`)}`}
          table={table}
          condition={condition}
          scope={scope}
          onChange={(next) => set(i, next)}
          onRemove={() => onChange(list.filter((_, j) => j !== i))}
        />
      ))}
      <button type="button" onClick={() => onChange([...list, newCondition(table, scope)])}>
        Add a condition{name === 'condition' ? '' : ` (${name.replace(/^condition /, '')})`}
      </button>
    </div>
  );
}

function Condition({
  name,
  table,
  condition,
  scope,
  onChange,
  onRemove,
}: {
  name: string;
  table: string;
  condition: ConditionDraft;
  scope: Scope;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const column = scope.typeOf(table, condition.column);
  const listId = `columns-${table}`;
  const setOp = (op: Operator) => {
    const next: ConditionDraft = { ...condition, op };
    if (op === '$exists') next.text = 'true';
    if (takesSubQuery(op) && !next.table) {
      next.table = column?.targetClass ?? table;
      next.filter = emptyFilter();
    }
    onChange(next);
  };
  return (
    <div class="condition">
      <div class="toolbar">
        <input
          aria-label={`Column of ${name}`}
          list={listId}
          value={condition.column}
          size={12}
          onInput={(e) => onChange({ ...condition, column: e.currentTarget.value })}
        />
        <datalist id={listId}>
          {columnsOf(scope.tables, table).map((c) => (
            <option key={c.name} value={c.name}>
              {c.type}
            </option>
          ))}
        </datalist>
        <select
          aria-label={`Operator of ${name}`}
          value={condition.op}
          onChange={(e) => setOp(e.currentTarget.value as Operator)}
        >
          {Object.entries(OPERATORS).map(([op, words]) => (
            <option key={op} value={op}>
              {op === '$eq' && column?.type === 'Array' ? 'contains' : words} ({op})
            </option>
          ))}
        </select>
        <ValueField name={name} condition={condition} type={column?.type} onChange={onChange} />
        <button type="button" aria-label={`Remove ${name}`} onClick={onRemove}>
          Remove
        </button>
      </div>
      {takesSubQuery(condition.op) && <SubQuery name={name} condition={condition} scope={scope} onChange={onChange} />}
    </div>
  );
}

function ValueField({
  name,
  condition,
  type,
  onChange,
}: {
  name: string;
  condition: ConditionDraft;
  type: string | undefined;
  onChange: (condition: ConditionDraft) => void;
}) {
  const label = `Value of ${name}`;
  const { op, text } = condition;
  if (takesSubQuery(op)) return null;
  if (op === '$exists' || (type === 'Boolean' && (op === '$eq' || op === '$ne'))) {
    const words = op === '$exists' ? ['yes', 'no'] : ['true', 'false'];
    return (
      <select
        aria-label={label}
        value={text === 'false' ? 'false' : 'true'}
        onChange={(e) => onChange({ ...condition, text: e.currentTarget.value })}
      >
        <option value="true">{words[0]}</option>
        <option value="false">{words[1]}</option>
      </select>
    );
  }
  return (
    <>
      <input
        aria-label={label}
        value={text}
        placeholder={
          takesList(op)
            ? 'items, separated by commas'
            : op === '$regex'
              ? 'a regular expression'
              : (PLACEHOLDERS[type ?? ''] ?? 'a value')
        }
        class={type === 'Date' || type === 'Object' || type === 'Array' ? 'mono' : undefined}
        onInput={(e) => onChange({ ...condition, text: e.currentTarget.value })}
      />
      {op === '$regex' && (
        <label>
          <input
            type="checkbox"
            checked={condition.ignoreCase ?? false}
            onChange={(e) => onChange({ ...condition, ignoreCase: e.currentTarget.checked })}
          />{' '}
          ignore case<span class="visually-hidden"> in {name}</span>
        </label>
      )}
    </>
  );
}

/** The other table of a sub-query, ($select) its column, and its own conditions. */
function SubQuery({
  name,
  condition,
  scope,
  onChange,
}: {
  name: string;
  condition: ConditionDraft;
  scope: Scope;
  onChange: (condition: ConditionDraft) => void;
}) {
  const table = condition.table ?? '';
  const filter = condition.filter ?? emptyFilter();
  return (
    <fieldset class="sub-query">
      <legend>Rows of another table, for {name}</legend>
      <div class="toolbar">
        <label>
          Table{' '}
          <select
            aria-label={`Table of ${name}`}
            value={table}
            onChange={(e) =>
              onChange({ ...condition, table: e.currentTarget.value, key: undefined, filter: emptyFilter() })
            }
          >
            {scope.tables.map((t) => (
              <option key={t.name}>{t.name}</option>
            ))}
          </select>
        </label>
        {(condition.op === '$select' || condition.op === '$dontSelect') && (
          <label>
            Its column{' '}
            <select
              aria-label={`Column of the rows of ${name}`}
              value={condition.key ?? ''}
              onChange={(e) => onChange({ ...condition, key: e.currentTarget.value })}
            >
              <option value="">choose…</option>
              {columnsOf(scope.tables, table).map((c) => (
                <option key={c.name}>{c.name}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <Conditions
        name={`condition in ${name}`}
        table={table}
        list={filter.conditions}
        scope={scope}
        onChange={(conditions) => onChange({ ...condition, filter: { ...filter, conditions } })}
      />
      {filter.anyOf.length > 0 && <p class="hint">and {filter.anyOf.length} “or” groups (edit them as JSON)</p>}
    </fieldset>
  );
}
