import { concatBytes } from '../util/bytes.js';
import { tooLarge } from './multipart-head.js';
import type { ByteSearch } from '../capabilities.js';
import { ApiError, ErrorCode, badRequest } from '../errors.js';

/** The chunks of a request body, in order, for the routes that stream it (uploads). */
export type BodyChunks = AsyncIterator<Uint8Array>;

/** The headers of one part of a `multipart/form-data` body. */
interface PartHeaders {
  name: string;
  /** Present for file parts. */
  filename?: string;
  contentType?: string;
}

/** One part: the bytes of a text field, or what its sink made of a file part that was streamed. */
export interface FormPart<F> extends PartHeaders {
  data?: Uint8Array;
  file?: F;
}

/** Where the bytes of a file part go as they arrive. */
export interface FileSink<F> {
  /**
   * Takes the next bytes. The parser never reads them again and keeps only bytes after them (in the same buffer when
   * they are not all of it): the sink may keep them, or take the memory of a piece that is all of its buffer.
   */
  write(chunk: Uint8Array): Promise<void>;
  /** Called after the last chunk: what stands for the file in the parts. */
  end(): Promise<F>;
}

/** The sink of a part to stream, or undefined to collect the part in memory as a text field. */
export type OpenFile<F> = (part: PartHeaders) => Promise<FileSink<F>> | undefined;

const HEADER_LIMIT = 16 * 1024;
const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const DASHES = new Uint8Array([45, 45]);
const decoder = new TextDecoder();

const malformed = (problem: string) => badRequest(ErrorCode.VALIDATION_FAILED, `malformed multipart body: ${problem}`);

/** What one multipart body may hold (config `maxUploadBytes`, `maxUploadParts`). */
interface MultipartLimits {
  bytes: number;
  parts: number;
  /** Bytes of one text field (a part without a file name). */
  fieldBytes: number;
}

