// The database page's models without a browser: header sorting, the filter builder's where in both directions, CSV,
// and files of rows (export, then import with their lines).
import { describe, expect, it } from 'vitest';
import { formatOrder, nextSort, parseOrder } from '../src/components/grid/sort.js';
import { formatCsv, parseCsv } from '../src/pages/database/csv.js';
import { draftOf, whereOf, type TypeOf } from '../src/pages/database/filter-model.js';
import {
  FileError,
  readCsvFile,
  readJsonFile,
  refusedLine,
  toCsvFile,
  toJsonFile,
} from '../src/pages/database/transfer.js';

const pointer = (className: string, _id: string) => ({ __type: 'Pointer', className, _id });
const date = (iso: string) => ({ __type: 'Date', iso });

describe('sorting by headers', () => {
  it('cycles a column ascending, descending, unsorted; Shift adds it to the others', () => {
    const none = parseOrder('');
    const byScore = nextSort(none, 'score', false);
    expect(formatOrder(byScore)).toBe('score');
    expect(formatOrder(nextSort(byScore, 'score', false))).toBe('-score');
    expect(formatOrder(nextSort(parseOrder('-score'), 'score', false))).toBe('');
    expect(formatOrder(nextSort(parseOrder('-score'), 'name', false))).toBe('name');
    expect(formatOrder(nextSort(parseOrder('-score'), 'name', true))).toBe('-score,name');
    expect(formatOrder(nextSort(parseOrder('-score,name'), 'name', true))).toBe('-score,-name');
    expect(formatOrder(nextSort(parseOrder('-score,-name'), 'score', true))).toBe('-name');
    expect(parseOrder(' a , -b ,')).toEqual([
      { column: 'a', descending: false },
      { column: 'b', descending: true },
    ]);
  });
});

const COLUMNS: Record<string, Record<string, { type: string; targetClass?: string }>> = {
  Note: {
    _id: { type: 'String' },
    createdAt: { type: 'Date' },
    title: { type: 'String' },
    views: { type: 'Number' },
    done: { type: 'Boolean' },
    due: { type: 'Date' },
    tags: { type: 'Array' },
    meta: { type: 'Object' },
    author: { type: 'Pointer', targetClass: 'Author' },
  },
  Author: { name: { type: 'String' }, age: { type: 'Number' }, fans: { type: 'Relation', targetClass: 'Note' } },
};
const typeOf: TypeOf = (table, column) => COLUMNS[table]?.[column];

describe('the filter builder', () => {
  const roundTrips = [
    { title: 'a, b' },
    { views: 3, done: true, due: date('2024-01-02T03:04:05.678Z'), author: pointer('Author', 'a1') },
    { views: { $gte: 1, $lt: 10 }, title: { $ne: 'x' }, createdAt: { $gt: date('2024-01-01T00:00:00.000Z') } },
    { views: { $in: [1, 2, 3] }, title: { $nin: ['a', 'b, c'] }, tags: { $all: ['x', 2, { k: 1 }] } },
    { author: { $in: [pointer('Author', 'a1'), pointer('Author', 'a2')] } },
    { tags: 'x', meta: { level: 2, deep: { ok: true } }, 'meta.level': { $gt: 1 } },
    { title: { $exists: false }, due: { $exists: true } },
    { title: { $regex: '^wo', $options: 'i' }, _id: { $regex: 'a.c' } },
    { author: { $inQuery: { className: 'Author', where: { age: { $gt: 30 } } } } },
    { author: { $notInQuery: { className: 'Author', where: { $or: [{ name: 'Ann' }, { age: 2 }] } } } },
    { title: { $select: { query: { className: 'Author', where: { age: 3 } }, key: 'name' } } },
    { title: { $dontSelect: { query: { className: 'Author', where: {} }, key: 'name' } } },
    { $or: [{ views: { $gt: 5 } }, { done: true, title: 'x' }], views: { $exists: true } },
    { $relatedTo: { object: pointer('Author', 'a1'), key: 'fans' } },
  ];
  it.each(roundTrips)('shows %j and writes it back the same', (where) => {
    const draft = draftOf('Note', where, typeOf);
    expect(draft).toBeDefined();
    expect(whereOf('Note', draft!, typeOf)).toEqual({ where });
  });

  it('leaves to JSON what it cannot show: $and, $nor, an $or inside an $or, unknown operators', () => {
    for (const where of [
      { $and: [{ a: 1 }] },
      { $nor: [{ a: 1 }] },
      { $or: [{ $or: [{ a: 1 }] }] },
      { a: { $near: 1 } },
      { a: { $regex: /x/.source, $options: 'm' } },
    ])
      expect(draftOf('Note', where, typeOf)).toBeUndefined();
  });

  it('reads each value by its column type and says what does not fit', () => {
    const draft = (column: string, op: string, text: string) => ({
      conditions: [{ column, op: op as never, text }],
      anyOf: [],
    });
    expect(whereOf('Note', draft('views', '$gt', '7'), typeOf)).toEqual({ where: { views: { $gt: 7 } } });
    expect(whereOf('Note', draft('author', '$eq', 'a1'), typeOf)).toEqual({
      where: { author: pointer('Author', 'a1') },
    });
    expect(whereOf('Note', draft('due', '$lte', '2024-05-06T07:08:09Z'), typeOf)).toEqual({
      where: { due: { $lte: date('2024-05-06T07:08:09.000Z') } },
    });
    expect(whereOf('Note', draft('views', '$gt', 'many'), typeOf)).toEqual({
      errors: ['views: "many" is not a number'],
    });
    expect(whereOf('Note', draft('due', '$eq', '05/06/2024 7:08 PM'), typeOf)).toMatchObject({
      errors: [expect.stringContaining('not a UTC date and time')],
    });
    expect(
      whereOf(
        'Note',
        {
          conditions: [
            { column: 'views', op: '$gt', text: '1' },
            { column: 'views', op: '$gt', text: '2' },
          ],
          anyOf: [],
        },
        typeOf,
      ),
    ).toMatchObject({ errors: [expect.stringContaining('one "is greater than" condition per column')] });
  });
});

