// Benchmarks that run each server in a process of its own, loaded from yet another process, in rounds that take
// turns: every contender sees the same machine load, none pays for another's garbage or JIT, and each one's CPU time
// per request is read from /proc (which leaves out the time it waited for a CPU on a busy machine).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** A bench server (or worker) running in a process of its own, and what it printed when ready. */
export interface BenchProcess<I> {
  pid: number;
  info: I;
  /** User + system CPU seconds the process has used so far. */
  cpuSeconds(): number;
  /** Sends a message to the process and answers its reply (for workers that are not servers). */
  ask<R>(message: unknown): Promise<R>;
  close(): Promise<void>;
}

/** Clock ticks a second in /proc/<pid>/stat (Linux's USER_HZ). */
const TICKS = 100;

/** User and system (kernel) CPU seconds of a process or thread so far. */
function cpuOf(pid: number | string): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) / TICKS, system: Number(fields[12]) / TICKS }; // fields 14 and 15 of the line
}

function cpuSecondsOf(pid: number | string): number {
  const { user, system } = cpuOf(pid);
  return user + system;
}

/** The CPU seconds a process has spent in the kernel so far, on its behalf (system calls, page faults). */
export const systemSeconds = (pid: number): number => cpuOf(pid).system;

/**
 * User + system CPU seconds each thread of a process has used so far, by thread id (the event loop's is the
 * process id). On a machine whose cores are all taken, each runnable thread gets about the same share, so the
 * busiest thread of a pipeline of threads is what its wall time follows.
 */
