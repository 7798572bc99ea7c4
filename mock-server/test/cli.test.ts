import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../src/server.js';
import { runCli } from './support/cli.js';

/** The ids and keys of project `n` of a config file: `a<n>` its authentication id, `m<n>` its master key, … */
const project = (n: number) => ({
  authenticationId: `a${n}`,
  clientKey: `c${n}`,
  masterKey: `m${n}`,
  objectStorageId: `d${n}`,
  storageId: `s${n}`,
  gameId: `g${n}`,
});

/** A master login at `url` with the project's authentication id and master key. */
const masterLogin = (url: string, authenticationId: string, masterKey: string) =>
  fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': masterKey },
  });

function configFile(config: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'basekit-cli-')), 'config.json');
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
}

describe('basekit-server', () => {
  it('starts on a free port with the built-in config, prints "listening on" first, then the banner, and stops on SIGTERM', async () => {
    const run = await runCli(['--port', '0'], async (url) => {
      const res = await masterLogin(url, 'dev-auth-id', 'dev-master-key');
      expect(((await res.json()) as { scope: string }).scope).toBe('master');
    });
    const [first, ...banner] = run.stdout.trim().split('\n');
    expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.stdout).not.toContain('WARNING'); // the built-in keys, on this machine only
    for (const key of [
      'dev-auth-id',
      'dev-client-key',
      'dev-master-key',
      'dev-db',
      'dev-storage',
      'dev-game',
      'high-score',
    ]) {
      expect(banner.join('\n')).toContain(key);
    }
    expect(run.code).toBe(0);
  });

  it('serves the project of a config file on the given host', async () => {
    const file = configFile(project(1));
    const run = await runCli(['--config', file, '--port', '0', '--host', '127.0.0.1'], async (url) => {
      expect((await masterLogin(url, 'a1', 'm1')).status).toBe(200);
    });
    expect(run.stdout).toContain('bucket "s1"');
  });

  it('warns plainly in its banner when it listens beyond this machine with a built-in key, and only then', async () => {
    const exposed = await runCli(['--port', '0', '--host', '0.0.0.0']);
    expect(exposed.stdout).toMatch(
      /^ {2}WARNING: this server listens on every address of this machine, so other machines can reach it, and uses the built-in master key and client key, which everybody knows: anyone who reaches it can act as master/m,
    );
    const own = project(1);
    const clientOnly = await runCli([
      '--config',
      configFile({ ...own, clientKey: 'dev-client-key' }),
      '--port',
      '0',
      '--host',
      '0.0.0.0',
    ]);
    expect(clientOnly.stdout).toContain(
      'WARNING: this server listens on every address of this machine, so other machines can reach it, and uses the built-in client key',
    );
    expect(clientOnly.stdout).toContain('can log in as its users');
    const ownKeys = await runCli(['--config', configFile(own), '--port', '0', '--host', '0.0.0.0']);
    expect(ownKeys.stdout).not.toContain('WARNING');
  });

  it('refuses a bad config file with a message naming the key and the problem', async () => {
    const file = configFile({ ...project(1), accessTokenTtlSeconds: 'soon' });
    const run = await runCli(['--config', file, '--port', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/accessTokenTtlSeconds: must be integer/);
    const missing = await runCli(['--config', configFile({ clientKey: 'c' }), '--port', '0']);
    expect(missing.stderr).toContain('missing required key "authenticationId"');
    const notJson = await runCli(['--config', configFile('{nope'), '--port', '0']);
    expect(notJson.stderr).toContain('is not valid JSON');
  });

  it('serves the projects a config file declares beside its own, and refuses two with one id in one line', async () => {
    const own = project(1);
    const second = project(2);
    const run = await runCli(['--config', configFile({ ...own, projects: [second] }), '--port', '0'], async (url) => {
      expect((await masterLogin(url, 'a2', 'm2')).status).toBe(200);
    });
    expect(run.stdout).toContain('1 more project beside this one');
    const refused = await runCli([
      '--config',
      configFile({ ...own, projects: [{ ...second, gameId: 'g1' }] }),
      '--port',
      '0',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('gameId "g1" is taken by project "a1"'),
    ]);
  });

  it('refuses unknown options and bad ports with the usage', async () => {
    for (const args of [['--nope'], ['--port', 'x'], ['--port', '70000']]) {
      const run = await runCli(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('usage: basekit-server');
    }
  });

  it('starts from an --import export, and refuses one that is not in one line, without a stack trace', async () => {
    const fixture = configFile({
      clockOffsetMs: 5000,
      outbox: [],
      areas: {
        database: {
          Note: {
            columns: { text: 'String' },
            rows: [
              { _id: 'n1', createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z', text: 'hi' },
            ],
            relations: {},
          },
        },
      },
    });
    let exported: { areas: { database: unknown } } | undefined;
    const run = await runCli(['--port', '0', '--import', fixture], async (url) => {
      exported = (await (
        await fetch(`${url}/__admin/state`, { headers: { 'X-Service-Authentication-Key': 'dev-master-key' } })
      ).json()) as typeof exported;
    });
    expect(run.code).toBe(0);
    expect(exported!.areas.database).toMatchObject({ Note: { rows: [{ _id: 'n1', text: 'hi' }] } });
    for (const [content, message] of [
      ['[1, 2]', 'is not a GET /__admin/state export'],
      ['{"areas": {"database": {"Note": 5}}}', 'the state to start from (initialState, --import) cannot be restored'],
      ['{nope', 'is not valid JSON'],
    ] as const) {
      const refused = await runCli(['--port', '0', '--import', configFile(content)]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(message);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('says in one line that a busy port is busy, without a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runCli(['--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        `basekit-server: port ${port} is in use on 127.0.0.1: stop what uses it, or choose another with --port (0 picks a free one) or PORT`,
      );
    } finally {
      taken.close();
    }
  });
});

describe('startServer', () => {
  it('takes the given config keys over the built-in development config', async () => {
    const server = await startServer({ port: 0, config: { emailConfirmation: true, clientKey: 'my-client-key' } });
    try {
      expect(server.engine.project.config).toMatchObject({
        authenticationId: 'dev-auth-id',
        clientKey: 'my-client-key',
        emailConfirmation: true,
        leaderboards: [{ id: 'high-score' }],
      });
    } finally {
      await server.close();
    }
  });

  it('drops the built-in game when given a game of its own', async () => {
    const server = await startServer({ port: 0, config: { events: [{ name: 'lap', fields: ['time'] }] } });
    try {
      expect(server.engine.project.config).toMatchObject({ events: [{ name: 'lap' }], leaderboards: [] });
    } finally {
      await server.close();
    }
  });
});
