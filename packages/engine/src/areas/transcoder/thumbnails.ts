import { unrecordedFraction } from '../../shared/ids.js';
import type { SettingRecord } from './setting-kinds.js';

/** `"01:02:03"` -> 3723 seconds. */
function seconds(hms: string): number {
  const [h = 0, m = 0, s = 0] = hms.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

/** 3723.5 -> `"01:02:03"` (whole seconds, as shots are written). */
export function hms(totalSeconds: number): string {
  const s = Math.floor(totalSeconds);
  return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * The moments (seconds, ascending, distinct) a thumbnail setting asks for in a video of `duration` seconds, with
 * the precedence of the contract's `saveThumbnailSettings`: `shots`, else `random` with `count`, else `interval` with `count` from `startTime`.
 * Random moments are spread out: one in each of `count` equal parts of the video.
 */
export function thumbnailMoments(setting: SettingRecord, duration: number): number[] {
  const shots = setting['shots'] as string[] | undefined;
  const count = (setting['count'] as number | undefined) ?? 1;
  let times: number[];
  if (shots) times = shots.map(seconds);
  else if (setting['random'] === true)
    times = Array.from({ length: count }, (_, i) => (duration * (i + unrecordedFraction())) / count);
  else {
    const interval = setting['interval'] as number;
    const start = (setting['startTime'] as number | undefined) ?? 0;
    times = Array.from({ length: count }, (_, i) => start + i * interval);
  }
  return [...new Set(times)].sort((a, b) => a - b);
}
