import type { StoredBytes } from '../../shared/capabilities.js';
import { concatBytes } from '../../shared/util/bytes.js';

/** The number of bytes of stored content. */
export const sizeOf = (bytes: StoredBytes) =>
  Array.isArray(bytes) ? bytes.reduce((n: number, chunk: Uint8Array) => n + chunk.length, 0) : (bytes as Blob).size;

/**
 * Bytes `start` to `end` (exclusive) as a response body, without reading or copying the content: a slice of the
 * Blob (read from disk as it is sent) or views of the chunks, sent one after another.
 */
export function bodyOf(bytes: StoredBytes, start: number, end: number): BodyInit {
  if (!Array.isArray(bytes)) return (bytes as Blob).slice(start, end);
  const views: Uint8Array[] = [];
  let offset = 0;
  for (const chunk of bytes as readonly Uint8Array[]) {
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, chunk.length);
    if (from < to) views.push(chunk.subarray(from, to));
    offset += chunk.length;
  }
  // Stored chunks never sit on a SharedArrayBuffer, which is all that keeps a Uint8Array from being a BodyInit in TypeScript.
  if (views.length <= 1) return (views[0] ?? new Uint8Array(0)) as BodyInit;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = views.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** The whole content in one piece, for work that needs it so (resizing an image). */
export async function readAll(bytes: StoredBytes): Promise<Uint8Array> {
  if (!Array.isArray(bytes)) return new Uint8Array(await (bytes as Blob).arrayBuffer());
  return concatBytes(bytes as readonly Uint8Array[]);
}
