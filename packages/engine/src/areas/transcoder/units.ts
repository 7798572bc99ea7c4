// Bitrates and resolutions as presets write them, and their numbers.

/** `800k`, `1.5M`, `96000`: bits per second with an optional k or M. */
export const BITRATE = /^(\d{1,9}(?:\.\d{1,6})?)([kKmM]?)$/;
/** `360` (a height) or `640x360`. */
export const RESOLUTION = /^(?:(\d+)x)?(\d+)$/;

/** `"800k"` -> 800000 bits per second; 0 when the text is not a bitrate. */
export function parseBitrate(text: string): number {
  const [, value = '0', unit = ''] = BITRATE.exec(text) ?? [];
  return Math.round(Number(value) * ({ k: 1e3, m: 1e6 }[unit.toLowerCase()] ?? 1));
}

/** `"360"` -> { height: 360 }; `"640x360"` -> { width: 640, height: 360 }. */
export function parseResolution(text: string): { width?: number; height: number } {
  const [, width, height = '0'] = RESOLUTION.exec(text) ?? [];
  return width === undefined ? { height: Number(height) } : { width: Number(width), height: Number(height) };
}

/** Bitrates a preset may ask for, in bits per second. */
export const BITRATE_RANGE = { min: 1e3, max: 100e6 };

/**
 * The largest frame the transcoder makes (8K UHD); also the most pixels it decodes in one picture of a source or watermark.
 *
 * @example
 * if (width * height > MAX_FRAME.pixels) throw new UnreadableSource('the frame is larger than 8K');
 */
export const MAX_FRAME = { width: 7680, height: 4320, pixels: 7680 * 4320 };
