// The kept requests as a HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/), the format browsers' network
// panels and HTTP tools import: what the inspector shows, secrets masked as there. Loaded on the first export only.
import type { BodyView, Exchange } from './exchange.js';

type NameValue = { name: string; value: string };

const pairs = (record: Record<string, string>): NameValue[] =>
  Object.entries(record).map(([name, value]) => ({ name, value }));

/** A body's bytes and type as HAR's `postData` or `content` take them, `comment` saying why a body is not there. */
function bodyOf(body: BodyView, headers: Record<string, string>) {
  const mimeType = headers['content-type'] ?? '';
  switch (body.kind) {
    case 'none':
      return { size: 0, mimeType, text: '' };
    case 'json':
      return { size: body.size, mimeType, text: JSON.stringify(body.json) };
    case 'text':
      return { size: body.size, mimeType, text: body.text };
    case 'form':
      return {
        size: -1,
        mimeType,
        text: '',
        params: Object.entries(body.fields).map(([name, value]) =>
          typeof value === 'string' ? { name, value } : { name, fileName: value.file, contentType: value.type },
        ),
      };
    case 'omitted':
      return { size: body.size ?? -1, mimeType, text: '', comment: `not kept by the inspector (${body.reason})` };
  }
}

/** One request as a HAR entry; the inspector's own facts as custom fields (`_id`, `_caller`, `_area`, `_project`). */
function entryOf(exchange: Exchange) {
  const details = exchange.details();
  const url = exchange.address();
  const request = bodyOf(details.request.body, details.request.headers);
  const response = bodyOf(details.response.body, details.response.headers);
  return {
    startedDateTime: details.time,
    time: details.durationMs,
    request: {
      method: details.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(details.request.headers),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(details.request.body.kind !== 'none' && { postData: request }),
      headersSize: -1,
      bodySize: request.size,
    },
    response: {
      status: details.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(details.response.headers),
      content: response,
      redirectURL: details.response.headers['location'] ?? '',
      headersSize: -1,
      bodySize: response.size,
    },
    cache: {},
    timings: { send: 0, wait: details.durationMs, receive: 0 },
    _id: details.id,
    _caller: details.caller,
    _area: details.area,
    _project: details.project,
  };
}

/** The requests (newest first, as the inspector lists them) as a HAR log, oldest first as HAR has it. */
export function toHar(exchanges: readonly Exchange[]) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'basekit request inspector', version: '1' },
      entries: [...exchanges].reverse().map(entryOf),
    },
  };
}
