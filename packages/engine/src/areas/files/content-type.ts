import { getMimeType, mimes } from 'hono/utils/mime';

// Hono's table plus the types of HLS output (the transcoder's deliveries are stored here too).
const TYPES: Record<string, string> = { ...mimes, m3u8: 'application/vnd.apple.mpegurl', m4s: 'video/iso.segment', mov: 'video/quicktime', heic: 'image/heic' };

const GENERIC = 'application/octet-stream';
const VALID = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;

/**
 * The Content-Type a stored file is served with: from its name's extension, else the type the uploader declared,
 * else `application/octet-stream`.
 */
export function contentTypeFor(name: string, declared?: string): string {
  const byName = getMimeType(name, TYPES);
  if (byName) return byName;
  return declared && VALID.test(declared) && !/[\u0000-\u001f\u007f]/.test(declared) ? declared : GENERIC;
}

export const isImage = (contentType: string) => /^image\//i.test(contentType);

/**
 * Types a browser renders as a document that may run scripts (HTML, XHTML, SVG, any XML): served as attachments,
 * so opening one never runs it on the API's origin. Inside a page (`<img src>`) Content-Disposition is ignored.
 */
export const isActiveContent = (contentType: string) => /^(text\/html|text\/xml|application\/xml|[^/\s]+\/[^;\s]+\+xml)\s*(;|$)/i.test(contentType);
