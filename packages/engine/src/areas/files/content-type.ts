import { loadOnce } from '../../shared/util/load-once.js';

// The Content-Type table is the `mime` package's (mime-db, IANA and common unregistered types), about 10 KB gzip.
// It is imported on the first upload or rename rather than with the page, so browser apps that never store a file
// do not load it (docs/decisions.md, "Streaming files").
const mimeTable = loadOnce(() => import('mime'));

const GENERIC = 'application/octet-stream';
const VALID = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;

/** Text is served as UTF-8, what nearly every text file stored today is written in. */
const withCharset = (type: string) => (type.startsWith('text/') ? `${type}; charset=utf-8` : type);

/**
 * The function that names the Content-Type a stored file is served with: from its name's extension, else the type
 * the uploader declared, else `application/octet-stream`.
 *
 * @example
 * const typeFor = await contentTypes();
 * typeFor('report.docx'); // 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
 */
export async function contentTypes(): Promise<(name: string, declared?: string) => string> {
  const { default: mime } = await mimeTable();
  return (name, declared) => {
    // Only a name with an extension: `mime` would also take a bare name ("md") as one.
    const byName = name.includes('.') ? mime.getType(name) : null;
    if (byName) return withCharset(byName);
    return declared && VALID.test(declared) && !/[\u0000-\u001f\u007f]/.test(declared) ? declared : GENERIC;
  };
}

export const isImage = (contentType: string) => /^image\//i.test(contentType);

/**
 * Types a browser renders as a document that may run scripts (HTML, XHTML, SVG, any XML): served as attachments,
 * so opening one never runs it on the API's origin. Inside a page (`<img src>`) Content-Disposition is ignored.
 */
export const isActiveContent = (contentType: string) =>
  /^(text\/html|text\/xml|application\/xml|[^/\s]+\/[^;\s]+\+xml)\s*(;|$)/i.test(contentType);
