// What an app developer installs: the packed tarball, installed into a fresh project outside the workspace,
// imported by its public entry points and run against the reference server.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support.js';

const sdk = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const APP = `
import { createClient, UnauthorizedError } from '@basekit/sdk';
import { createCore } from '@basekit/sdk/core';
import { createLeaderboards } from '@basekit/sdk/leaderboards';
const [baseUrl, authenticationId, clientKey, gameId] = process.argv.slice(2);
const client = createClient({ baseUrl, authenticationId, clientKey, gameId });
await client.auth.register({ username: 'packed', password: 'pw-packed' });
let wrong;
try { await client.auth.login('packed', 'nope'); } catch (error) { wrong = error instanceof UnauthorizedError; }
await client.auth.login('packed', 'pw-packed');
const boards = createLeaderboards(client.core);
await boards.sendEvent('match_end', { score: 42 });
const alone = createCore({ baseUrl, authenticationId, clientKey });
console.log(JSON.stringify({ me: (await client.auth.me()).username, wrong, rank: await boards.rank('high-score'), separate: typeof alone.http }));
`;

it('packs, installs offline into a fresh project and runs there', { timeout: 180_000 }, async () => {
  run('npm', ['run', 'build'], sdk);
  const dir = await mkdtemp(join(tmpdir(), 'basekit-sdk-app-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], sdk)) as { filename: string }[];
  const filename = packed!.filename;
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', join(dir, filename), '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
  await writeFile(join(dir, 'app.mjs'), APP);
  const { authenticationId, clientKey, gameId } = server.config;
  // Asynchronously: the server answering the app runs in this process.
  const { stdout } = await promisify(execFile)('node', ['app.mjs', server.url, authenticationId, clientKey, gameId], { cwd: dir, timeout: 60_000 });
  const output = JSON.parse(stdout);
  expect(output).toEqual({ me: 'packed', wrong: true, rank: { rank: 1, scores: [42, 0, 0] }, separate: 'function' });
});
