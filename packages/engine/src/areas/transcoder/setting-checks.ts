import { arrayOf, boolean, httpUrl, integer, invalid, object, oneOf, string, stringMap, type Check } from './fields.js';
import { ffmpegOptions } from './ffmpeg-options.js';
import type { SettingKind, SettingRecord } from './setting-kinds.js';
import type { WatermarkLocation } from '../../shared/transcoder-capability.js';
import { BITRATE, BITRATE_RANGE, MAX_FRAME, RESOLUTION, parseBitrate, parseResolution } from './units.js';

// What each kind of settings record may hold (`validateSetting`), field by field and across fields; where records are
// kept is `setting-books.ts`.

const LOCATIONS: readonly WatermarkLocation[] = [
  'TOP_LEFT',
  'TOP_CENTER',
  'TOP_RIGHT',
  'BOTTOM_LEFT',
  'BOTTOM_CENTER',
  'BOTTOM_RIGHT',
];
const SPEEDS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
] as const;
const PROFILES = {
  x264: ['baseline', 'main', 'high', 'high10', 'high422', 'high444'],
  x265: ['main', 'main10', 'main12', 'main422-10', 'main444-8', 'mainstillpicture'],
} as const;

const time = string({ pattern: /^\d{2}:[0-5]\d:[0-5]\d$/, hint: 'a time HH:MM:SS' });

const bitrate: Check<string> = (value, field) => {
  const text = string({ pattern: BITRATE, hint: 'a bitrate such as "800k", "1.5M" or "96000"' })(value, field);
  const bits = parseBitrate(text);
  if (bits < BITRATE_RANGE.min || bits > BITRATE_RANGE.max)
    throw invalid(field, 'must be from 1k to 100M bits per second');
  return text;
};

const resolution: Check<string> = (value, field) => {
  const text = string({ pattern: RESOLUTION, hint: 'a height such as "360" or "<width>x<height>" such as "640x360"' })(
    value,
    field,
  );
  const { width = 2, height } = parseResolution(text);
  // H.264 and H.265 in 4:2:0 need even dimensions.
  if (height < 16 || height > MAX_FRAME.height || width < 2 || width > MAX_FRAME.width || height % 2 || width % 2) {
    throw invalid(
      field,
      `must have even dimensions, a height from 16 to ${MAX_FRAME.height} and a width up to ${MAX_FRAME.width}`,
    );
  }
  return text;
};

const output = object({ videoBitrate: bitrate, audioBitrate: bitrate, resolution }, [
  'videoBitrate',
  'audioBitrate',
  'resolution',
]);

/** HTTP header names (RFC 9110 tokens) and values of visible characters, spaces and tabs: no line breaks. */
const headers = stringMap(
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/,
  string({ pattern: /^[\t\x20-\x7e\x80-\xff]*$/, hint: 'a header value on one line, of characters up to U+00FF' }),
);

/** Headers of a delivery that the transcoder sets itself, or that govern the connection and the message's framing. */
const RESERVED_HEADERS = [
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
];

/** Checked against the allow-list in the preset's cross-checks, where the encoder is known. */
const rawParameters = stringMap(/^-?[A-Za-z][\w:.-]*$/, string({ maxLength: 500 }));

const KIND_FIELDS: Record<SettingKind, { shape: Record<string, Check>; required: string[] }> = {
  thumbnail: {
    shape: {
      shots: arrayOf(time, { min: 1, max: 100 }),
      count: integer(1, 100),
      random: boolean,
      interval: integer(1, 86_400),
      startTime: integer(0, 86_400),
    },
    required: [],
  },
  webhook: { shape: { url: httpUrl }, required: ['url'] },
  upload: { shape: { url: httpUrl, headers }, required: ['url'] },
  watermark: {
    shape: { location: oneOf(LOCATIONS), paddingX: integer(0, 4320), paddingY: integer(0, 4320), url: httpUrl },
    required: ['location', 'url'],
  },
  preset: {
    shape: {
      vod: boolean,
      speed: oneOf(SPEEDS),
      videoEncoder: oneOf(['x264', 'x265'] as const),
      audioEncoder: oneOf(['aac'] as const),
      profile: string({ maxLength: 40 }),
      encrypt: boolean,
      vodPlaylistBaseUrl: httpUrl,
      rawParameters,
      outputs: arrayOf(output, { min: 1, max: 10 }),
    },
    required: ['outputs'],
  },
};

/** Rules between fields of one record, beyond each field's own shape. */
const CROSS_CHECKS: Partial<Record<SettingKind, (record: SettingRecord) => void>> = {
  upload(r) {
    for (const name of Object.keys((r['headers'] as Record<string, string> | undefined) ?? {})) {
      if (RESERVED_HEADERS.includes(name.toLowerCase()))
        throw invalid(`headers.${name}`, 'is set by the transcoder itself (or by the connection) and cannot be given');
    }
  },
  thumbnail(r) {
    // Precedence of the contract's `saveThumbnailSettings`: shots, then random, then interval; the first mode given must be complete.
    if (r['shots']) return;
    if (r['random'] === true || r['interval'] !== undefined) {
      if (r['count'] === undefined)
        throw invalid('count', `is required with "${r['random'] === true ? 'random' : 'interval'}"`);
    } else {
      throw invalid('shots', 'is required unless "random" is true or "interval" is given (each with "count")');
    }
    if (r['startTime'] !== undefined && (r['random'] === true || r['interval'] === undefined))
      throw invalid('startTime', 'is usable only with "interval"');
  },
  preset(r) {
    const encoder = (r['videoEncoder'] as 'x264' | 'x265' | undefined) ?? 'x264';
    const profile = r['profile'] as string | undefined;
    if (profile !== undefined && !(PROFILES[encoder] as readonly string[]).includes(profile)) {
      throw invalid('profile', `must be one of ${PROFILES[encoder].join(', ')} for ${encoder}`);
    }
    if (r['encrypt'] === true && r['vod'] !== true) throw invalid('encrypt', 'needs "vod": encryption applies to HLS');
    if (r['rawParameters'] !== undefined) ffmpegOptions(r['rawParameters'], encoder);
    if (r['vod'] === true) {
      // Each quality gets a folder named by its height, so heights must differ.
      const heights = (r['outputs'] as { resolution: string }[]).map((o) => parseResolution(o.resolution).height);
      const twice = heights.findIndex((h, i) => heights.indexOf(h) !== i);
      if (twice >= 0)
        throw invalid(
          `outputs[${twice}].resolution`,
          `repeats the height ${heights[twice]}: VOD qualities are named by height`,
        );
    }
  },
};

/** Validates a settings record of `kind` (its schema in openapi/areas/transcoder.yaml): the stored record, or 400 naming the field. */
export function validateSetting(kind: SettingKind, body: unknown): SettingRecord {
  const { shape, required } = KIND_FIELDS[kind];
  const fields = object({ name: string({ maxLength: 200 }), default: boolean, ...shape }, ['name', ...required])(
    body,
    '',
  );
  const record = { ...fields, name: fields['name'] as string, default: fields['default'] === true };
  CROSS_CHECKS[kind]?.(record);
  return record;
}
