import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

/**
 * How much of a body left unread the server still reads before answering, to keep the connection alive: as Go's
 * server reads up to 256 KiB, so that the end of a body parsed to its last boundary (a multipart epilogue, chunked
 * encoding's last chunk) costs nothing, while a large rest (a refused upload) closes the connection instead.
 */
const DRAIN_BYTES = 256 * 1024;
/** How long the server waits for that rest: a client that stalls halfway gets its answer anyway. */
const DRAIN_MS = 250;

/**
 * Call before writing an answer. When the request's body has not come whole (a 413 part way through an upload, a 401
 * before it), reads what is left of it, within `DRAIN_BYTES` and `DRAIN_MS`; past them the answer says
 * `Connection: close` and Node closes the connection once the answer is out. Kept alive with the rest of the body
 * unread, the connection held it in front of the client's next request, which stalled until the adaptor's clean-up
 * closed the socket under it (the client saw "other side closed"). Requests whose bodies came whole (every GET) stay
 * kept alive at no cost. HTTP/2 carries each request on a stream of its own, which the adaptor closes.
 *
 * Returns undefined when there is nothing to read, so that ordinary answers wait for nothing.
 *
 * @example
 * await finishBody(incoming, outgoing);
 * outgoing.writeHead(413, headers).end(text);
 */
export function finishBody(
  incoming: IncomingMessage | Http2ServerRequest,
  outgoing: ServerResponse | Http2ServerResponse,
): Promise<void> | undefined {
  // `complete`: the whole request, body included, has been parsed off the connection (read or not). HTTP/2's
  // request says so only once read to its end.
  if (!(incoming instanceof IncomingMessage) || incoming.complete) return undefined;
  return readToEnd(incoming).then((ended) => {
    if (!ended && !outgoing.headersSent) outgoing.setHeader('Connection', 'close');
  });
}

/** Reads and drops the rest of `incoming`; true when it ended within the bounds. */
function readToEnd(incoming: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let bytes = 0;
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('readable', read).off('end', end).off('close', stop).off('error', stop);
      resolve(ended);
    };
    const read = () => {
      // read(), not 'data': an upload's reader may have left a 'readable' listener, which keeps the stream paused.
      for (let chunk: Buffer | null; (chunk = incoming.read() as Buffer | null) !== null; ) {
        bytes += chunk.length;
        if (bytes > DRAIN_BYTES) return settle(false);
      }
    };
    const end = () => settle(true);
    const stop = () => settle(false);
    const timer = setTimeout(stop, DRAIN_MS);
    incoming.on('readable', read).once('end', end).once('close', stop).once('error', stop);
    read();
  });
}
