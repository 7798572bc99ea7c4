// The ceiling that request costs are compared with: a bare Hono hello-world, measured in the same run as the target.
// The load comes from a separate process (load-process.mjs), and the two are loaded in short alternating rounds (ABBA
// order), so that both see the same machine load: on a shared machine requests per second swing with whatever else
// runs, and a ratio of short alternating rounds swings much less. The server's CPU time per request is read as well:
// it does not count the time the server waited for the CPU.
import { createAdaptorServer } from '@hono/node-server';
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';

export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
}

export interface LoadFigures {
  rps: number;
  /** This process's CPU time (user + system) per answered request, microseconds. */
  cpuMicros: number;
  p99: number;
}

export interface Comparison {
  /** The target's requests per second as a percentage of the hello-world's, one per round. */
  rpsRatios: number[];
  /** The hello-world's CPU time per request as a percentage of the target's, one per round (100 % = as cheap). */
  cpuRatios: number[];
}

const CONNECTIONS = 10;

/** A load generator in a forked process; `run` loads one target for `seconds` while this process serves it. */
export function loadGenerator(): { run(target: LoadTarget, seconds: number): Promise<LoadFigures>; close(): void } {
  const child: ChildProcess = fork(new URL('./load-process.mjs', import.meta.url));
  return {
    run: (target, seconds) =>
      new Promise((resolve, reject) => {
        const cpuAtStart = process.cpuUsage();
        const failed = (code: number | null) => reject(new Error(`the load generator for ${target.url} exited with ${code}`));
        child.once('exit', failed);
        child.once('message', (figures: { rps: number; requests: number; p99: number }) => {
          child.off('exit', failed);
          const { user, system } = process.cpuUsage(cpuAtStart);
          resolve({ rps: Math.round(figures.rps), cpuMicros: (user + system) / figures.requests, p99: figures.p99 });
        });
        child.send({ url: target.url, headers: target.headers ?? {}, connections: CONNECTIONS, seconds });
      }),
    close: () => child.disconnect(),
  };
}

/** A bare Hono hello-world on @hono/node-server, with the adaptor options of `startServer`. */
export async function startHelloWorld(): Promise<{ url: string; close: () => void }> {
  const app = new Hono().get('/', (c) => c.json({ hello: 'world' }));
  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

/**
 * Measures `target` against a hello-world in `rounds` alternating rounds of `seconds` each (after a warm-up of both)
 * and prints the medians and spread of the ratios, and each round with `verbose`.
 */
export async function compareWithHelloWorld(name: string, target: LoadTarget, { rounds = 10, seconds = 1, verbose = false } = {}): Promise<Comparison> {
  const hello = await startHelloWorld();
  const load = loadGenerator();
  const result: Comparison = { rpsRatios: [], cpuRatios: [] };
  const hellos: LoadFigures[] = [];
  const targets: LoadFigures[] = [];
  try {
    await load.run({ url: hello.url }, 1); // warm-up: JIT, connections, the token cache
    await load.run(target, 1);
    for (let round = 1; round <= rounds; round++) {
      let h: LoadFigures, t: LoadFigures;
      if (round % 2) {
        h = await load.run({ url: hello.url }, seconds);
        t = await load.run(target, seconds);
      } else {
        t = await load.run(target, seconds);
        h = await load.run({ url: hello.url }, seconds);
      }
      result.rpsRatios.push((100 * t.rps) / h.rps);
      result.cpuRatios.push((100 * h.cpuMicros) / t.cpuMicros);
      hellos.push(h);
      targets.push(t);
      if (verbose) console.log(`  round ${round}: hello-world ${h.rps} req/s, ${h.cpuMicros.toFixed(1)} µs CPU; ${name} ${t.rps} req/s, ${t.cpuMicros.toFixed(1)} µs CPU`);
    }
  } finally {
    load.close();
    hello.close();
  }
  const medianOf = (figures: LoadFigures[], key: keyof LoadFigures) => median(figures.map((f) => f[key]));
  console.log(
    `${name} vs a bare Hono hello-world (${rounds} alternating rounds of ${seconds} s, ${CONNECTIONS} connections, load from another process): ` +
      `median ${median(result.rpsRatios).toFixed(0)} % of its requests per second (rounds ${spread(result.rpsRatios)} %; ` +
      `${medianOf(targets, 'rps')} against ${medianOf(hellos, 'rps')} req/s, p99 ${medianOf(targets, 'p99')} ms); ` +
      `by the server's CPU time per request median ${median(result.cpuRatios).toFixed(0)} % (rounds ${spread(result.cpuRatios)} %; ` +
      `${medianOf(targets, 'cpuMicros').toFixed(1)} against ${medianOf(hellos, 'cpuMicros').toFixed(1)} µs)`,
  );
  return result;
}
