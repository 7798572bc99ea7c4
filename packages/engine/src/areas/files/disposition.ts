import { badRequest, ErrorCode } from '../../shared/errors.js';

/** `filename*` value characters that need no escape (RFC 8187 attr-char). */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

function extValue(name: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(name)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * A Content-Disposition header (RFC 6266) naming the file. `filename*` carries the exact name (RFC 8187, UTF-8) for
 * browsers; `filename` carries the same name's UTF-8 bytes for clients that only read `filename` (curl -J saves
 * under it), with quotes and backslashes replaced, as header values travel as bytes.
 *
 * @example
 * contentDisposition('attachment', 'گزارش.pdf'); // attachment; filename="Ú¯Ø²Ø§Ø±Ø´.pdf"; filename*=UTF-8''%DA%AF%D8%B2...
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const bytes = String.fromCharCode(...new TextEncoder().encode(name.replace(/["\\]/g, '_')));
  return `${type}; filename="${bytes}"; filename*=UTF-8''${extValue(name)}`;
}

/** The download name asked for with `?name=` or `?filename=` (400 when empty or with separators or control characters). */
export function downloadName(name: string | undefined, filename: string | undefined): string | undefined {
  const asked = name ?? filename;
  if (asked === undefined) return undefined;
  if (asked === '' || /[/\\\u0000-\u001f\u007f]/.test(asked) || asked.length > 255) {
    throw badRequest(
      ErrorCode.VALIDATION_FAILED,
      'the download name must be 1 to 255 characters without slashes or control characters',
    );
  }
  return asked;
}
