import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './prism/server.js';

/**
 * The SDK's end-to-end suite, a second time, through `prism proxy openapi/dist/basekit.yaml <server> --errors`:
 * Prism validates every request the SDK sends and every response the reference server gives against the contract.
 * It runs as a child vitest with ./prism/vitest.config.ts, which gives the SDK tests a server with Prism in front.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Report {
  throughPrism: number;
  checkedHere: number;
  violations: string[];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'basekit-prism-'));
  process.env['PRISM_VIOLATIONS_DIR'] = dir; // for the server started in this process too
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function reports(): Promise<Report[]> {
  return Promise.all(
    (await readdir(dir)).map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as Report),
  );
}

describe('the SDK end-to-end suite through Prism', () => {
  it('sees a violation when there is one (the check is not blind)', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/auth/users`, {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': server.config.authenticationId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'x'.repeat(41), password: 'pw' }), // maxLength 40 in the contract
    });
    expect(res.status).toBe(422);
    await server.close();
    const [report] = await reports();
    expect(report!.violations.join('\n')).toContain('UNPROCESSABLE_ENTITY');
    await rm(join(dir, (await readdir(dir))[0]!));
  });

  it('passes with zero contract violations in either direction', async () => {
    const child = await run(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'test/fidelity/prism/vitest.config.ts',
        '--reporter',
        'dot',
      ],
      {
        cwd: root,
        env: { ...process.env, PRISM_VIOLATIONS_DIR: dir },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout: string; stderr: string }) => ({ ...error, failed: true }));
    const all = await reports();
    const violations = all.flatMap((r) => r.violations);
    const throughPrism = all.reduce((n, r) => n + r.throughPrism, 0);
    const checkedHere = all.reduce((n, r) => n + r.checkedHere, 0);
    console.info(
      `prism: ${all.length} servers, ${throughPrism} requests validated by Prism, ${checkedHere} by the suite's own validator, ${violations.length} violations`,
    );
    expect(violations).toEqual([]);
    expect('failed' in child ? `${child.stdout}\n${child.stderr}` : 'passed').toBe('passed');
    expect(throughPrism).toBeGreaterThan(100);
  }, 180_000);
});
