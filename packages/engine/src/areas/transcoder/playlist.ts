/** One quality as the master playlist names it. */
interface PlaylistEntry {
  /** Bits per second: the preset's video plus audio bitrate. */
  bandwidth: number;
  width: number;
  height: number;
  /** Address of the quality's `playlist.m3u8`. */
  address: string;
}

/**
 * The master playlist of a VOD conversion (the contract's `transcoderUpload`). ffmpeg does not write `PROGRAM-ID`, so the server
 * writes this file itself.
 */
export function masterPlaylist(entries: PlaylistEntry[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const { bandwidth, width, height, address } of entries) {
    lines.push(`#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=${bandwidth}, RESOLUTION=${width}x${height}`, address);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Where the master playlist points for a delivery `path`: `vodPlaylistBaseUrl` followed by the path, or, without a
 * base, the path relative to the master playlist's own folder.
 */
export function playlistAddress(path: string, masterFolder: string, baseUrl?: string): string {
  if (baseUrl) return `${baseUrl.replace(/\/+$/, '')}/${path}`;
  return path.startsWith(`${masterFolder}/`) ? path.slice(masterFolder.length + 1) : path;
}
