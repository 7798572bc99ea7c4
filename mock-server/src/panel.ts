import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the server serves the management panel (docs/panel.md). */
export const PANEL_PATH = '/__admin/panel/';

/**
 * The panel's build shipped in this package (`panel/dist`, written by the private `packages/panel` workspace's Vite
 * build, which the package's build, prepare and prepack run).
 */
export const BUILT_PANEL_DIR = fileURLToPath(new URL('../panel/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

// Where the page reads the word of the header names (packages/panel/index.html).
const HEADER_WORD_META = '<meta name="basekit-header-word" content="Service" />';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Sent with every answer below the panel's path. Scripts of the panel's own files only (the build has no
 * inline script), so that text a client wrote can never run as the panel, where the master key is kept; never
 * framed (clickjacking). Images, videos and hls.js's requests may reach any http(s) address: a job's delivered files
 * are where its receiver serves them.
 */
const PANEL_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob: http: https:",
    "media-src 'self' blob: http: https:",
    "connect-src 'self' http: https:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/**
 * Serves the built panel's static files under `/__admin/panel/`: hashed assets for a year, and `index.html` for every
 * other path below it (the panel's own URLs, so each is shareable), with the project's header word written in.
 * Answers only GET and HEAD below the panel's path; everything else is left to the engine (undefined).
 * The files themselves are public, as any web app's are: every call the panel makes needs the master key.
 */
export function panelFiles(
  folder: string,
  headerWord: () => string,
): (request: Request) => Promise<Response> | undefined {
  const root = resolve(folder);
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const url = request.url;
    // Every request of the service passes here: most are told apart without cutting the URL up.
    if (!url.includes(PANEL_PATH.slice(0, -1))) return undefined;
    const path = url.slice(url.indexOf('/', url.indexOf('//') + 2)).split('?')[0]!;
    if (path === PANEL_PATH.slice(0, -1))
      return Promise.resolve(
        new Response(null, {
          status: 308,
          headers: { ...PANEL_SECURITY_HEADERS, Location: new URL(PANEL_PATH, url).href },
        }),
      );
    if (!path.startsWith(PANEL_PATH)) return undefined;
    return serve(root, path.slice(PANEL_PATH.length), headerWord, request.method === 'HEAD');
  };
}

async function serve(root: string, relative: string, headerWord: () => string, head: boolean): Promise<Response> {
  let file: string;
  try {
    file = resolve(root, decodeURIComponent(relative));
  } catch {
    file = root; // a malformed escape: the panel's page, like any other unknown path
  }
  // Files of the build's assets folder only; a path that leaves the folder gets the page like any other.
  if (file.startsWith(`${root}${sep}assets${sep}`)) {
    const body = await readFile(file).catch(() => undefined);
    if (body)
      return respond(
        body,
        TYPES[extname(file)] ?? 'application/octet-stream',
        'public, max-age=31536000, immutable',
        head,
      );
  }
  const page = await readFile(resolve(root, 'index.html'), 'utf8').catch(() => undefined);
  if (page === undefined) {
    const text = `The panel is not built: run "npm run build -w @basekit/mock-server" (looked in ${root}).\n`;
    return new Response(head ? null : text, {
      status: 404,
      headers: { ...PANEL_SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const html = page.replace(
    HEADER_WORD_META,
    `<meta name="basekit-header-word" content="${escapeAttribute(headerWord())}" />`,
  );
  return respond(html, TYPES['.html']!, 'no-cache', head);
}

function respond(body: NonSharedBuffer | string, type: string, cacheControl: string, head: boolean): Response {
  const headers = {
    ...PANEL_SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': cacheControl,
  };
  return new Response(head ? null : body, { headers });
}
