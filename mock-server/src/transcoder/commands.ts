// The ffmpeg command lines of a job, built from its plan. Pure functions: no process, no files.
import type { ConvertPlan, WatermarkLocation } from '@basekit/engine';
import { MAX_FRAME, ffmpegOptions } from '@basekit/engine/server';

/** ffmpeg's own log at its usual level (streams, encoder summaries, warnings) for the admin job view; no progress lines. */
const COMMON = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'info', '-y'];

const VIDEO_CONTAINERS = 'mov,matroska,avi,flv,mpegts,mpeg,ogg,asf,mxf';
const IMAGE_FORMATS = 'png_pipe,jpeg_pipe,webp_pipe,bmp_pipe,gif';

/**
 * Options for an input a client supplied, placed before its `-i` (or on ffprobe's command line): only plain media
 * formats (a playlist or a concat list would make ffmpeg read other files or addresses), only the local file, and
 * no picture larger than the largest output (a small compressed file must not decode into gigabytes).
 */
const guarded = (formats: string) => [
  '-format_whitelist',
  formats,
  '-protocol_whitelist',
  'file',
  '-max_pixels',
  String(MAX_FRAME.pixels),
];
export const SOURCE_INPUT = guarded(VIDEO_CONTAINERS);
const IMAGE_INPUT = guarded(IMAGE_FORMATS);

