/**
 * The boundary between the transcoder area (platform-neutral orchestration) and whatever converts video: the ffmpeg
 * runner on Node (`mock-server/src/transcoder/ffmpeg-runner.ts`), or the area's simulated runner
 * (`areas/transcoder/simulated-runner.ts`) in browsers.
 * The `transcoder` capability of `capabilities.ts`.
 */

/**
 * A file a runner produced, named relative to its place (a quality's folder, or the video).
 *
 * @example
 * const thumbnail: ProducedFile = { name: 'thumb-0.jpg', data: new Blob([jpegBytes], { type: 'image/jpeg' }) };
 */
export interface ProducedFile {
  name: string;
  data: Blob;
}

/**
 * What one output of a preset asks for, resolved to numbers.
 *
 * @example
 * const p360: OutputPlan = { height: 360, videoBitrate: 800_000, audioBitrate: 96_000 };
 */
export interface OutputPlan {
  /** Bits per second. */
  videoBitrate: number;
  audioBitrate: number;
  height: number;
  /** Absent: the source's aspect ratio decides (an even width). */
  width?: number;
}

/**
 * Where a watermark goes in the frame, its padding measured from the nearest edges.
 *
 * @example
 * const corner: WatermarkLocation = 'BOTTOM_RIGHT';
 */
export type WatermarkLocation =
  | 'TOP_LEFT'
  | 'TOP_CENTER'
  | 'TOP_RIGHT'
  | 'BOTTOM_LEFT'
  | 'BOTTOM_CENTER'
  | 'BOTTOM_RIGHT';

/**
 * Everything a conversion needs, settings already resolved and fetched.
 *
 * @example
 * const plan: ConvertPlan = { outputs: [p360], speed: 'veryfast', videoEncoder: 'x264', audioEncoder: 'aac', rawParameters: {}, hls: { segmentSeconds: 4 }, thumbnails: [0, 5] };
 * const { renditions, thumbnails } = await source.convert(plan);
 */
export interface ConvertPlan {
  outputs: OutputPlan[];
  speed: string;
  videoEncoder: 'x264' | 'x265';
  audioEncoder: 'aac';
  profile?: string;
  /** Extra encoder options, `{ "-tune": "film" }` or `{ "tune": "film" }`. */
  rawParameters: Record<string, string>;
  watermark?: { image: Blob; location: WatermarkLocation; paddingX: number; paddingY: number };
  /** Present for VOD: HLS per quality with segments of this length, AES-128 encrypted when a key is given. */
  hls?: { segmentSeconds: number; key?: Uint8Array<ArrayBuffer> };
  /** Moments of thumbnails to take in the same decode (seconds, ascending, each before the end; never watermarked). */
  thumbnails?: number[];
}

/**
 * What a conversion made: each quality, and the thumbnails its plan asked for (one per moment).
 *
 * @example
 * const { renditions, thumbnails }: Conversion = await source.convert({ ...plan, thumbnails: [0, 5] });
 * console.log(renditions.map((r) => r.height), thumbnails.map((t) => t.name));
 */
export interface Conversion {
  renditions: Rendition[];
  thumbnails: ProducedFile[];
}

/**
 * One quality of a conversion.
 *
 * @example
 * const { renditions } = await source.convert(plan);
 * for (const { width, height, file, hls }: Rendition of renditions) console.log(`${width}x${height}`, file.name, hls?.length);
 */
export interface Rendition {
  width: number;
  height: number;
  /** The whole converted video (MP4). */
  file: ProducedFile;
  /** With `hls`: the quality's `playlist.m3u8`, its segments and key, named relative to the quality's folder. */
  hls?: ProducedFile[];
}

/**
 * A source video taken in by a runner; `close` removes whatever it kept.
 *
 * @example
 * const source: OpenedSource = await runner.open(stream, signal);
 * try {
 *   const [cover] = await source.thumbnails([1]);
 *   const { renditions } = await source.convert(plan);
 * } finally {
 *   await source.close();
 * }
 */
export interface OpenedSource {
  durationSeconds: number;
  width: number;
  height: number;
  /** One image per moment (seconds from the start, ascending, each before the end). */
  thumbnails(times: number[]): Promise<ProducedFile[]>;
  /** Every output of the plan, its thumbnails included, from one decode of the source. */
  convert(plan: ConvertPlan): Promise<Conversion>;
  /** Removes whatever the runner kept of the source (temporary files). */
  close(): Promise<void>;
}

/**
 * Thrown by a runner when the source is not a video it can read; the job ends REJECTED with the message.
 *
 * @example
 * if (!probe.streams.some((stream) => stream.codec_type === 'video')) throw new UnreadableSource('the source has no video stream');
 */
export class UnreadableSource extends Error {}

/**
 * One command a runner ran for a job (ffmpeg or ffprobe on Node), as the admin job view shows it.
 *
 * @example
 * const runs: ConverterRun[] = [];
 * const source = await runner.open(stream, signal, (run) => runs.push(run));
 * runs.map(({ command, ms, exitCode }) => `${command}: ${exitCode} in ${ms} ms`);
 */
export interface ConverterRun {
  /** The command line, arguments quoted where the shell would need it. */
  command: string;
  ms: number;
  /** The exit code; null when the process was killed (the job's time limit) or did not start. */
  exitCode: number | null;
  /** The end of what it wrote to its error output: ffmpeg's log. */
  output: string;
}

/**
 * Converts videos. `signal` aborts everything the opened source does afterwards (the job's time limit); `log`
 * receives each command run for the job, when the runner runs commands.
 *
 * @example
 * const runner: TranscodeRunner = { open: async (stream, signal, log) => openWithFfmpeg(stream, signal, log) };
 * createEngine({ capabilities: { transcoder: { runner } } });
 */
export interface TranscodeRunner {
  /** Takes in the source video (read to its end) and finds its duration and size; `UnreadableSource` when it is none. */
  open(
    source: ReadableStream<Uint8Array>,
    signal: AbortSignal,
    log?: (run: ConverterRun) => void,
  ): Promise<OpenedSource>;
}

/**
 * The `transcoder` capability: a runner, or why conversions cannot run on this platform. Absent, the engine uses
 * its simulated runner.
 *
 * @example
 * createEngine({ capabilities: { transcoder: { runner: ffmpegRunner(tools) } } });
 * createEngine({ capabilities: { transcoder: { unavailable: 'ffmpeg was not found' } } }); // convert answers 503
 */
export type TranscoderCapability = { runner: TranscodeRunner } | { unavailable: string };
