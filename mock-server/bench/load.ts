// The benchmark's side of http-load.mjs: the load generator in a worker thread, so that the client does not share
// the server's event loop.
import { Worker } from 'node:worker_threads';

/** One HTTP target: a URL and the headers of each request in turn (so that requests come from many users). */
export interface Target {
  url: string;
  headers: Record<string, string>[];
}

/** How much load: requests one at a time (`samples`), then `connections` at once for `durationSeconds`. */
export interface Load {
  samples: number;
  connections: number;
  durationSeconds: number;
}

/** Microseconds, one request at a time; requests per second with the connections at once. */
export interface HttpFigures {
  median: number;
  p99: number;
  rps: number;
}

/** Runs the load generator on one target from a worker thread while this thread serves. */
export function overHttp(target: Target, load: Load): Promise<HttpFigures> {
  const worker = new Worker(new URL('./http-load.mjs', import.meta.url), { workerData: { ...target, ...load } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}
