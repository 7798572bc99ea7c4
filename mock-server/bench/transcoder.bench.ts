// Transcoder benchmark: the wall and CPU time of a VOD convert job with three thumbnails and a watermark (source and
// watermark fetched over HTTP, one decode into a three-quality ladder, its HLS and the thumbnails, every file
// delivered to a local receiver, webhook received) against the best single ffmpeg command that makes the same
// outputs from the same input: one decode, the thumbnails' select, the overlay, split, scale, encode, each quality
// to HLS and to an MP4 at once (the tee muxer). That command is the physical limit of this work; the target is a
// ratio of at most 1.10, wall and CPU. The job's CPU is the server's (this process) and its children's (ffmpeg,
// ffprobe); the receiver is the client's and runs in a process of its own, whose CPU is printed apart. Runs
// alternate; each ratio is the median of each job over the command run just before it; the load average is printed
// with every round (the machine may be shared).
// Run: `npm run bench -w @basekit/mock-server -- transcoder` (about 2 minutes on a quiet machine).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/server.js';
import type { TranscoderNotification } from '../../packages/sdk/src/transcoder/deliveries.js';
import { makeVideo, makeWatermark } from '../test/transcoder/support.js';
import { startProcess } from './processes.js';

const SECONDS = 20;
const SIZE = '1280x720';
const SPEED = 'veryfast';
const LADDER = [
  { resolution: '360', videoBitrate: '800k', audioBitrate: '96k' },
  { resolution: '540', videoBitrate: '1500k', audioBitrate: '128k' },
  { resolution: '720', videoBitrate: '2500k', audioBitrate: '128k' },
];
const RUNS = Number(process.env['TRANSCODER_BENCH_RUNS'] ?? 5);
/** Thumbnail moments, seconds. */
const SHOTS = [5, 10, 15];
const PADDING = 8;
const TARGET = 1.1;

const bits = (rate: string) => Number.parseFloat(rate) * (rate.endsWith('k') ? 1e3 : 1);

/** The one ffmpeg command that makes the same outputs as the job, with the same encoder options. */
function referenceArgs(source: string, mark: string, out: string): string[] {
  const select = SHOTS.map((t) => `eq(n\\,${t * 25})`).join('+');
  const graph = [
    `[0:v]split=2[frames][main];[frames]select='${select}'[thumbs]`,
    `[main][1:v]overlay=x=W-w-${PADDING}:y=H-h-${PADDING}[marked]`,
    `[marked]split=${LADDER.length}${LADDER.map((_, i) => `[s${i}]`).join('')}`,
    ...LADDER.map((o, i) => `[s${i}]scale=-2:${o.resolution},setsar=1[v${i}]`),
  ].join(';');
  const qualities = LADDER.flatMap((o, i) => {
    const v = bits(o.videoBitrate);
    // ffmpeg's usual 0.7 s mux delay (a tee's outputs get none): the segments are then those of the job, not larger.
    const hls = `f=hls:max_delay=700000:hls_time=2:hls_playlist_type=vod:hls_segment_filename=${out}/${o.resolution}/seg_%03d.ts`;
    return [
      ...['-map', `[v${i}]`, '-map', '0:a:0', '-c:v', 'libx264', '-preset', SPEED, '-pix_fmt', 'yuv420p'],
      ...['-b:v', String(v), '-maxrate', String(v), '-bufsize', String(2 * v), '-c:a', 'aac'],
      ...['-b:a', String(bits(o.audioBitrate)), '-force_key_frames', 'expr:gte(t,n_forced*2)', '-sc_threshold', '0'],
      ...['-flags:v', '+global_header', '-flags:a', '+global_header', '-f', 'tee'],
      `[${hls}]${out}/${o.resolution}/playlist.m3u8|[f=mp4:movflags=+faststart]${out}/${o.resolution}p.mp4`,
    ];
  });
  const thumbnails = ['-map', '[thumbs]', '-fps_mode', 'passthrough', '-frames:v', String(SHOTS.length)];
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', source, '-i', mark],
    ...['-filter_complex', graph, ...qualities, ...thumbnails, '-q:v', '3', `${out}/thumbnail-%03d.jpg`],
  ];
}

