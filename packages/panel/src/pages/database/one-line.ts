type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const MAX_CHARS = 200;

/**
 * A value as one line of text: text as is, a date as its ISO form, anything else as JSON with a space after each
 * comma and colon, cut at 200 characters (a cell cuts it at its width; the whole value is a click away).
 *
 * @example
 * oneLine({ deep: { list: [1, 2] } }); // '{ "deep": { "list": [ 1, 2 ] } }'
 */
export function oneLine(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isObject(value) && value['__type'] === 'Date') return String(value['iso']);
  const text = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, ' ') ?? String(value);
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