export function threadSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), cpuSecondsOf(`${pid}/task/${tid}`));
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** Reads lines of `stream` until one starts with `ready `; answers the JSON after it. */
function readyLine<I>(stream: Readable, child: ChildProcess, script: string): Promise<I> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^ready (.*)$/m.exec(out);
      if (!match) return;
      stream.off('data', onData);
      stream.resume();
      resolve(JSON.parse(match[1]!) as I);
    };
    stream.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${out}`)));
  });
}

/**
 * Starts `bench/servers/<name>.ts` in a process of its own (TypeScript through tsx, the sources as the tests run
 * them) and waits for its `ready <json>` line.
 */
export async function startProcess<I>(name: string, args: string[] = []): Promise<BenchProcess<I>> {
  const script = new URL(`./servers/${name}.ts`, import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['--conditions=@basekit/source', '--import', 'tsx', '--max-old-space-size=8192', script, ...args],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const info = await readyLine<I>(child.stdout!, child, name);
  return {
    pid: child.pid!,
    info,
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    ask: <R>(message: unknown) =>
      new Promise<R>((resolve) => {
        child.once('message', (reply) => resolve(reply as R));
        child.send(message as object);
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** What to load: a URL, and optionally the method, headers, body and the requests to send in turn. */
export interface HttpTarget {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent in turn on each connection (e.g. `{ path }` of many rows, so no single row stays hot). */
  requests?: { path?: string; headers?: Record<string, string>; body?: string }[];
}

/** One round's figures of one contender. */
export interface RoundFigures {
  /** Requests (or operations) per second. */
  rate: number;
  /** CPU time of the contender's process per request (or operation), microseconds. */
  cpuMicros: number;
  /** CPU time of the load generator per request, microseconds (contenders loaded over HTTP). */
  loadMicros?: number;
}

/** One of the things a comparison measures in turn: `run` loads it for `seconds` and tells how it went. */
export interface Contender {
  name: string;
  run(seconds: number): Promise<RoundFigures>;
}

export const CONNECTIONS = 10;

/**
 * An autocannon process that loads one target at a time (`connections` at once), for as many rounds as asked.
 *
 * `ownSession`: the process runs in a session of its own (`setsid`). Linux shares a busy machine's CPU between
 * sessions first (autogroups, `/proc/sys/kernel/sched_autogroup_enabled`), then between the threads of each: in the
 * bench's session, the load generator's CPU (about 0.3–0.5 ms a request at 100 requests a second) is taken from the
 * share of the server it loads, which a contender without a load generator (a password check looping in its own
 * process) does not pay. In a session of its own, it takes a share of its own, as on another machine. The process
 * still ends when the bench does (it leaves when its parent disconnects).
 */
export function loadGenerator({ ownSession = false } = {}): {
  /** Loads `target` for `seconds`: the rate and requests autocannon saw, and its own CPU time per request (µs). */
  load(target: HttpTarget, seconds: number): Promise<{ rps: number; requests: number; cpuMicros: number }>;
  close(): void;
} {
  const child = fork(new URL('./load-process.mjs', import.meta.url), { detached: ownSession });
  return {
    load: (target, seconds) =>
      new Promise((resolve, reject) => {
        const failed = (code: number | null) =>
          reject(new Error(`the load generator for ${target.url} exited with ${code}`));
        child.once('exit', failed);
        const cpuAtStart = cpuSecondsOf(child.pid!);
        child.once('message', ({ rps, requests }: { rps: number; requests: number }) => {
          child.off('exit', failed);
          resolve({ rps, requests, cpuMicros: ((cpuSecondsOf(child.pid!) - cpuAtStart) * 1e6) / requests });
        });
        child.send({ ...target, connections: CONNECTIONS, seconds });
      }),
    close: () => {
      if (child.connected) child.disconnect();
    },
  };
}

/** A server process loaded over HTTP: its rate as the load generator saw it, its CPU time from /proc. */
export function httpContender(
  name: string,
  server: Pick<BenchProcess<unknown>, 'cpuSeconds'>,
  target: HttpTarget,
  generator: ReturnType<typeof loadGenerator>,
): Contender {
  return {
    name,
    async run(seconds) {
      const cpuAtStart = server.cpuSeconds();
      const { rps, requests, cpuMicros } = await generator.load(target, seconds);
      return {
        rate: rps,
        cpuMicros: ((server.cpuSeconds() - cpuAtStart) * 1e6) / requests,
        loadMicros: cpuMicros,
      };
    },
  };
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const range = (values: number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** Each contender's rounds, and each one's ratio to the first contender round by round. */
export interface Comparison {
  rounds: Map<string, RoundFigures[]>;
  /** Contender name -> its rate over the first contender's, one per round. */
  rateRatios: Map<string, number[]>;
  /** Contender name -> its CPU time per request over the first contender's, one per round. */
  cpuRatios: Map<string, number[]>;
}

/**
 * Runs every contender for `seconds` in each of `rounds` rounds, after a warm-up round, the order turning each
 * round, and prints per contender the median rate and CPU per request with their spread, and its ratios to the
 * first contender (the median of the rounds' ratios: each round's contenders ran back to back, under about the same
 * load).
 */
export async function compareInRounds(
  title: string,
  contenders: Contender[],
  { rounds = 5, seconds = 5, unit = 'req/s', warmUpSeconds = 2 } = {},
): Promise<Comparison> {
  const figures = new Map(contenders.map((c) => [c.name, [] as RoundFigures[]]));
  for (const contender of contenders) await contender.run(warmUpSeconds); // JIT, connections, caches
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const contender = contenders[(round + i) % contenders.length]!;
      figures.get(contender.name)!.push(await contender.run(seconds));
    }
  }
  const [first] = contenders;
  const base = figures.get(first!.name)!;
  const rateRatios = new Map<string, number[]>();
  const cpuRatios = new Map<string, number[]>();
  console.log(`\n${title} (${rounds} rounds of ${seconds} s each, in turn; medians, spread over the rounds)`);
  console.log(`| | ${unit} | CPU µs per operation | rate / ${first!.name} | CPU / ${first!.name} |`);
  console.log('|---|---|---|---|---|');
  for (const { name } of contenders) {
    const own = figures.get(name)!;
    const rates = own.map((f, round) => f.rate / base[round]!.rate);
    const cpus = own.map((f, round) => f.cpuMicros / base[round]!.cpuMicros);
    rateRatios.set(name, rates);
    cpuRatios.set(name, cpus);
    const rate = own.map((f) => f.rate);
    const cpu = own.map((f) => f.cpuMicros);
    console.log(
      `| ${name} | ${median(rate).toFixed(0)} (${range(rate)}) | ${median(cpu).toFixed(1)} (${range(cpu, 1)}) | ${median(rates).toFixed(2)}× (${range(rates, 2)}) | ${median(cpus).toFixed(2)}× (${range(cpus, 2)}) |`,
    );
  }
  return { rounds: figures, rateRatios, cpuRatios };
}

/** Prints whether a figure meets its target; answers whether it does. */
export function verdict(what: string, value: number, target: string, met: boolean): boolean {
  console.log(`${what}: ${value.toFixed(2)}× (target ${target}): ${met ? 'met' : 'NOT met'}`);
  return met;
}
