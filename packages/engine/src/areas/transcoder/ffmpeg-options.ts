// The ffmpeg options a preset may add (`rawParameters`): an allow-list of encoder options, each with the values it
// takes. Nothing else reaches ffmpeg, so no value can name a file, a protocol, a filter or a second output.
import { ErrorCode, badRequest } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/http/body.js';
import { BITRATE, BITRATE_RANGE, parseBitrate } from './units.js';

type Encoder = 'x264' | 'x265';

/** Says whether a value is acceptable; `hint` describes the values that are. */
interface ValueRule {
  test(value: string): boolean;
  hint: string;
}

const DECIMAL = /^\d{1,9}(?:\.\d{1,6})?$/;

function number(min: number, max: number, { integer = false } = {}): ValueRule {
  const pattern = integer ? /^\d{1,9}$/ : DECIMAL;
  return {
    test: (v) => pattern.test(v) && Number(v) >= min && Number(v) <= max,
    hint: `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
  };
}

const integer = (min: number, max: number) => number(min, max, { integer: true });

function oneOf(values: readonly string[]): ValueRule {
  return { test: (v) => values.includes(v), hint: `one of ${values.join(', ')}` };
}

function matching(pattern: RegExp, hint: string): ValueRule {
  return { test: (v) => pattern.test(v), hint };
}

/** Bits per second as ffmpeg writes them (`800k`, `1.5M`, `96000`), within the range of a preset's outputs. */
const bitrate: ValueRule = {
  test: (v) => BITRATE.test(v) && parseBitrate(v) >= BITRATE_RANGE.min && parseBitrate(v) <= BITRATE_RANGE.max,
  hint: 'a bitrate from 1k to 100M such as "800k" or "1.5M"',
};

/** Frames per second, `25`, `29.97` or `30000/1001`, from 1 to 120. */
const frameRate: ValueRule = {
  test(v) {
    const [num, den = '1', extra] = v.split('/');
    const rate = Number(num) / Number(den);
    return extra === undefined && DECIMAL.test(num ?? '') && /^\d{1,6}$/.test(den) && rate >= 1 && rate <= 120;
  },
  hint: 'a frame rate from 1 to 120 such as "25", "29.97" or "30000/1001"',
};

/** Container tags a video may carry: descriptive text only (`encoder` and the like are the muxer's). */
const METADATA_KEYS = [
  'title',
  'comment',
  'description',
  'copyright',
  'artist',
  'author',
  'album',
  'genre',
  'date',
  'year',
  'language',
];
const metadata = matching(
  new RegExp(`^(?:${METADATA_KEYS.join('|')})=[^\\r\\n]{0,500}$`),
  `"<tag>=<text>" with a tag among ${METADATA_KEYS.join(', ')}`,
);

/** Encoder tuning keys of `-x264-params` / `-x265-params`, each with numeric values only. */
const ENCODER_PARAMS: Record<Encoder, Record<string, ValueRule>> = {
  x264: {
    'aq-mode': integer(0, 3),
    'aq-strength': number(0, 3),
    bframes: integer(0, 16),
    'b-adapt': integer(0, 2),
    keyint: integer(1, 600),
    'min-keyint': integer(1, 600),
    merange: integer(4, 64),
    qcomp: number(0, 1),
    'rc-lookahead': integer(0, 250),
    ref: integer(1, 16),
    subme: integer(0, 11),
    trellis: integer(0, 2),
  },
  x265: {
    'aq-mode': integer(0, 4),
    'aq-strength': number(0, 3),
    bframes: integer(0, 16),
    'b-adapt': integer(0, 2),
    keyint: integer(1, 600),
    'min-keyint': integer(1, 600),
    'rc-lookahead': integer(0, 250),
    ref: integer(1, 16),
    subme: integer(0, 7),
    ctu: oneOf(['16', '32', '64']),
    'psy-rd': number(0, 5),
  },
};

function encoderParams(encoder: Encoder): ValueRule {
  const keys = ENCODER_PARAMS[encoder];
  return {
    test: (v) =>
      v.split(':').every((pair) => {
        const [key = '', value, extra] = pair.split('=');
        return extra === undefined && value !== undefined && Object.hasOwn(keys, key) && keys[key]!.test(value);
      }),
    hint: `"key=value:..." with numeric values and keys among ${Object.keys(keys).join(', ')}`,
  };
}

const TUNES: Record<Encoder, readonly string[]> = {
  x264: ['film', 'animation', 'grain', 'stillimage', 'fastdecode', 'zerolatency', 'psnr', 'ssim'],
  x265: ['psnr', 'ssim', 'grain', 'zerolatency', 'fastdecode', 'animation'],
};

const PIXEL_FORMATS = [
  'yuv420p',
  'yuv422p',
  'yuv444p',
  'yuv420p10le',
  'yuv422p10le',
  'yuv444p10le',
  'yuv420p12le',
  'yuv422p12le',
  'yuv444p12le',
];

/** Every option a preset may set (names without the leading `-`), with its values, per video encoder. */
function allowList(encoder: Encoder): Record<string, ValueRule> {
  return {
    crf: number(0, 51),
    qp: integer(0, 69),
    'b:v': bitrate,
    'b:a': bitrate,
    maxrate: bitrate,
    minrate: bitrate,
    bufsize: bitrate,
    g: integer(1, 600),
    keyint_min: integer(1, 600),
    bf: integer(0, 16),
    refs: integer(1, 16),
    r: frameRate,
    pix_fmt: oneOf(PIXEL_FORMATS),
    tune: oneOf(TUNES[encoder]),
    level: matching(/^(?:[1-6](?:\.[0-3])?|[1-6][0-3])$/, 'a level such as "3.1", "4" or "41"'),
    ac: integer(1, 8),
    ar: oneOf(['8000', '11025', '16000', '22050', '32000', '44100', '48000', '88200', '96000']),
    metadata,
    [`${encoder}-params`]: encoderParams(encoder),
  };
}

/** The options every preset may use, for the message that lists them. */
const ALLOWED_NAMES = [...new Set([...Object.keys(allowList('x264')), ...Object.keys(allowList('x265'))])].join(', ');

const refuse = (key: string, message: string) =>
  badRequest(ErrorCode.OPTION_NOT_ALLOWED, `"rawParameters.${key}" ${message}`);

/**
 * Checks a preset's `rawParameters` against the allow-list and answers them as ffmpeg options, `[name, value]`
 * with the name without its `-`, in the order given. Throws 400 (code 702) naming the first refused option.
 *
 * @example
 * ffmpegOptions({ '-tune': 'film', crf: '23' }, 'x264'); // [['tune', 'film'], ['crf', '23']]
 * ffmpegOptions({ '-an': '/tmp/out.mp4' }, 'x264');      // throws: "rawParameters.-an" is not an allowed ffmpeg option ...
 */
export function ffmpegOptions(raw: unknown, encoder: Encoder): [string, string][] {
  if (!isPlainObject(raw))
    throw badRequest(
      ErrorCode.OPTION_NOT_ALLOWED,
      '"rawParameters" must be an object of option names to string values',
    );
  const rules = allowList(encoder);
  return Object.entries(raw).map(([key, value]) => {
    const name = key.startsWith('-') ? key.slice(1) : key;
    if (!Object.hasOwn(rules, name)) {
      const other = encoder === 'x264' ? 'x265' : 'x264';
      if (name === `${other}-params`)
        throw refuse(key, `applies to ${other} only; this preset encodes with ${encoder}`);
      throw refuse(key, `is not an allowed ffmpeg option (allowed: ${ALLOWED_NAMES})`);
    }
    const rule = rules[name]!;
    if (typeof value !== 'string' || !rule.test(value)) throw refuse(key, `must be ${rule.hint}`);
    return [name, value];
  });
}
