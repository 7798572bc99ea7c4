import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  UnreadableSource,
  type Conversion,
  type ConverterRun,
  type ConvertPlan,
  type OpenedSource,
  type ProducedFile,
  type Rendition,
  type TranscodeRunner,
} from '@basekit/engine';
import { MAX_FRAME } from '@basekit/engine/server';
import { SOURCE_INPUT, encodeArgs, thumbnailArgs, type HlsOutput, type SourceInfo } from './commands.js';
import { runTool, type RunOptions, type Tools } from './tools.js';

/** The files of a folder, sorted by name, as Blobs read from disk when sent. */
async function filesOf(folder: string): Promise<ProducedFile[]> {
  const names = (await readdir(folder)).sort();
  return Promise.all(names.map(async (name) => ({ name, data: (await openAsBlob(join(folder, name))) as Blob })));
}

/** `"30000/1001"` -> 29.97; NaN or 0 when unknown (`"0/0"`). */
function frameRate(fraction: string): number {
  const [num = 0, den = 0] = fraction.split('/').map(Number);
  return num / den;
}

async function probe(tools: Tools, run: RunOptions): Promise<SourceInfo> {
  let json: string;
  try {
    const args = [
      '-v',
      'error',
      ...SOURCE_INPUT,
      '-show_entries',
      'format=duration,start_time:stream=codec_type,width,height,avg_frame_rate',
      '-of',
      'json',
      'source',
    ];
    json = await runTool(tools.ffprobe, args, run);
  } catch (error) {
    if (run.signal?.aborted) throw error;
    throw new UnreadableSource((error as Error).message);
  }
  const { format = {}, streams = [] } = JSON.parse(json) as {
    format?: Record<string, string>;
    streams?: Record<string, string | number>[];
  };
  const video = streams.find((s) => s['codec_type'] === 'video');
  const durationSeconds = Number(format['duration']);
  if (!video) throw new UnreadableSource('it has no video stream');
  if (!(durationSeconds > 0)) throw new UnreadableSource('its duration is unknown');
  // ffprobe answers 0 x 0 for a picture above -max_pixels.
  if (!(Number(video['width']) > 0 && Number(video['height']) > 0))
    throw new UnreadableSource(
      `its pictures are larger than ${MAX_FRAME.width}x${MAX_FRAME.height} pixels or of unknown size`,
    );
  return {
    durationSeconds,
    startSeconds: Number(format['start_time']) || 0,
    frameSeconds: 1 / (frameRate(String(video['avg_frame_rate'])) || 25),
    width: Number(video['width']),
    height: Number(video['height']),
    hasAudio: streams.some((s) => s['codec_type'] === 'audio'),
  };
}

/** A source written to its own scratch folder; every file the job makes lives there until `close`. */
class FfmpegSource implements OpenedSource {
  #step = 0;

  constructor(
    private readonly tools: Tools,
    private readonly info: SourceInfo,
    /** The job's time limit, the scratch folder and the job's log, for every command. */
    private readonly run: Required<RunOptions>,
  ) {}

  get durationSeconds(): number {
    return this.info.durationSeconds;
  }
  get width(): number {
    return this.info.width;
  }
  get height(): number {
    return this.info.height;
  }

  get #folder(): string {
    return this.run.cwd;
  }

  get #source(): string {
    return join(this.#folder, 'source');
  }

  /** Runs ffmpeg in the scratch folder, so that anything it writes by a relative name stays there. */
  #ffmpeg(args: string[]): Promise<string> {
    return runTool(this.tools.ffmpeg, args, this.run);
  }

  /** A new empty folder inside the scratch folder. */
  async #newFolder(name: string): Promise<string> {
    const path = join(this.#folder, `${name}-${++this.#step}`);
    await mkdir(path);
    return path;
  }

  async thumbnails(times: number[]): Promise<ProducedFile[]> {
    const out = await this.#newFolder('thumbnails');
    await this.#ffmpeg(thumbnailArgs(this.#source, this.info, times, join(out, '%03d.jpg')));
    return filesOf(out);
  }

  async convert(plan: ConvertPlan): Promise<Conversion> {
    const out = await this.#newFolder('convert');
    const thumbnails = await this.#newFolder('thumbnails');
    let watermark: string | undefined;
    if (plan.watermark) {
      watermark = join(out, 'watermark');
      await writeFile(watermark, new Uint8Array(await plan.watermark.image.arrayBuffer()));
    }
    // Outputs are named relative to the scratch folder, where ffmpeg runs (the tee muxer's list takes plain names).
    const name = relative(this.#folder, out);
    const mp4 = (i: number) => `${name}/${i}.mp4`;
    const heights = plan.outputs.map(({ height }) => height);
    const hls = plan.hls && (await this.#hlsOutput(out, plan.hls.key, heights));
    await this.#ffmpeg(encodeArgs(this.#source, watermark, this.info, plan, mp4, join(thumbnails, '%03d.jpg'), hls));
    const renditions: Rendition[] = await Promise.all(
      plan.outputs.map(
        async ({ height, width = Math.round((this.info.width * height) / this.info.height / 2) * 2 }, i) => ({
          width,
          height,
          file: { name: `${i}.mp4`, data: (await openAsBlob(join(this.#folder, mp4(i)))) as Blob },
          ...(hls && {
            hls: [
              ...(await filesOf(join(this.#folder, hls.folder(i)))),
              ...(plan.hls?.key ? [{ name: 'enc.key', data: new Blob([plan.hls.key]) }] : []),
            ],
          }),
        }),
      ),
    );
    return { renditions, thumbnails: await filesOf(thumbnails) };
  }

  /**
   * The HLS folders of a VOD conversion, one per quality named by its height, which the encoding fills beside the
   * MP4s; with a key, its info file for AES-128. The key is delivered beside each quality's playlist.
   */
  async #hlsOutput(out: string, key: Uint8Array | undefined, heights: number[]): Promise<HlsOutput> {
    const name = relative(this.#folder, out);
    await Promise.all(heights.map((height) => mkdir(join(out, 'hls', String(height)), { recursive: true })));
    const folder = (i: number) => `${name}/hls/${heights[i]}`;
    if (!key) return { folder };
    // The key file stays outside the HLS folders: ffmpeg reads it there, and the delivered copies are named here.
    await writeFile(join(out, 'enc.key'), key);
    await writeFile(join(out, 'key-info'), `enc.key\n${join(out, 'enc.key')}\n`);
    return { folder, keyInfo: `${name}/key-info` };
  }

  async close(): Promise<void> {
    await rm(this.#folder, { recursive: true, force: true });
  }
}

/** Runs ffmpeg; every job works in its own folder under the system's temporary folder. */
export function ffmpegRunner(tools: Tools): TranscodeRunner {
  return {
    async open(stream, signal, log: (run: ConverterRun) => void = () => {}) {
      const folder = await mkdtemp(join(tmpdir(), 'basekit-transcode-'));
      try {
        await pipeline(
          Readable.fromWeb(stream as NodeReadableStream<Uint8Array>),
          createWriteStream(join(folder, 'source')),
          { signal },
        );
        const run = { signal, cwd: folder, log };
        return new FfmpegSource(tools, await probe(tools, run), run);
      } catch (error) {
        await rm(folder, { recursive: true, force: true });
        throw error;
      }
    },
  };
}
