import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A data folder whose saved tree (state/files.json) cannot be restored: start-up stops with one clear line naming the
// file and what to do, exits non-zero, and leaves the file exactly as it was.

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'basekit-state-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs `basekit-server --data-dir` on a folder whose files.json holds `content`; kills it if it starts after all. */
function start(dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@basekit/source', '--import', 'tsx', CLI, '--port', '0', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('listening on')) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const entry = {
  path: 'a.txt',
  kind: 'file',
  guid: 'g',
  ownerId: null,
  creationDate: 1,
  lastModificationDate: 1,
  size: 1,
  md5Hash: 'm',
  crcHash: 'c',
  contentType: 'text/plain',
  blobKey: 'k',
};

const BROKEN: [string, string][] = [
  ['truncated', JSON.stringify({ entries: [entry] }).slice(0, 40)],
  ['empty', ''],
  ['not an object', '[1, 2]'],
  ['entries not a list', '{"entries": 5}'],
  ['an entry without its fields', JSON.stringify({ entries: [{ path: 'a.txt', kind: 'file' }] })],
  ['an entry of an unknown kind', JSON.stringify({ entries: [{ ...entry, kind: 'link' }] })],
  ['a guid that is not a string', JSON.stringify({ entries: [{ ...entry, guid: 7 }] })],
  ['an unsafe path', JSON.stringify({ entries: [{ ...entry, path: '../a.txt' }] })],
];

describe('a state file that cannot be restored', () => {
  it.each(BROKEN)('%s: one line naming the file, exit 1, the file untouched', async (label, content) => {
    const dataDir = join(dir, label.replaceAll(' ', '-'));
    const file = join(dataDir, 'state', 'files.json');
    await mkdir(join(dataDir, 'state'), { recursive: true });
    await writeFile(file, content);
    const run = await start(dataDir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^basekit-server: cannot start: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
    );
    expect(run.stderr).toContain('move it away');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe(content);
  });
});
