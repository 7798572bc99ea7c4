// Uploads read straight from Node's request stream: no web stream between the socket and the engine's multipart
// parser, and boundaries found by Buffer's native search.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { ByteSearch } from '@basekit/engine';

/** A Node server's request (HTTP/1 or HTTP/2): a stream of the body's Buffers, and the headers. */
type NodeRequest = Readable & { headers: IncomingHttpHeaders };

const bodies = new WeakMap<Request, NodeRequest>();

/** Keeps the Node request of a multipart `request` (an upload), for `requestBody`. */
export function keepRequestBody(request: Request, incoming: NodeRequest): void {
  if (incoming.headers['content-type']?.startsWith('multipart/')) bodies.set(request, incoming);
}

/** The buffers of the chunks `requestBody` gave: each is its chunk's alone, made by Node for it. */
const ownBuffers = new WeakSet<ArrayBufferLike>();

/**
 * The `requestBody` capability: the Node request stream of an upload, whose chunks are the socket's own Buffers;
 * undefined for other requests, or once something has read from it (then the engine reads `request.body`).
 */
export function requestBody(request: Request): AsyncIterable<Uint8Array> | undefined {
  const incoming = bodies.get(request);
  return incoming && !incoming.readableDidRead ? ownChunks(incoming) : undefined;
}

async function* ownChunks(incoming: NodeRequest): AsyncGenerator<Uint8Array> {
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    ownBuffers.add(chunk.buffer);
    yield chunk;
  }
}

/**
 * Whether `chunk` is the whole of a buffer that only the request body's reader had (a socket's chunk as Node made
 * it, no small Buffer of Node's shared pool), so its memory may be taken: moved to another thread, not copied.
 */
export function ownsItsBuffer(chunk: Uint8Array): boolean {
  return chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && ownBuffers.has(chunk.buffer);
}

/** The `byteSearch` capability: `Buffer#indexOf`, a native search, over the same memory (no copy). */
export const byteSearch: ByteSearch = (haystack, needle, from) =>
  (Buffer.isBuffer(haystack)
    ? haystack
    : Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength)
  ).indexOf(needle, from);