/** CPU seconds used so far by this process (the server) and by its finished children (ffmpeg, ffprobe), from /proc. */
function cpuSeconds(): { own: number; children: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // utime, stime, cutime, cstime are fields 14 to 17 of the stat line, in clock ticks (100 per second).
  const ticks = (from: number) => (Number(fields[from]) + Number(fields[from + 1])) / 100;
  return { own: ticks(11), children: ticks(13) };
}

/** Wall and CPU seconds of `work`; `own` is this process's share of `cpu` (the server's, without ffmpeg's). */
async function measure(work: () => unknown): Promise<{ wall: number; cpu: number; own: number }> {
  const [wall, cpu] = [performance.now(), cpuSeconds()];
  await work();
  const after = cpuSeconds();
  return {
    wall: (performance.now() - wall) / 1000,
    cpu: after.own + after.children - cpu.own - cpu.children,
    own: after.own - cpu.own,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const root = mkdtempSync(join(tmpdir(), 'transcoder-bench-'));
const receiver = await startProcess<{ url: string }>('transcoder-receiver', [root]);
const receiverUrl = receiver.info.url;
const source = makeVideo(join(root, 'src/input.mp4'), { seconds: SECONDS, size: SIZE });
const mark = makeWatermark(join(root, 'src/mark.png'));
const server = await startServer({ port: 0 });
const login = await fetch(`${server.url}/auth/login`, {
  method: 'POST',
  headers: { 'X-Service-Authentication-Id': 'dev-auth-id', 'X-Service-Authentication-Key': 'dev-master-key' },
});
const headers = {
  authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
  'content-type': 'application/json',
};
// The reference run leaves the client's keep-alive socket idle past the server's timeout; a request that races its
// closing fails with ECONNRESET before reaching the server, and is sent again.
const post = (path: string, body: unknown): Promise<Response> => {
  const send = () => fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return send().catch((error: Error) =>
    (error.cause as { code?: string } | undefined)?.code === 'ECONNRESET' ? send() : Promise.reject(error),
  );
};
await post('/metadata/upload', { name: 'bench', url: `${receiverUrl}/upload` });
await post('/metadata/webhook', { name: 'bench', url: `${receiverUrl}/webhook` });
await post('/metadata/preset', { name: 'bench', vod: true, speed: SPEED, videoEncoder: 'x264', outputs: LADDER });
const hms = (t: number) => `00:00:${String(t).padStart(2, '0')}`;
await post('/metadata/thumbnail', { name: 'bench', shots: SHOTS.map(hms) });
await post('/metadata/watermark', {
  name: 'bench',
  url: `${receiverUrl}/src/mark.png`,
  location: 'BOTTOM_RIGHT',
  paddingX: PADDING,
  paddingY: PADDING,
});

/** What the receiver says once a request has its notifications (times in ms since the epoch). */
interface Received {
  notes: TranscoderNotification[];
  deliveries: number;
  firstDelivery: number;
  lastNotification: number;
}

const epochMs = () => performance.timeOrigin + performance.now();

/** One job: its wall time from the request to its last notification, the deliveries' share of it, and its files. */
async function job(): Promise<{ wall: number; delivering: number; deliveries: number; requestId: string }> {
  const start = epochMs();
  const res = await post('/video/convert', {
    url: `${receiverUrl}/src/input.mp4`,
    preset: 'bench',
    upload: 'bench',
    webhook: 'bench',
    thumbnail: 'bench',
    watermark: 'bench',
  });
  const { requestId } = (await res.json()) as { requestId: string };
  const got = await receiver.ask<Received>({ requestId, count: 2 });
  if (got.notes.some((n) => n.status !== 'COMPLETE')) throw new Error(`job ended ${JSON.stringify(got.notes)}`);
  return {
    wall: (got.lastNotification - start) / 1000,
    delivering: (got.lastNotification - got.firstDelivery) / 1000,
    deliveries: got.deliveries,
    requestId,
  };
}

/** Seconds the job's commands ran (ffprobe, ffmpeg), from its log in the admin job view. */
async function commandSeconds(requestId: string): Promise<number> {
  const answer = await fetch(`${server.url}/__admin/jobs`, {
    headers: { 'X-Service-Authentication-Key': 'dev-master-key' },
  });
  const { jobs } = (await answer.json()) as { jobs: { requestId: string; log: { ms: number }[] }[] };
  return jobs.find((j) => j.requestId === requestId)!.log.reduce((sum, run) => sum + run.ms, 0) / 1000;
}

function reference(): void {
  const out = mkdtempSync(join(tmpdir(), 'transcoder-bench-ref-'));
  for (const o of LADDER) mkdirSync(join(out, o.resolution));
  execFileSync('ffmpeg', referenceArgs(source, mark, out));
  rmSync(out, { recursive: true, force: true });
}

console.log(
  `input: ${SECONDS} s ${SIZE} 25 fps H.264 + AAC; ladder ${LADDER.map((o) => `${o.resolution}p@${o.videoBitrate}`).join(', ')}; x264 ${SPEED}; ${SHOTS.length} thumbnails; a watermark; ${RUNS} runs each, alternating`,
);
// The job's signal is followed by each delivery while it runs, and only then (an earlier version warned at the 11th listener).
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));
const load = () => loadavg()[0]!.toFixed(1);
type Run = { wall: number; cpu: number };
const jobs: (Run & { own: number; receiverCpu: number; delivering: number; deliveries: number; commands: number })[] =
  [];
