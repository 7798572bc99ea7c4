import { describe, expect, it } from 'vitest';
import { downloadPath, storageSuite } from './support.js';

const suite = storageSuite();

// From the maintained table (the `mime` package): the types a hand-made table used to miss, the transcoder's HLS
// output, and text served as UTF-8.
const EXPECTED: Record<string, string> = {
  'report.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'sheet.XLSX': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'film.mkv': 'video/x-matroska',
  'song.ogg': 'audio/ogg',
  'song.flac': 'audio/x-flac',
  'voice.m4a': 'audio/mp4',
  'README.md': 'text/markdown; charset=utf-8',
  'archive.7z': 'application/x-7z-compressed',
  'archive.rar': 'application/vnd.rar',
  'master.m3u8': 'application/vnd.apple.mpegurl',
  'segment.m4s': 'video/iso.segment',
  'notes.txt': 'text/plain; charset=utf-8',
};

describe('Content-Type of stored files', () => {
  it('comes from the extension, whatever the uploader declared', async () => {
    const names = Object.keys(EXPECTED);
    await suite.master.put(names.map((name) => ({ name, content: 'x', type: 'application/x-declared' })));
    for (const name of names) {
      const res = await suite.server.request(downloadPath(suite.server, name));
      expect([name, res.headers.get('content-type')]).toEqual([name, EXPECTED[name]]);
    }
  });

  it('falls back to the declared type, then to application/octet-stream, and follows a rename', async () => {
    await suite.master.put([
      { name: 'blob', content: 'x', type: 'image/webp' },
      { name: 'noext', content: 'x' },
      { name: 'unknown.zzzq', content: 'x' },
    ]);
    const typeOf = async (name: string) =>
      (await suite.server.request(downloadPath(suite.server, name))).headers.get('content-type');
    expect(await typeOf('blob')).toBe('image/webp');
    expect(await typeOf('noext')).toBe('application/octet-stream');
    expect(await typeOf('unknown.zzzq')).toBe('application/octet-stream');
    expect(
      (await suite.master.post('/files/rename', { items: [{ pathToRename: 'noext', newFileName: 'noext.flac' }] }))
        .status,
    ).toBe(200);
    expect(await typeOf('noext.flac')).toBe('audio/x-flac');
  });
});
