// Uploads: one 1 GiB file uploaded to the reference server with --data-dir (its default `fsync: "never"`,
// and `"always"`), against a plain Node server that pipes the same multipart body to a file with stream.pipeline
// (with and without an fsync before it answers), each in a process of its own, from the same client process, in
// rounds that take turns. The client is fetch (as the SDK sends on Node) streaming the body, and hashes what it sends
// (MD5), as an uploader that checks the stored file does; the bench checks it against the server's. Each reference-server upload parses the body, hashes the file (MD5,
// CRC-32) and writes it to a temporary file renamed into place. Also the server's peak resident memory, its CPU time in
// the kernel, and what this machine's kernel costs to put a GiB into the page cache (into a new file, over the same one).
// Targets: at least 0.8× the pipeline server of the same durability; memory at most +64 MiB.
// Run: `npm run bench -w @basekit/mock-server -- upload` (about 1.5 minutes on a quiet machine; 10 GiB of disk writes).
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchProcess, median, startProcess, systemSeconds, threadSeconds, verdict } from './processes.js';

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;
const ROUNDS = 3;

interface Target {
  url: string;
  headers: Record<string, string>;
}

/** Resident memory of a process now and at its peak since the last reset (/proc), in bytes. */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/**
 * What this machine's kernel spends to put a file's bytes into the page cache, in seconds: into a new file, as the
 * reference server writes an upload (beside the file it replaces, renamed over it at the end), and over the same file
 * again, as the peer writes (its truncation frees the pages the writes then take). Where the memory is a virtual
 * machine's that the host backs on first use and takes back once free (free page reporting), the first costs the
 * host's faults too (docs/decisions.md, "Uploads: what the kernel costs on this machine").
 */
function pageCacheSeconds(path: string): { fresh: number; reused: number } {
  const chunk = Buffer.alloc(4 * MiB, 1);
  const write = () => {
    const before = process.cpuUsage().system;
    const fd = openSync(path, 'w');
    for (let written = 0; written < SIZE; written += chunk.length) writeSync(fd, chunk);
    closeSync(fd);
    return (process.cpuUsage().system - before) / 1e6;
  };
  const fresh = write();
  const reused = write();
  rmSync(path);
  return { fresh, reused };
}