const references: Run[] = [];
const loads: string[] = [];
for (let run = 0; run < RUNS; run++) {
  const before = load();
  references.push(await measure(reference));
  const receiverCpu = receiver.cpuSeconds();
  let done = { wall: 0, delivering: 0, deliveries: 0, requestId: '' };
  const { cpu, own } = await measure(async () => (done = await job()));
  jobs.push({
    ...done,
    cpu,
    own,
    receiverCpu: receiver.cpuSeconds() - receiverCpu,
    commands: await commandSeconds(done.requestId),
  });
  const [j, r] = [jobs.at(-1)!, references.at(-1)!];
  loads.push(`${before}-${load()}`);
  console.log(
    `  round ${run + 1}: command wall ${r.wall.toFixed(2)} s CPU ${r.cpu.toFixed(2)} s | job wall ${j.wall.toFixed(2)} s (its commands ${j.commands.toFixed(2)} s) CPU ${j.cpu.toFixed(2)} s (server ${j.own.toFixed(2)} s, ffmpeg ${(j.cpu - j.own).toFixed(2)} s; receiver ${j.receiverCpu.toFixed(2)} s) | load ${loads.at(-1)}`,
  );
}
const runsOf = (runs: Run[], key: 'wall' | 'cpu') =>
  `${median(runs.map((r) => r[key])).toFixed(2)} s (${runs.map((r) => r[key].toFixed(2)).join(', ')})`;
const show = (name: string, runs: Run[]) =>
  console.log(`${name.padEnd(44)} wall median ${runsOf(runs, 'wall')}   CPU median ${runsOf(runs, 'cpu')}`);
show('single ffmpeg command (HLS + MP4s + thumbnails)', references);
show(`convert job (the same, ${jobs[0]!.deliveries} deliveries)`, jobs);
console.log(
  `  of which deliveries after the last ffmpeg run: median ${median(jobs.map((j) => j.delivering)).toFixed(2)} s; the server's own CPU (without ffmpeg): median ${median(jobs.map((j) => j.own)).toFixed(2)} s; the receiver's CPU (the client's, not counted): median ${median(jobs.map((j) => j.receiverCpu)).toFixed(2)} s`,
);
// Each job ran right after its reference, under about the same load: the median of the pairs' ratios.
const ratio = (key: 'wall' | 'cpu') => median(jobs.map((r, i) => r[key] / references[i]![key]));
const met = (key: 'wall' | 'cpu') => (ratio(key) <= TARGET ? 'met' : 'NOT met');
const withReceiver = median(jobs.map((r, i) => (r.cpu + r.receiverCpu) / references[i]!.cpu));
console.log(
  `ratio job / command (median of pairs, target ≤ ${TARGET}): wall ${ratio('wall').toFixed(3)} ${met('wall')}   CPU ${ratio('cpu').toFixed(3)} ${met('cpu')}   (CPU with the receiver's: ${withReceiver.toFixed(3)})`,
);
console.log(
  `load average (1 min) before-after each round: ${loads.join(', ')}; warnings: ${warnings.length ? warnings.join('; ') : 'none'}`,
);
process.exitCode = ratio('wall') <= TARGET && ratio('cpu') <= TARGET && warnings.length === 0 ? 0 : 1;

await server.close();
await receiver.close();
rmSync(root, { recursive: true, force: true });
