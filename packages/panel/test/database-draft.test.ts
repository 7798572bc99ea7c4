import { describe, expect, it } from 'vitest';
import { queryParams, readGridQuery } from '../src/pages/database/query-params.js';
import { changesOf, kindOf, toDraft, type Edits } from '../src/pages/database/row-draft.js';

const pointer = (className: string, _id: string) => ({ __type: 'Pointer', className, _id });

describe('the row editor model', () => {
  it('gives each column the editor of its type, from the schema first, else from its value', () => {
    expect(kindOf('ACL', undefined, {})).toBe('ACL');
    expect(kindOf('meta', 'Object', {})).toBe('JSON');
    expect(kindOf('likes', 'Relation', [])).toBe('Relation');
    expect(kindOf('due', undefined, { __type: 'Date', iso: '2024-01-02T03:04:05.678Z' })).toBe('Date');
    expect(kindOf('n', undefined, 3)).toBe('Number');
    expect(kindOf('list', undefined, [1])).toBe('JSON');
  });

  it('sends only the changed columns, typed values, Delete for an unset column, and refuses values that are not valid', () => {
    const row = {
      title: 'a',
      n: 1,
      due: { __type: 'Date', iso: '2024-01-02T03:04:05.678Z' },
      owner: pointer('Author', 'a1'),
      ACL: { '*': { read: true, write: false } },
    };
    const initial: Edits = {
      title: toDraft('String', row.title),
      n: toDraft('Number', row.n),
      due: toDraft('Date', row.due),
      owner: toDraft('Pointer', row.owner),
      ACL: toDraft('ACL', row.ACL),
    };
    expect(changesOf(initial, initial)).toEqual({ bodies: [] });
    const edits: Edits = {
      ...initial,
      n: null,
      due: { kind: 'Date', text: '2025-06-07T08:09:10.5' },
      owner: { kind: 'Pointer', className: 'Author', id: 'b2' },
    };
    expect(changesOf(initial, edits)).toEqual({
      bodies: [
        {
          n: { __op: 'Delete' },
          due: { __type: 'Date', iso: '2025-06-07T08:09:10.500Z' },
          owner: pointer('Author', 'b2'),
        },
      ],
    });
    expect(
      changesOf(initial, { ...initial, n: { kind: 'Number', text: '1x' }, title: { kind: 'JSON', text: '{' } }),
    ).toEqual({
      errors: { n: 'not a number', title: expect.stringMatching(/^not JSON/) },
    });
    expect(
      changesOf(initial, { ...initial, ACL: { kind: 'ACL', entries: [{ principal: 'u1', read: true, write: true }] } }),
    ).toEqual({
      bodies: [{ ACL: { u1: { read: true, write: true } } }],
    });
  });

  it('changes a relation by its operators, removals in a second body when the column also gains rows', () => {
    const initial: Edits = { likes: toDraft('Relation', [pointer('User', 'u1'), pointer('User', 'u2')]) };
    expect(changesOf(initial, { likes: { kind: 'Relation', className: 'User', ids: ['u1'] } })).toEqual({
      bodies: [{ likes: { __op: 'RemoveRelation', objects: [pointer('User', 'u2')] } }],
    });
    expect(changesOf(initial, { likes: { kind: 'Relation', className: 'User', ids: ['u2', 'u3'] } })).toEqual({
      bodies: [
        { likes: { __op: 'AddRelation', objects: [pointer('User', 'u3')] } },
        { likes: { __op: 'RemoveRelation', objects: [pointer('User', 'u1')] } },
      ],
    });
    expect(changesOf({ likes: null }, { likes: { kind: 'Relation', className: '', ids: ['u1'] } })).toEqual({
      errors: { likes: 'a relation needs its table' },
    });
  });
});

describe('the grid query in the URL', () => {
  it('reads the query with defaults for missing or malformed numbers and builds the service request', () => {
    const query = readGridQuery(new URLSearchParams('where={"a":1}&order=-a,b&limit=x&skip=40&include=owner'));
    expect(query).toEqual({ where: '{"a":1}', order: '-a,b', keys: '', include: 'owner', limit: 20, skip: 40 });
    expect(queryParams(query)).toEqual({
      count: '1',
      limit: 20,
      skip: 40,
      order: '-a,b',
      keys: undefined,
      include: 'owner',
    });
    expect(readGridQuery(new URLSearchParams('limit=5000')).limit).toBe(1000);
  });
});
