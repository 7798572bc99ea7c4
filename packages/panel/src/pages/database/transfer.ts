// A table's rows as files and back. JSON keeps every value as the service shows it, with the table's column types:
// `{"table", "columns", "rows"}`. CSV is for people and spreadsheets: one column a field, each value by its column's
// type (text as is, numbers, true/false, dates in ISO 8601 UTC, a pointer's row id, a relation's ids and objects,
// arrays and ACLs as JSON); an empty field is no value (CSV has no null). Reading a file checks every value against
// its column's type (a new column's type comes from its first value) and names the line of the first that does not
// fit; the server then checks the rows again as creates, all before writing any (`POST …/import`).
import type { ColumnDefinition } from '@basekit/sdk/admin';
import { type CsvField, formatCsv, parseCsv } from './csv.js';

type Json = Record<string, unknown>;

/** Columns every row has: the first three lead a file's header, `ACL` closes it. */
const LEADING = ['_id', 'createdAt', 'updatedAt'];
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** What an import sends: the rows, the column types to give the table first, and the line each row starts on. */
export interface ImportFile {
  rows: Json[];
  columns?: ColumnDefinition[];
  lines: number[];
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const typed = (value: unknown, type: string): value is Json => isObject(value) && value['__type'] === type;

/** The columns of a file of `rows`: the system ones, the table's, any other the rows have, then `ACL`. */
function fileColumns(columns: ColumnDefinition[], rows: Json[]): string[] {
  const names = [...LEADING, ...columns.map((c) => c.name)];
  for (const row of rows)
    for (const name of Object.keys(row)) if (!names.includes(name) && name !== 'ACL') names.push(name);
  return [...names, 'ACL'];
}

/** The JSON file of rows: the table's name and column types, and the rows as the service shows them. */
export function toJsonFile(table: string, columns: ColumnDefinition[], rows: Json[]): string {
  return `${JSON.stringify({ table, columns, rows }, null, 2)}\n`;
}

/** One value in a CSV field, by its column's type. */
function csvField(value: unknown, column: ColumnDefinition | undefined): CsvField {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typed(value, 'Date')) return String(value['iso']);
  if (column?.type === 'Pointer' && typed(value, 'Pointer')) return String(value['_id']);
  if (column?.type === 'Relation' && Array.isArray(value))
    return JSON.stringify(value.map((pointer) => (typed(pointer, 'Pointer') ? pointer['_id'] : pointer)));
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The CSV file of rows: a header of column names, then a record per row. */
export function toCsvFile(columns: ColumnDefinition[], rows: Json[]): string {
  const names = fileColumns(columns, rows);
  const byName = new Map(columns.map((c) => [c.name, c]));
  return formatCsv([names, ...rows.map((row) => names.map((name) => csvField(row[name], byName.get(name))))]);
}

/** Reads a field by a column's type; the message says what the field should hold when it does not. */
type Reader = (text: string) => { value: unknown } | { error: string };

const json =
  (check: (value: unknown) => boolean, what: string): Reader =>
  (text) => {
    try {
      const value: unknown = JSON.parse(text);
      return check(value) ? { value } : { error: `takes ${what}` };
    } catch {
      return { error: `takes ${what}` };
    }
  };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|UTC)$/;
const DATE_ERROR = 'takes a UTC date and time, 2024-01-02T15:04:05.678Z';
const isoOf = (text: string) => (ISO.test(text) ? new Date(text.replace(/UTC$/, 'Z')) : undefined);

function reader(column: ColumnDefinition): Reader {
  switch (column.type) {
    case 'String':
      return (text) => ({ value: text });
    case 'Number':
      return (text) => {
        const n = Number(text);
        return text.trim() !== '' && Number.isFinite(n) ? { value: n } : { error: 'takes a number' };
      };
    case 'Boolean':
      return (text) =>
        /^(true|false)$/i.test(text) ? { value: text.toLowerCase() === 'true' } : { error: 'takes true or false' };
    case 'Date':
      return (text) => {
        const date = isoOf(text);
        return date && !Number.isNaN(date.getTime())
          ? { value: { __type: 'Date', iso: date.toISOString() } }
          : { error: DATE_ERROR };
      };
    case 'Pointer':
      return (text) =>
        text.startsWith('{')
          ? json((v) => typed(v, 'Pointer'), 'a row id or a pointer')(text)
          : { value: { __type: 'Pointer', className: column.targetClass, _id: text } };
    case 'Relation':
      return (text) => {
        const ids = json(Array.isArray, 'a JSON array of row ids')(text);
        if ('error' in ids) return ids;
        const pointer = (id: unknown) =>
          typeof id === 'string' ? { __type: 'Pointer', className: column.targetClass, _id: id } : id;
        return { value: (ids.value as unknown[]).map(pointer) };
      };
    case 'Array':
      return json(Array.isArray, 'a JSON array');
    default:
      return json(isObject, 'a JSON object');
  }
}