/** What the transcoder knows of a source after probing it. */
export interface SourceInfo {
  durationSeconds: number;
  /** Timestamp of the first frame, seconds. */
  startSeconds: number;
  /** Seconds between frames (1/25 when the stream does not say). */
  frameSeconds: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

/**
 * Frame numbers for moments (ascending): the first frame at or after each moment, each a later frame than the one
 * before (two moments within one frame's time still give two images), none past the last frame.
 */
function framesAt(info: SourceInfo, times: number[]): number[] {
  const last = Math.max(0, Math.floor(info.durationSeconds / info.frameSeconds) - 1);
  let previous = -1;
  return times.map(
    (time) => (previous = Math.min(last, Math.max(previous + 1, Math.ceil(time / info.frameSeconds - 1e-6)))),
  );
}

/**
 * The filter that selects one frame per moment in one decode, and the number of frames it selects. Frame k is the
 * first frame at or after T = (k - 1/2) frame times (half a frame of slack for rounded timestamps):
 * `gte(t,T)*(isnan(prev_pts)+lt(prev_pts*TB,T))`, summed.
 */
function thumbnailSelect(info: SourceInfo, times: number[]): { filter: string; count: number } {
  const frames = [...new Set(framesAt(info, times))];
  const terms = frames.map((k) => {
    const t = (Math.max(0, k - 0.5) * info.frameSeconds + info.startSeconds).toFixed(4);
    return `gte(t\\,${t})*(isnan(prev_pts)+lt(prev_pts*TB\\,${t}))`;
  });
  return { filter: `select='${terms.join('+')}'`, count: frames.length };
}

/** The output options of the thumbnails (JPEG files named by `pattern`), `count` frames of the stream `map`. */
const thumbnailOutput = (map: string, count: number, pattern: string) => [
  '-map',
  map,
  '-fps_mode',
  'passthrough',
  '-frames:v',
  String(count),
  '-q:v',
  '3',
  pattern,
];

/** Thumbnails alone: one frame per moment, in one decode. */
export function thumbnailArgs(source: string, info: SourceInfo, times: number[], pattern: string): string[] {
  const { filter, count } = thumbnailSelect(info, times);
  return [...COMMON, ...SOURCE_INPUT, '-i', source, '-vf', filter, ...thumbnailOutput('0:v:0', count, pattern)];
}

const OVERLAY: Record<WatermarkLocation, (px: number, py: number) => string> = {
  TOP_LEFT: (px, py) => `x=${px}:y=${py}`,
  TOP_CENTER: (_, py) => `x=(W-w)/2:y=${py}`,
  TOP_RIGHT: (px, py) => `x=W-w-${px}:y=${py}`,
  BOTTOM_LEFT: (px, py) => `x=${px}:y=H-h-${py}`,
  BOTTOM_CENTER: (_, py) => `x=(W-w)/2:y=H-h-${py}`,
  BOTTOM_RIGHT: (px, py) => `x=W-w-${px}:y=H-h-${py}`,
};

/** The pixel format a profile needs (4:2:0 8-bit unless the profile says otherwise). */
function pixelFormat(profile = ''): string {
  const depth = /10/.test(profile) ? '10le' : /12/.test(profile) ? '12le' : '';
  const chroma = /422/.test(profile) ? '422' : /444/.test(profile) ? '444' : '420';
  return `yuv${chroma}p${depth}`;
}

/**
 * Thumbnails (a branch that selects their frames, as `[thumbs]`) taken from the source as it is; the watermark put
 * once on the source (so it looks the same on every quality), then one scaled branch per output (`[v<i>]`).
 */
function filterGraph(plan: ConvertPlan, thumbnails: string | undefined): string {
  const n = plan.outputs.length;
  const w = plan.watermark;
  const source = thumbnails ? '[main]' : '[0:v]';
  const head = w ? `${source}[1:v]overlay=${OVERLAY[w.location](w.paddingX, w.paddingY)}[marked];[marked]` : source;
  const branches = plan.outputs.map(({ width, height }, i) => `[s${i}]scale=${width ?? -2}:${height},setsar=1[v${i}]`);
  const graph = `${head}split=${n}${plan.outputs.map((_, i) => `[s${i}]`).join('')};${branches.join(';')}`;
  return thumbnails ? `[0:v]split=2[frames][main];[frames]${thumbnails}[thumbs];${graph}` : graph;
}

/** Where a VOD conversion writes each quality's HLS beside its MP4, in the same command. */
export interface HlsOutput {
  /** The quality's folder (its `playlist.m3u8` and `seg_NNN.ts`), relative to the folder ffmpeg runs in. */
  folder: (i: number) => string;
  /** The key info file of AES-128 segments (key URI, key file), relative to the folder ffmpeg runs in. */
  keyInfo?: string;
}

/**
 * A path inside the tee muxer's output list, where `:`, `|`, `[`, `]`, `\\` and quotes are syntax (escaped twice
 * over). The runner hands relative names of its own (`convert-1/hls/360/playlist.m3u8`); anything else is refused
 * rather than escaped.
 */
function teePath(path: string): string {
  if (!/^[\w./%-]+$/.test(path)) throw new Error(`not a plain relative path for the tee muxer: ${path}`);
  return path;
}

/**
 * One quality's output: its MP4 (`+faststart`); with `hls`, also the quality's HLS playlist and segments, written
 * from the same encoded packets by the tee muxer (no second pass that reads the MP4 back and cuts it). The HLS
 * side takes ffmpeg's usual 0.7 s mux delay: a tee's outputs otherwise get none, and the MPEG-TS muxer then puts
 * each AAC frame in a PES packet of its own (segments about 6 % larger than a stream copy's).
 */
function outputTarget(mp4: string, i: number, hls: HlsOutput | undefined, segmentSeconds: number): string[] {
  if (!hls) return ['-movflags', '+faststart', mp4];
  const folder = teePath(hls.folder(i));
  const hlsOptions = [
    'f=hls',
    'max_delay=700000',
    `hls_time=${segmentSeconds}`,
    'hls_playlist_type=vod',
    ...(hls.keyInfo ? [`hls_key_info_file=${teePath(hls.keyInfo)}`] : []),
    `hls_segment_filename=${folder}/seg_%03d.ts`,
  ].join(':');
  return [
    // The MP4 needs the codecs' headers apart (the tee muxer cannot tell the encoders so); MPEG-TS gets them
    // back in band from ffmpeg's automatic bitstream filters.
    ...['-flags:v', '+global_header', '-flags:a', '+global_header', '-f', 'tee'],
    `[${hlsOptions}]${folder}/playlist.m3u8|[f=mp4:movflags=+faststart]${teePath(mp4)}`,
  ];
}

/**
 * Every output of the plan as an MP4 (with `hls`, each also as HLS), and its thumbnails as JPEG files named by
 * `thumbnailPattern`, from ONE decode of the source (a split filter graph) in ONE command. Keyframes fall every
 * segment length, at the same moments in every quality, so the HLS segments of the qualities are aligned.
 */
export function encodeArgs(
  source: string,
  watermark: string | undefined,
  info: SourceInfo,
  plan: ConvertPlan,
  outputPath: (i: number) => string,
  thumbnailPattern: string,
  hls?: HlsOutput,
): string[] {
  const thumbnails = plan.thumbnails?.length ? thumbnailSelect(info, plan.thumbnails) : undefined;
  const x265 = plan.videoEncoder === 'x265';
  const keyframes = plan.hls?.segmentSeconds ?? 2;
  // Checked again here, so that no plan, however it was made, hands ffmpeg an option off the allow-list.
  const options = ffmpegOptions(plan.rawParameters, plan.videoEncoder);
  // The preset's encoder parameters join the server's own, which keep segments aligned and x265's own log quiet (its info level writes a line per setting).
  const x265Params = [
    'log-level=error:scenecut=0',
    ...options.filter(([name]) => name === 'x265-params').map(([, value]) => value),
  ].join(':');
  const extra = options.filter(([name]) => name !== 'x265-params').flatMap(([name, value]) => [`-${name}`, value]);
  const perOutput = plan.outputs.flatMap((o, i) => [
    '-map',
    `[v${i}]`,
    ...(info.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', String(o.audioBitrate)] : []),
    '-c:v',
    x265 ? 'libx265' : 'libx264',
    '-preset',
    plan.speed,
    ...(plan.profile ? ['-profile:v', plan.profile] : []),
    '-pix_fmt',
    pixelFormat(plan.profile),
    '-b:v',
    String(o.videoBitrate),
    '-maxrate',
    String(o.videoBitrate),
    '-bufsize',
    String(2 * o.videoBitrate),
    '-force_key_frames',
    `expr:gte(t,n_forced*${keyframes})`,
    ...(x265 ? ['-x265-params', x265Params, '-tag:v', 'hvc1'] : ['-sc_threshold', '0']),
    ...extra,
    ...outputTarget(outputPath(i), i, plan.hls && hls, keyframes),
  ]);
  // Read no further than the probed duration: a container may declare less than the frames it holds, and the
  // disk estimate of the job rests on the declared duration.
  const declared = ['-t', info.durationSeconds.toFixed(3)];
  return [
    ...COMMON,
    ...SOURCE_INPUT,
    ...declared,
    '-i',
    source,
    ...(watermark ? [...IMAGE_INPUT, '-i', watermark] : []),
    '-filter_complex',
    filterGraph(plan, thumbnails?.filter),
    ...perOutput,
    ...(thumbnails ? thumbnailOutput('[thumbs]', thumbnails.count, thumbnailPattern) : []),
  ];
}
