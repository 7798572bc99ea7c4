import type { Inspector } from './inspector.js';

interface StreamOptions {
  /** A comment line this often keeps proxies and the client from taking a quiet stream for a dead one. */
  heartbeatMs: number;
  /** A client this many bytes of events behind is cut off (it may reconnect and reload the list). */
  maxBacklogBytes: number;
}

const STREAM_DEFAULTS: StreamOptions = { heartbeatMs: 15_000, maxBacklogBytes: 1024 * 1024 };

const encoder = new TextEncoder();

/**
 * The live list of an inspector as server-sent events: one `request` event per answered request (`id` the request's
 * id, `data` its summary as JSON), a comment every `heartbeatMs`. It stops listening as soon as the client goes away
 * (the stream is cancelled or `signal` aborts) and cuts off a client that does not keep up (a last `cut-off` event,
 * then the end), so no listener outlives its reader and no backlog grows past `maxBacklogBytes`.
 */
export function exchangeEvents(
  inspector: Inspector,
  signal: AbortSignal,
  options: StreamOptions = STREAM_DEFAULTS,
): ReadableStream<Uint8Array> {
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const send = (text: string) => controller.enqueue(encoder.encode(text));
        const unsubscribe = inspector.subscribe((exchange) => {
          if ((controller.desiredSize ?? 0) < -options.maxBacklogBytes) {
            stop();
            send(
              'event: cut-off\ndata: {"reason":"the client fell too far behind; reconnect and reload the list"}\n\n',
            );
            controller.close();
            return;
          }
          send(`id: ${exchange.id}\nevent: request\ndata: ${JSON.stringify(exchange.summary())}\n\n`);
        });
        const heartbeat = setInterval(() => send(': heartbeat\n\n'), options.heartbeatMs);
        // In Node, an open stream alone does not keep the process running.
        (heartbeat as { unref?: () => void }).unref?.();
        const aborted = () => {
          stop();
          controller.close();
        };
        stop = () => {
          unsubscribe();
          clearInterval(heartbeat);
          signal.removeEventListener('abort', aborted);
        };
        if (signal.aborted) return aborted();
        signal.addEventListener('abort', aborted);
        send('retry: 2000\n: connected\n\n');
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
}