describe('CSV', () => {
  it('quotes what needs it, tells an empty text from no value, and keeps the line of each record', () => {
    const text = formatCsv([
      ['name', 'note', 'empty'],
      ['Ann', 'says "hi", twice', ''],
      ['Bob', 'two\nlines', undefined],
      [' padded', 'x', 'y'],
    ]);
    expect(text).toBe('name,note,empty\r\nAnn,"says ""hi"", twice",""\r\nBob,"two\nlines",\r\n" padded",x,y\r\n');
    const records = parseCsv(`\ufeff${text}\n`);
    expect(records).toEqual([
      { line: 1, fields: ['name', 'note', 'empty'], quoted: [false, false, false] },
      { line: 2, fields: ['Ann', 'says "hi", twice', ''], quoted: [false, true, true] },
      { line: 3, fields: ['Bob', 'two\nlines', ''], quoted: [false, true, false] },
      { line: 5, fields: [' padded', 'x', 'y'], quoted: [true, false, false] },
    ]);
    expect(parseCsv('a,b\n"open,\n')).toEqual({ line: 2, error: 'a quoted field is never closed' });
    expect(parseCsv('a\n"x"y\n')).toMatchObject({ line: 2 });
  });
});

describe('files of rows', () => {
  const columns = [
    { name: 'title', type: 'String' as const },
    { name: 'views', type: 'Number' as const },
    { name: 'done', type: 'Boolean' as const },
    { name: 'due', type: 'Date' as const },
    { name: 'author', type: 'Pointer' as const, targetClass: 'Author' },
    { name: 'likes', type: 'Relation' as const, targetClass: 'Author' },
    { name: 'meta', type: 'Object' as const },
    { name: 'tags', type: 'Array' as const },
  ];
  const rows = [
    {
      _id: 'n1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
      title: 'a, "quoted"',
      views: 3,
      done: false,
      due: date('2024-05-06T07:08:09.010Z'),
      author: pointer('Author', 'a1'),
      likes: [pointer('Author', 'a1'), pointer('Author', 'a2')],
      meta: { deep: { list: [1, 'x'] } },
      tags: ['x', 'y'],
      ACL: { '*': { read: true } },
    },
    { _id: 'n2', createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z', title: '', likes: [] },
  ];

  it('writes CSV by column type and reads it back to the same rows', () => {
    const text = toCsvFile(columns, rows);
    expect(text.split('\r\n')[0]).toBe('_id,createdAt,updatedAt,title,views,done,due,author,likes,meta,tags,ACL');
    expect(text.split('\r\n')[1]).toBe(
      'n1,2024-01-01T00:00:00.000Z,2024-01-02T00:00:00.000Z,"a, ""quoted""",3,false,2024-05-06T07:08:09.010Z,a1,"[""a1"",""a2""]","{""deep"":{""list"":[1,""x""]}}","[""x"",""y""]","{""*"":{""read"":true}}"',
    );
    const file = readCsvFile(text, columns);
    expect(file.rows).toEqual(rows);
    expect(file.lines).toEqual([2, 3]);
  });

  it('types a column the table lacks by its first value, and names the line of a value that does not fit', () => {
    const file = readCsvFile('title,rank,seen,when\r\nx,1,TRUE,2024-01-02T03:04:05Z\r\ny,2.5,false,\r\n', columns);
    expect(file.rows).toEqual([
      { title: 'x', rank: 1, seen: true, when: date('2024-01-02T03:04:05.000Z') },
      { title: 'y', rank: 2.5, seen: false },
    ]);
    const refused = (text: string) => {
      try {
        readCsvFile(text, columns);
      } catch (error) {
        expect(error).toBeInstanceOf(FileError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused('title,views\r\na,1\r\nb,"two\nlines"\r\nc,many\r\n')).toBe(
      'line 3: column "views" takes a number, not "two\\nlines"',
    );
    expect(refused('rank\r\n1\r\n2\r\nthird\r\n')).toBe('line 4: column "rank" takes a number, not "third"');
    expect(refused('title,views\r\na\r\n')).toBe('line 2: 1 fields where the header names 2 columns');
    expect(refused('title,title\r\n')).toMatch(/^line 1: the column "title" comes twice/);
    expect(refused('due\r\n2024-13-45\r\n')).toMatch(/^line 2: column "due" takes a UTC date and time/);
  });

  it("reads a JSON export with its column types, a query's answer or an array, with the line of each row", () => {
    const exported = readJsonFile(toJsonFile('Note', columns, rows));
    expect(exported.rows).toEqual(rows);
    expect(exported.columns).toEqual(columns);
    const text = toJsonFile('Note', columns, rows).split('\n');
    expect(text[exported.lines[0]! - 1]).toBe('    {');
    expect(readJsonFile('[{"a": 1},\n {"a": "[x]"},\n\n {"a": {"b": [1]}}]').lines).toEqual([1, 2, 4]);
    expect(readJsonFile('{"results": [\n{"rows": [1]}, {}]}')).toMatchObject({
      lines: [2, 2],
      rows: [{ rows: [1] }, {}],
    });
    const file = readJsonFile('[\n{"a": 1},\n{"a": 2}\n]');
    expect(refusedLine(file, 'row 2: column "a" holds Number, not String (code 111)')).toBe(3);
    expect(() => readJsonFile('{"a": 1}')).toThrow(/line 1: a JSON file holds an array of rows/);
  });
});
