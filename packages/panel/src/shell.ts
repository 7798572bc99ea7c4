/** `text` as one word of a POSIX shell command: single-quoted, its own single quotes closed and escaped. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
