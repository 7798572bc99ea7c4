// CSV as RFC 4180 writes it: fields separated by commas, quoted with `"` when they hold a comma, a quote, a line break
// or spaces at an end (a quote doubled inside), records separated by CRLF. An empty unquoted field is "no value", a
// quoted empty field `""` an empty text, so both survive a round trip. Records keep the line they start on, for
// messages about a bad one.

/** One record of a CSV text: its fields, whether each was quoted, and the line (from 1) it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
  quoted: boolean[];
}

/** A field of `formatCsv`: text, or undefined for no value (an empty field). */
export type CsvField = string | undefined;

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
/** Where an unquoted field ends (searched from `lastIndex`, so a large text is read once). */
const DELIMITER = /[,\r\n]/g;

function field(value: CsvField): string {
  if (value === undefined) return '';
  return value === '' || NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * CSV text of records (the first is usually the header), CRLF after each.
 *
 * @example
 * formatCsv([['name', 'note'], ['Ann', 'says "hi", twice'], ['Bob', undefined]]);
 * // 'name,note\r\nAnn,"says ""hi"", twice"\r\nBob,\r\n'
 */
export function formatCsv(records: CsvField[][]): string {
  return records.map((record) => `${record.map(field).join(',')}\r\n`).join('');
}

/**
 * The records of a CSV text (a byte order mark and blank lines left out), or the line where it breaks (a quote never
 * closed, text after a closing quote).
 *
 * @example
 * parseCsv('a,b\n"x, y",\n'); // [{ line: 1, fields: ['a', 'b'], … }, { line: 2, fields: ['x, y', ''], quoted: [true, false] }]
 */
export function parseCsv(text: string): CsvRecord[] | { line: number; error: string } {
  const records: CsvRecord[] = [];
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const record: CsvRecord = { line, fields: [], quoted: [] };
    for (;;) {
      let value = '';
      const quoted = text[i] === '"';
      if (quoted) {
        i++;
        for (;;) {
          if (i >= text.length) return { line: record.line, error: 'a quoted field is never closed' };
          const char = text[i]!;
          if (char === '"' && text[i + 1] === '"') {
            value += '"';
            i += 2;
          } else if (char === '"') {
            i++;
            break;
          } else {
            if (char === '\n') line++;
            value += char;
            i++;
          }
        }
        if (i < text.length && !',\r\n'.includes(text[i]!))
          return { line, error: 'a closing quote must end its field (write a quote inside a field as "")' };
      } else {
        DELIMITER.lastIndex = i;
        const end = DELIMITER.exec(text)?.index ?? text.length;
        value = text.slice(i, end);
        i = end;
      }
      record.fields.push(value);
      record.quoted.push(quoted);
      if (text[i] !== ',') break;
      i++;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    const blank = record.fields.length === 1 && record.fields[0] === '' && !record.quoted[0];
    if (!blank) records.push(record);
  }
  return records;
}
