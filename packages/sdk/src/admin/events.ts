/** One server-sent event: its name (`message` when unnamed) and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body as they arrive, its lines ending in `\n` as the reference server writes
 * them (comments and `retry`/`id` lines skipped). Ends with the stream; leaving the iteration cancels the body.
 *
 * @example
 * for await (const { event, data } of serverSentEvents(response.body!)) if (event === 'request') show(JSON.parse(data));
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop()!;
      for (const block of blocks) {
        const lines = block.split('\n');
        const field = (name: string) =>
          lines
            .filter((line) => line.startsWith(`${name}:`))
            .map((line) => line.slice(name.length + 1).replace(/^ /, ''));
        const data = field('data');
        if (data.length > 0) yield { event: field('event')[0] ?? 'message', data: data.join('\n') };
      }
    }
  } finally {
    await reader.cancel();
  }
}
