// The transcoder of platforms without ffmpeg (the browser, inside msw): it decodes nothing, but sends the same
// sequence of deliveries and notifications as the real one, with tiny generated files, so front-end code sees the
// real protocol.
import {
  UnreadableSource,
  type Conversion,
  type ConvertPlan,
  type OpenedSource,
  type ProducedFile,
  type TranscodeRunner,
} from '../../shared/transcoder-capability.js';

/** Every simulated source is taken to be a 10-second 1280x720 video. */
const DURATION = 10;
const WIDTH = 1280;
const HEIGHT = 720;

/** A valid 16x16 grey JPEG. */
const JPEG = Uint8Array.from(
  atob(
    '/9j/4AAQSkZJRgABAgAAAQABAAD/2wBDAAg+Pkk+SVVVVVVVVWRdZGhoaGRkZGRoaGhwcHCDg4NwcHBoaHBwfHyDg4+Tj4eHg4eTk5ubm7q6srLZ2eD/////xABKAAEAAAAAAAAAAAAAAAAAAAAAAQEAAAAAAAAAAAAAAAAAAAAAEAEAAAAAAAAAAAAAAAAAAAAAEQEAAAAAAAAAAAAAAAAAAAAA/8AAEQgAEAAQAwEiAAIRAAMRAP/aAAwDAQACEQMRAD8AAA//2Q==',
  ),
  (c) => c.charCodeAt(0),
);

const file = (name: string, data: BlobPart): ProducedFile => ({ name, data: new Blob([data]) });

function hlsFiles(height: number, { segmentSeconds, key }: NonNullable<ConvertPlan['hls']>): ProducedFile[] {
  const count = Math.ceil(DURATION / segmentSeconds);
  const segments = Array.from({ length: count }, (_, i) => `seg_${String(i).padStart(3, '0')}.ts`);
  const playlist = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${segmentSeconds}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    ...(key ? ['#EXT-X-KEY:METHOD=AES-128,URI="enc.key"'] : []),
    ...segments.flatMap((name, i) => [
      `#EXTINF:${Math.min(segmentSeconds, DURATION - i * segmentSeconds).toFixed(6)},`,
      name,
    ]),
    '#EXT-X-ENDLIST',
  ];
  return [
    ...segments.map((name) => file(name, `simulated ${height}p segment ${name}`)),
    ...(key ? [file('enc.key', key)] : []),
    file('playlist.m3u8', `${playlist.join('\n')}\n`),
  ];
}

class SimulatedSource implements OpenedSource {
  readonly durationSeconds = DURATION;
  readonly width = WIDTH;
  readonly height = HEIGHT;

  async thumbnails(times: number[]): Promise<ProducedFile[]> {
    return times.map((_, i) => file(`${String(i + 1).padStart(3, '0')}.jpg`, JPEG));
  }

  async convert(plan: ConvertPlan): Promise<Conversion> {
    const renditions = plan.outputs.map(({ height, width = Math.round((WIDTH * height) / HEIGHT / 2) * 2 }) => ({
      width,
      height,
      file: file('video.mp4', `simulated ${width}x${height} MP4`),
      hls: plan.hls && hlsFiles(height, plan.hls),
    }));
    return { renditions, thumbnails: await this.thumbnails(plan.thumbnails ?? []) };
  }

  async close(): Promise<void> {}
}

/** Reads the source to its end (an empty one is unreadable) and simulates the rest. */
export const simulatedRunner: TranscodeRunner = {
  async open(source) {
    const reader = source.getReader();
    let size = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) size += read.value.byteLength;
    if (size === 0) throw new UnreadableSource('the source is empty');
    return new SimulatedSource();
  },
};
