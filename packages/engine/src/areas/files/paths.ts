import { ErrorCode, badRequest } from '../../shared/errors.js';

/** A location inside the bucket as decoded names, root first; `[]` is the bucket's root folder. */
export type FilePath = readonly string[];

/** Longest name, in UTF-8 bytes (the common file-system limit). */
const MAX_NAME_BYTES = 255;
/** Longest path, in characters, names joined with `/`. */
const MAX_PATH_CHARS = 1024;
/**
 * Longest path as sent, before decoding: a path of 1024 characters percent-encoded, with a scheme and host before
 * it, stays well below. Checked first, so a huge value is never split into millions of names.
 */
export const MAX_PATH_INPUT = 16 * 1024;

const CONTROL = /[\u0000-\u001f\u007f]/;
const ESCAPE = /%[0-9a-f]{2}/i;
const utf8Length = (text: string) => new TextEncoder().encode(text).length;

function invalid(field: string, problem: string) {
  return badRequest(ErrorCode.INVALID_PATH, `"${field}" ${problem}`);
}

function unsafe(name: string): string | undefined {
  if (name === '.' || name === '..') return 'must not contain "." or ".." segments';
  if (name.includes('/') || name.includes('\\')) return 'must not contain slashes or backslashes inside a name';
  if (CONTROL.test(name)) return 'must not contain NUL or control characters';
  return undefined;
}

/**
 * Checks one file or folder name as given (not percent-decoded): no `.`/`..`, separators, control characters,
 * at most 255 UTF-8 bytes, and nothing that would turn into one of those when decoded again ("`..` in any encoding").
 */
export function checkName(name: string, field: string): string {
  if (name === '') throw invalid(field, 'must not be empty');
  if (utf8Length(name) > MAX_NAME_BYTES) throw invalid(field, `has a name longer than ${MAX_NAME_BYTES} bytes`);
  let decoded = name;
  for (;;) {
    const problem = unsafe(decoded);
    if (problem) throw invalid(field, problem);
    if (!ESCAPE.test(decoded)) return name;
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) return name;
      decoded = next;
    } catch {
      return name; // not a valid escape sequence any more: a literal "%" in the name
    }
  }
}

/**
 * Parses a path or URL a client sends (`url`, `path`, `pathToRename`, `sourceUrls`, `destinationUrl`, and the
 * download path). Segments are percent-decoded and empty ones ignored. A path that starts with `/<bucket>` carries
 * the bucket prefix, which is dropped (listing URLs, download paths, also with `http(s)://host` before them); any
 * other path is relative to the bucket (saved paths as upload answers them, or typed by hand: `a b/c.txt`).
 */
export function parsePath(bucket: string, input: unknown, field: string): FilePath {
  if (typeof input !== 'string') throw invalid(field, 'must be a string');
  if (input.length > MAX_PATH_INPUT) throw invalid(field, `is longer than ${MAX_PATH_INPUT} characters`);
  const path = input.replace(/^https?:\/\/[^/]*/i, '');
  const names = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw invalid(field, `has a malformed percent-escape in "${segment}"`);
      }
    });
  if (path.startsWith('/') && names[0] === bucket) names.shift();
  for (const name of names) checkName(name, field);
  return checkPathLength(names, field);
}

/**
 * 400 when the names joined with `/` are longer than 1024 characters: every stored location must stay one that a
 * request can name, so uploads, renames, copies and moves check where they put things too.
 */
export function checkPathLength(path: FilePath, field: string): FilePath {
  if (path.join('/').length > MAX_PATH_CHARS) throw invalid(field, `is longer than ${MAX_PATH_CHARS} characters`);
  return path;
}

/**
 * The saved path of a location: its names percent-encoded, relative to the bucket, as upload, rename, copy and
 * move answer it. The download address is `{storage_url}/<bucket>/<saved path>`.
 *
 * @example
 * savedPath(['my photos', 'سلام.jpg']); // 'my%20photos/%D8%B3%D9%84%D8%A7%D9%85.jpg'
 */
export function savedPath(path: FilePath): string {
  return path.map(encodeURIComponent).join('/');
}

/**
 * The URL path of a location with the bucket prefix, `/<bucket>/<saved path>`: the `url` of listing records and
 * file info (the contract's `FileInfo`), and the download path (append it to `{storage_url}`).
 */
export function publicUrl(bucket: string, path: FilePath): string {
  return `/${encodeURIComponent(bucket)}/${savedPath(path)}`;
}

export const parentOf = (path: FilePath): FilePath => path.slice(0, -1);
export const nameOf = (path: FilePath): string => path[path.length - 1] ?? '';
/** The first path that appears a second time in `paths`, if any. */
export function firstRepeated(paths: readonly FilePath[]): FilePath | undefined {
  const seen = new Set<string>();
  for (const path of paths) {
    const key = path.join('/'); // names never contain "/"
    if (seen.has(key)) return path;
    seen.add(key);
  }
  return undefined;
}
export const samePath = (a: FilePath, b: FilePath) => a.length === b.length && a.every((name, i) => name === b[i]);
/** True when `inner` is `outer` or lies inside it. */
export const isWithin = (inner: FilePath, outer: FilePath) =>
  inner.length >= outer.length && outer.every((name, i) => name === inner[i]);
