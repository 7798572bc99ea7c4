/** The chunks as one new array, with an `ArrayBuffer` of its own. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * Reads `reader` until its stream ends (`bytes`: all of it, joined) or more than `limit` bytes have come (`over`: the
 * chunks read so far, the last one included; the reader is left where it stopped, for the caller to cancel or read on).
 *
 * @example
 * const read = await readUpTo(request.body.getReader(), 1024);
 * if ('over' in read) throw new Error('more than 1 KiB');
 */
export async function readUpTo(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer> } | { over: Uint8Array[] }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: concatBytes(chunks) };
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) return { over: chunks };
  }
}