/** The portable search (browsers): each place of the needle's first byte by `Uint8Array#indexOf`, the rest compared. */
function portableSearch(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (
    let i = haystack.indexOf(first, from);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** Where the longest end of `haystack` that is a beginning of `needle` starts (`haystack.length` when none). */
function partialMatchStart(haystack: Uint8Array, needle: Uint8Array): number {
  for (let start = Math.max(0, haystack.length - needle.length + 1); start < haystack.length; start++) {
    let j = 0;
    while (start + j < haystack.length && haystack[start + j] === needle[j]) j++;
    if (start + j === haystack.length) return start;
  }
  return haystack.length;
}

/** Reads a body chunk by chunk, counting bytes against the limit (413 past it). */
class BodyReader {
  buffer: Uint8Array = new Uint8Array(0);
  #received = 0;

  constructor(
    private readonly chunks: BodyChunks,
    private readonly limit: number,
    private readonly search: ByteSearch,
  ) {}

  /** Where `needle` first occurs in `buffer`; -1 when nowhere. */
  find(needle: Uint8Array): number {
    return this.search(this.buffer, needle, 0);
  }

  /** Appends the next chunk to `buffer`; false at the end of the body. */
  async more(): Promise<boolean> {
    const { done, value } = await this.chunks.next().catch(() => {
      throw malformed('the body could not be read to its end');
    });
    if (done) return false;
    this.#received += value.length;
    if (this.#received > this.limit) throw tooLarge(this.limit);
    this.buffer = this.buffer.length === 0 ? value : concatBytes([this.buffer, value]);
    return true;
  }

  /** Waits until `buffer` holds at least `length` bytes (400 when the body ends first). */
  async need(length: number): Promise<void> {
    while (this.buffer.length < length) if (!(await this.more())) throw malformed('the body ends too early');
  }

  consume(length: number): Uint8Array {
    const head = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return head;
  }
}

function parseHeaders(block: string): PartHeaders {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  if (!/^form-data\s*(;|$)/i.test(disposition)) throw malformed('a part lacks "Content-Disposition: form-data"');
  const params = new Map<string, string>();
  for (const [, key, quoted, bare] of disposition.matchAll(/;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    params.set(key!.toLowerCase(), quoted === undefined ? bare!.trim() : unquote(quoted));
  }
  const name = params.get('name');
  if (name === undefined) throw malformed('a part has no name');
  const part: PartHeaders = { name };
  const extended = /^utf-8''(.*)$/i.exec(params.get('filename*') ?? '');
  const filename = extended ? safeDecode(extended[1]!) : params.get('filename');
  if (filename !== undefined) part.filename = filename;
  const contentType = headers.get('content-type');
  if (contentType) part.contentType = contentType;
  return part;
}

/**
 * A quoted parameter's text. Browsers and fetch's FormData write `"`, CR and LF as `%22`, `%0D`, `%0A` (HTML's
 * multipart/form-data encoding) and a backslash as it is; curl writes `\"` and `\\` (RFC 2616 quoted-string).
 * Both are undone; any other backslash stays, as browsers sent it.
 */
function unquote(quoted: string): string {
  return quoted.replace(/\\(["\\])/g, '$1').replace(/%(?:22|0D|0A)/gi, (encoded) => decodeURIComponent(encoded));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw malformed(`"filename*" has a malformed percent-escape`);
  }
}

/**
 * Parses a `multipart/form-data` body as it streams in, finding boundaries with `search` (the platform's own where it
 * has one). The parts `openFile` gives a sink for go to it chunk by chunk as they arrive (the next chunk is read once
 * the sink has taken the last); the others are text fields, kept in memory. A body larger than `limits.bytes`, or with more than `limits.parts` parts, is refused (413) as soon as it
 * passes the limit, with or without a Content-Length: a flood of tiny parts costs no more than the parts allowed. A
 * text field longer than `limits.fieldBytes` is refused (400) as it streams in too. When it throws, the sinks opened
 * so far are the caller's to clean up.
 */
export async function readMultipart<F>(
  body: BodyChunks | null,
  boundary: string,
  limits: MultipartLimits,
  openFile: OpenFile<F>,
  search: ByteSearch = portableSearch,
): Promise<FormPart<F>[]> {
  if (!body) throw malformed('the body is empty');
  const reader = new BodyReader(body, limits.bytes, search);
  // Every boundary after the first follows a CRLF; prefixing one lets the first match the same delimiter.
  reader.buffer = CRLF;
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  const parts: FormPart<F>[] = [];
  await skipTo(reader, delimiter, () => undefined);
  for (;;) {
    await reader.need(2);
    const after = reader.consume(2);
    if (after[0] === DASHES[0] && after[1] === DASHES[1]) return parts; // the closing delimiter; the epilogue is ignored
    if (after[0] !== CRLF[0] || after[1] !== CRLF[1]) throw malformed('a boundary is not followed by a line break');
    if (parts.length === limits.parts)
      throw new ApiError(413, ErrorCode.TOO_MANY_PARTS, `the upload has more than ${limits.parts} parts`);
    const headers = parseHeaders(await readHeaderBlock(reader));
    const sink = await openFile(headers);
    if (sink) {
      await skipTo(reader, delimiter, (chunk) => sink.write(chunk));
      parts.push({ ...headers, file: await sink.end() });
      continue;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    await skipTo(reader, delimiter, (chunk) => {
      size += chunk.length;
      if (size > limits.fieldBytes)
        throw badRequest(
          ErrorCode.VALIDATION_FAILED,
          `the form field "${headers.name}" is longer than ${limits.fieldBytes} bytes`,
        );
      chunks.push(chunk);
    });
    parts.push({ ...headers, data: concatBytes(chunks) });
  }
}

async function readHeaderBlock(reader: BodyReader): Promise<string> {
  for (;;) {
    const end = reader.find(HEADER_END);
    if (end !== -1) {
      const block = decoder.decode(reader.consume(end));
      reader.consume(HEADER_END.length);
      return block;
    }
    if (reader.buffer.length > HEADER_LIMIT) throw malformed(`part headers are longer than ${HEADER_LIMIT} bytes`);
    if (!(await reader.more())) throw malformed('the body ends inside part headers');
  }
}

/** Passes the bytes before the next `delimiter` to `onData` as they arrive, and consumes the delimiter. */
async function skipTo(
  reader: BodyReader,
  delimiter: Uint8Array,
  onData: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  for (;;) {
    const at = reader.find(delimiter);
    if (at !== -1) {
      if (at > 0) await onData(reader.consume(at));
      reader.consume(delimiter.length);
      return;
    }
    // Keep only a tail that may be the start of a delimiter split across chunks; mostly there is none, the buffer
    // empties, and the next chunk is used as it arrives instead of being copied behind a tail.
    const safe = partialMatchStart(reader.buffer, delimiter);
    if (safe > 0) await onData(reader.consume(safe));
    if (!(await reader.more())) throw malformed('the closing boundary is missing');
  }
}
