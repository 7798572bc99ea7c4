import type { StoredBytes } from '../../shared/capabilities.js';
import { ApiError, ErrorCode, errorResponse } from '../../shared/errors.js';
import { bodyOf, sizeOf } from './stored-bytes.js';

/** What a download response says about its content. */
export interface Representation {
  bytes: StoredBytes;
  contentType: string;
  /** A strong validator, quoted. */
  etag: string;
  /** Epoch milliseconds. */
  lastModified: number;
  contentDisposition: string;
}

/** HTTP dates have whole seconds: compare at that precision. */
const seconds = (ms: number) => Math.floor(ms / 1000);

function matchesEtag(header: string, etag: string): boolean {
  // Weak comparison (RFC 9110 13.1.2): W/"x" matches "x".
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function notModified(headers: Headers, rep: Representation): boolean {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) return matchesEtag(ifNoneMatch, rep.etag);
  const since = Date.parse(headers.get('if-modified-since') ?? '');
  return !Number.isNaN(since) && seconds(rep.lastModified) <= seconds(since);
}

/** The byte range asked for (inclusive `end`), 'unsatisfiable', or undefined to send everything (RFC 9110 14). */
function requestedRange(
  headers: Headers,
  rep: Representation,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const range = headers.get('range');
  const match = range && /^bytes=(\d*)-(\d*)$/.exec(range.trim()); // one range; several, or other units, get the whole file
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const ifRange = headers.get('if-range');
  if (ifRange !== null && ifRange.trim() !== rep.etag && Date.parse(ifRange) !== seconds(rep.lastModified) * 1000)
    return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  return start > end ? undefined : { start, end };
}

/** Serves a stored file with validators (304), single byte ranges (206, 416) and its Content-Disposition. */
export function serveBytes(headers: Headers, rep: Representation): Response {
  const size = sizeOf(rep.bytes);
  const common = {
    'Content-Type': rep.contentType,
    ETag: rep.etag,
    'Last-Modified': new Date(rep.lastModified).toUTCString(),
    'Cache-Control': 'no-cache',
    'Accept-Ranges': 'bytes',
    'Content-Disposition': rep.contentDisposition,
    // Public files are read by pages of any origin (players, <img>, fetch); they must not be sniffed as HTML.
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers':
      'Content-Length, Content-Range, Content-Disposition, ETag, Last-Modified, Accept-Ranges',
    'X-Content-Type-Options': 'nosniff',
    // Applies only when a file is opened as a document: no scripts, an origin of its own (GitHub's raw file host does
    // the same). An image or a video opened directly still shows (img-src, media-src); inside pages it is ignored.
    'Content-Security-Policy':
      "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  };
  if (notModified(headers, rep)) return new Response(null, { status: 304, headers: common });
  const range = requestedRange(headers, rep, size);
  if (range === 'unsatisfiable') {
    const error = new ApiError(416, ErrorCode.RANGE_NOT_SATISFIABLE, `the file has ${size} bytes`);
    return errorResponse(error, undefined, { 'Content-Range': `bytes */${size}`, 'Access-Control-Allow-Origin': '*' });
  }
  if (!range)
    return new Response(bodyOf(rep.bytes, 0, size), {
      status: 200,
      headers: { ...common, 'Content-Length': String(size) },
    });
  return new Response(bodyOf(rep.bytes, range.start, range.end + 1), {
    status: 206,
    headers: {
      ...common,
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    },
  });
}
