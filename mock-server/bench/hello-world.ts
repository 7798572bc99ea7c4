// The ceiling that request costs are compared with: a bare Hono hello-world, measured in the same run as the target,
// and the same hello-world answered the way the server answers (the server's own transport, see JsonResponse), which
// leaves the engine's own cost in the ratio.
// The load comes from a separate process (load-process.mjs), and they are loaded in short rounds in turn (the order
// turning each round), so that all see the same machine load: on a shared machine requests per second swing with
// whatever else runs, and a ratio of short rounds in turn swings much less. The server's CPU time per request is read
// as well: it does not count the time the server waited for the CPU.
import { createAdaptorServer } from '@hono/node-server';
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { jsonResponse, writeJsonAnswer } from '../src/json-response.js';

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
        const failed = (code: number | null) =>
          reject(new Error(`the load generator for ${target.url} exited with ${code}`));
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

/**
 * A bare Hono hello-world on @hono/node-server, with the adaptor options of `startServer`. `answeredAsTheServer`
 * answers with the server's own `JsonResponse`, written as the server writes the engine's JSON answers: the peer that
 * leaves the engine's own cost alone in a ratio.
 */
export async function startHelloWorld({
  answeredAsTheServer = false,
} = {}): Promise<{ url: string; close: () => void }> {
  const hello = { hello: 'world' };
  const app = answeredAsTheServer
    ? new Hono().get('/', () =>
        jsonResponse(JSON.stringify(hello), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      )
    : new Hono().get('/', (c) => c.json(hello));
  const server = createAdaptorServer({
    fetch: answeredAsTheServer
      ? async (request, { outgoing }) => writeJsonAnswer(await app.fetch(request), outgoing)
      : app.fetch,
    overrideGlobalObjects: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

/**
 * Measures `target` against two hello-worlds in `rounds` rounds of `seconds` each (after a warm-up of each; the order
 * turns every round) and prints the medians and spread of the ratios, and each round with `verbose`: the bare Hono
 * hello-world (the ceiling of the target), and the hello-world answered as the server answers (what is left is the
 * engine's own cost).
 */
export async function compareWithHelloWorld(
  name: string,
  target: LoadTarget,
  { rounds = 10, seconds = 1, verbose = false } = {},
): Promise<Comparison> {
  const peers = [
    { name: 'a bare Hono hello-world', server: await startHelloWorld() },
    {
      name: 'the hello-world answered as the server answers',
      server: await startHelloWorld({ answeredAsTheServer: true }),
    },
  ];
  const load = loadGenerator();
  const runs = [target, ...peers.map((peer) => ({ url: peer.server.url }))];
  const figures: LoadFigures[][] = runs.map(() => []);
  try {
    for (const run of runs) await load.run(run, 1); // warm-up: JIT, connections, the token cache
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < runs.length; i++) {
        const which = (round + i) % runs.length;
        figures[which]!.push(await load.run(runs[which]!, seconds));
      }
      if (verbose)
        console.log(
          `  round ${round + 1}: ${runs.map((run, i) => `${i ? peers[i - 1]!.name : name} ${figures[i]![round]!.rps} req/s, ${figures[i]![round]!.cpuMicros.toFixed(1)} µs CPU`).join('; ')}`,
        );
    }
  } finally {
    load.close();
    for (const peer of peers) peer.server.close();
  }
  const [targets, ...peerFigures] = figures as [LoadFigures[], ...LoadFigures[][]];
  const medianOf = (of: LoadFigures[], key: keyof LoadFigures) => median(of.map((f) => f[key]));
  const comparisons = peerFigures.map((of) => ({
    rpsRatios: targets.map((t, round) => (100 * t.rps) / of[round]!.rps),
    cpuRatios: targets.map((t, round) => (100 * of[round]!.cpuMicros) / t.cpuMicros),
  }));
  comparisons.forEach((result, i) =>
    console.log(
      `${name} vs ${peers[i]!.name} (${rounds} rounds of ${seconds} s, ${CONNECTIONS} connections, load from another process): ` +
        `median ${median(result.rpsRatios).toFixed(0)} % of its requests per second (rounds ${spread(result.rpsRatios)} %; ` +
        `${medianOf(targets, 'rps')} against ${medianOf(peerFigures[i]!, 'rps')} req/s, p99 ${medianOf(targets, 'p99')} ms); ` +
        `by the server's CPU time per request median ${median(result.cpuRatios).toFixed(0)} % (rounds ${spread(result.cpuRatios)} %; ` +
        `${medianOf(targets, 'cpuMicros').toFixed(1)} against ${medianOf(peerFigures[i]!, 'cpuMicros').toFixed(1)} µs)`,
    ),
  );
  return comparisons[0]!;
}