/** The reader of a file's column: the system columns', the table's column's, or a new column's by its first value. */
function columnReader(name: string, first: string, column: ColumnDefinition | undefined): Reader {
  if (name === '_id') return (text) => ({ value: text });
  if (name === 'createdAt' || name === 'updatedAt')
    return (text) => (isoOf(text) ? { value: text } : { error: DATE_ERROR });
  if (name === 'ACL') return json(isObject, 'a JSON object (an ACL)');
  return reader(column ?? { name, type: guessType(first) });
}

/** The type of a column the table does not have yet, from its first value in the file. */
function guessType(text: string): ColumnDefinition['type'] {
  if (/^(true|false)$/i.test(text)) return 'Boolean';
  if (text.trim() !== '' && Number.isFinite(Number(text))) return 'Number';
  if (isoOf(text)) return 'Date';
  for (const [type, check] of [
    ['Object', isObject],
    ['Array', Array.isArray],
  ] as const) {
    try {
      if (check(JSON.parse(text))) return type;
    } catch {}
  }
  return 'String';
}

/** A message about a line of a file: what an import shows when it refuses one. */
export class FileError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * The rows of a CSV file for a table of `columns`: the header names the columns; each field is read by its column's
 * type (a column new to the table takes the type of its first value). Throws a `FileError` naming the first line
 * that does not fit.
 */
export function readCsvFile(text: string, columns: ColumnDefinition[]): ImportFile {
  const records = parseCsv(text);
  if (!Array.isArray(records)) throw new FileError(records.line, records.error);
  const [header, ...data] = records;
  if (!header) throw new FileError(1, 'the file is empty: the first line names the columns');
  const byName = new Map(columns.map((c) => [c.name, c]));
  const readers = new Map<string, Reader>();
  header.fields.forEach((name, i) => {
    if (!NAME.test(name) && !LEADING.includes(name)) throw new FileError(header.line, `"${name}" is not a column name`);
    if (header.fields.indexOf(name) !== i) throw new FileError(header.line, `the column "${name}" comes twice`);
  });
  const readerOf = (name: string, text: string): Reader => {
    let read = readers.get(name);
    if (!read) {
      read = columnReader(name, text, byName.get(name));
      readers.set(name, read);
    }
    return read;
  };
  const rows = data.map(({ line, fields, quoted }) => {
    if (fields.length !== header.fields.length)
      throw new FileError(line, `${fields.length} fields where the header names ${header.fields.length} columns`);
    const row: Json = {};
    header.fields.forEach((name, i) => {
      const text = fields[i]!;
      if (text === '' && !quoted[i]) return;
      const read = readerOf(name, text)(text);
      if ('error' in read) throw new FileError(line, `column "${name}" ${read.error}, not ${JSON.stringify(text)}`);
      row[name] = read.value;
    });
    return row;
  });
  return { rows, lines: data.map((record) => record.line) };
}

/** The line of each element of the array that starts at `start` (an index of `[`) in a JSON text. */
function elementLines(text: string, start: number): number[] {
  const lines: number[] = [];
  let line = 1;
  for (let i = 0; i < start; i++) if (text.charCodeAt(i) === 10) line++;
  let depth = 0;
  let inString = false;
  let expecting = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\n') line++;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (/\s/.test(char)) continue;
    if (expecting && char !== ']') {
      lines.push(line);
      expecting = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth++;
      if (depth === 1) expecting = true;
    } else if (char === ']' || char === '}') {
      depth--;
      if (depth === 0) break;
    } else if (char === ',' && depth === 1) expecting = true;
  }
  return lines;
}

/** Where the rows array starts in a JSON file: the text itself, or the `rows` (or `results`) of its top object. */
function rowsStart(text: string, key: string | undefined): number {
  if (!key) return text.indexOf('[');
  // The top object's key is found outside strings at depth 1; a nested "rows" is never taken for it.
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = skipString(text, i);
      if (depth === 1 && text.slice(i, end + 1) === JSON.stringify(key) && /^\s*:\s*\[/.test(text.slice(end + 1)))
        return text.indexOf('[', end);
      i = end;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return -1;
}

/** The index of the quote that closes the string opening at `start`. */
function skipString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

/**
 * The rows of a JSON file: an array of rows, a query's answer `{"results"}`, or an export `{"table", "columns",
 * "rows"}` (its column types go with the import). Throws a `FileError` when the file is not one of them.
 */
export function readJsonFile(text: string): ImportFile {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new FileError(1, `not JSON: ${(error as Error).message}`);
  }
  const key = Array.isArray(file) ? undefined : isObject(file) && Array.isArray(file['rows']) ? 'rows' : 'results';
  const rows = key === undefined ? file : isObject(file) ? file[key] : undefined;
  if (!Array.isArray(rows))
    throw new FileError(1, 'a JSON file holds an array of rows, or {"rows": [...]} as the panel exports them');
  const columns =
    isObject(file) && Array.isArray(file['columns']) ? (file['columns'] as ColumnDefinition[]) : undefined;
  return { rows: rows as Json[], lines: elementLines(text, rowsStart(text, key)), ...(columns && { columns }) };
}

/** The line of the row an import refused, from the server's message (`row 3: …`), when it names one. */
export function refusedLine(file: ImportFile, message: string): number | undefined {
  const row = /^row (\d+): /.exec(message);
  return row ? file.lines[Number(row[1]) - 1] : undefined;
}
