// The repository's Dockerfile built and run by a container engine, where the machine has one (`docker info`
// succeeds); skipped otherwise. Without an engine, test/packaging/install.test.ts runs the image's command and health
// check from the packed install instead.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestProject } from '@basekit/mock-server/testing';
import { WORKSPACE } from '../packaging/consumer.js';

const engineRuns = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
const docker = async (...args: string[]) =>
  (await promisify(execFile)('docker', args, { maxBuffer: 64 * 1024 * 1024, timeout: 900_000 })).stdout.trim();

describe.skipIf(!engineRuns)('the container image', () => {
  const tag = `basekit-server-test:${process.pid}`;
  let container: string | undefined;

  beforeAll(() => docker('build', '--tag', tag, WORKSPACE), 900_000);

  afterAll(async () => {
    if (container) await docker('rm', '--force', '--volumes', container);
    await docker('rmi', '--force', tag).catch(() => undefined);
  });

  it('becomes healthy, runs without root, has ffmpeg, hosts a project per test and stops cleanly', async () => {
    container = await docker('run', '--detach', '--publish', '127.0.0.1::3000', tag);
    const health = () => docker('inspect', '--format', '{{.State.Health.Status}}', container!);
    for (let waited = 0; (await health()) !== 'healthy'; waited += 500) {
      if (waited > 60_000) throw new Error(`not healthy after a minute: ${await docker('logs', container)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(await docker('exec', container, 'id', '-u')).not.toBe('0');
    expect(await docker('exec', container, 'ffmpeg', '-version')).toMatch(/^ffmpeg version/);
    const mounts = JSON.parse(await docker('inspect', '--format', '{{json .Mounts}}', container)) as {
      Destination: string;
    }[];
    expect(mounts.map((mount) => mount.Destination)).toContain('/data');

    const url = `http://${await docker('port', container, '3000/tcp')}`;
    const project = await createTestProject({ url, adminKey: 'dev-master-key' });
    const { baseUrl, authenticationId, clientKey } = project.clientOptions;
    const registered = await fetch(`${baseUrl}/auth/users`, {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': authenticationId,
        'X-Service-Authentication-Key': clientKey,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ username: 'ann', password: 'pw-ann' }),
    });
    expect(registered.status).toBe(200);

    await docker('stop', container);
    expect(await docker('inspect', '--format', '{{.State.ExitCode}}', container)).toBe('0');
  }, 120_000);
});