const root = await mkdtemp(join(tmpdir(), 'basekit-upload-bench-'));
const processes: BenchProcess<Target>[] = [];
try {
  const client = await startProcess<object>('upload-client');
  const start = async (name: string, script: string, args: string[]) => {
    const server = await startProcess<Target>(script, args);
    processes.push(server);
    return { name, server };
  };
  const maxBytes = String(SIZE + MiB);
  const contenders = [
    await start('basekit-server --data-dir (fsync "never", the default)', 'upload-basekit', [
      join(root, 'never'),
      maxBytes,
      'never',
    ]),
    await start('stream.pipeline to a file', 'upload-pipeline', [root]),
    await start('basekit-server --data-dir, fsync "always"', 'upload-basekit', [
      join(root, 'always'),
      maxBytes,
      'always',
    ]),
    await start('stream.pipeline to a file + fsync', 'upload-pipeline', [root, 'fsync']),
  ];
  const seconds = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  const growth = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  const cpu = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  /** Each round's CPU seconds the kernel spent for the server: mostly copying the file into the page cache. */
  const kernel = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  /** Each round's CPU seconds of the event loop and of the server's busiest thread (the event loop or another). */
  const loop = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  const busiest = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  const loads: number[] = [];
  for (const { server } of contenders) await client.ask({ ...server.info, size: 64 * MiB }); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const { name, server } = contenders[(round + i) % contenders.length]!;
      await writeFile(`/proc/${server.pid}/clear_refs`, '5'); // the peak starts again from the resident size now
      const before = (await memory(server.pid)).rss;
      const cpuAtStart = server.cpuSeconds();
      const kernelAtStart = systemSeconds(server.pid);
      const threadsAtStart = threadSeconds(server.pid);
      loads.push(loadavg()[0]!);
      const { seconds: took, md5 } = await client.ask<{ seconds: number; md5: string }>({ ...server.info, size: SIZE });
      const threads = [...threadSeconds(server.pid)].map(([tid, s]) => [tid, s - (threadsAtStart.get(tid) ?? 0)]);
      loop.get(name)!.push(threads.find(([tid]) => tid === server.pid)![1]!);
      busiest.get(name)!.push(Math.max(...threads.map(([, s]) => s!)));
      if (name.startsWith('basekit') && (await server.ask<string>('md5')) !== md5)
        throw new Error(`${name}: the stored file's MD5 is not that of the file sent`);
      seconds.get(name)!.push(took);
      cpu.get(name)!.push(server.cpuSeconds() - cpuAtStart);
      kernel.get(name)!.push(systemSeconds(server.pid) - kernelAtStart);
      growth.get(name)!.push((await memory(server.pid)).peak - before);
    }
  }
  // After the rounds: the GiB it frees at its end would otherwise be the next upload's warm pages.
  const pageCache = pageCacheSeconds(join(root, 'page-cache-probe.bin'));
  const range = (values: number[], digits: number) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
  console.log(
    `\nA ${SIZE / MiB} MiB upload, one client (${ROUNDS} rounds in turn; medians, spread over the rounds; load average ${range(loads, 1)})`,
  );
  console.log(
    '| server | seconds | MiB/s | server CPU seconds | of which in the kernel | event loop / busiest thread, CPU seconds | server memory, peak rise |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const { name } of contenders) {
    const s = seconds.get(name)!;
    const rise = growth.get(name)!.map((bytes) => bytes / MiB);
    console.log(
      `| ${name} | ${median(s).toFixed(2)} (${range(s, 2)}) | ${(SIZE / MiB / median(s)).toFixed(0)} | ${median(cpu.get(name)!).toFixed(2)} | ${median(kernel.get(name)!).toFixed(2)} | ${median(loop.get(name)!).toFixed(2)} / ${median(busiest.get(name)!).toFixed(2)} | +${median(rise).toFixed(0)} MiB (${range(rise, 0)}) |`,
    );
  }
  console.log(
    `This machine's kernel, ${SIZE / MiB} MiB into the page cache: ${pageCache.fresh.toFixed(2)} s into a new file, ${pageCache.reused.toFixed(2)} s over the same file again`,
  );
  // Each round's uploads ran back to back, under about the same load: the median of the rounds' ratios.
  const speed = (ours: string, peer: string) =>
    median(seconds.get(ours)!.map((s, round) => seconds.get(peer)![round]! / s));
  const [never, pipeline, always, synced] = contenders.map(({ name }) => name) as [string, string, string, string];
  // The busiest thread: the part of a pipeline of threads that no other core can take on (here MD5). It bounds the
  // speed only where the server's threads alone keep the cores busy; the client, one thread, often bounds both.
  for (const [ours, peer] of [
    [never, pipeline],
    [always, synced],
  ] as const) {
    const ratio = median(busiest.get(peer)!.map((s, round) => s / busiest.get(ours)![round]!));
    console.log(`${ours}: busiest thread's CPU, the peer's over ours: ${ratio.toFixed(2)}×`);
  }
  let met = verdict(
    `${never}, speed over ${pipeline}`,
    speed(never, pipeline),
    '≥ 0.80',
    speed(never, pipeline) >= 0.8,
  );
  met =
    verdict(`${always}, speed over ${synced}`, speed(always, synced), '≥ 0.80', speed(always, synced) >= 0.8) && met;
  for (const name of [never, always]) {
    const rise = Math.max(...growth.get(name)!) / MiB;
    console.log(
      `${name}: memory at most +${rise.toFixed(0)} MiB (target ≤ +64 MiB): ${rise <= 64 ? 'met' : 'NOT met'}`,
    );
    met &&= rise <= 64;
  }
  process.exitCode = met ? 0 : 1;
  await client.close();
} finally {
  await Promise.all(processes.map((p) => p.close()));
  await rm(root, { recursive: true, force: true });
}
