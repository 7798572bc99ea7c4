// The repository's Dockerfile built (image.setup.ts) and run by a container engine, as docs/ci.md tells users to:
// healthy, reached through its published port, its state kept in a data volume across containers, stopped by
// `docker stop` within the grace period. Prints the figures docs/ci.md quotes. Without an engine,
// test/packaging/install.test.ts runs the image's command and health check from the packed install instead.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestProject } from '@basekit/mock-server/testing';
import { readDockerfile } from './dockerfile.js';
import { BUILD_TIMEOUT_S, builtImage, describeWithEngine, docker } from './engine.js';

const devKeys = { 'X-Service-Authentication-Id': 'dev-auth-id', 'X-Service-Authentication-Key': 'dev-client-key' };
const STOP_GRACE_S = 5;
/** A test starts a container or two, each healthy after 5–10 s on a busy machine. */
const TEST_TIMEOUT_MS = 120_000;

describeWithEngine('the container image', () => {
  let image: Awaited<ReturnType<typeof builtImage>>;
  const containers: string[] = [];
  const volumes: string[] = [];
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    image = await builtImage();
    const bytes = Number(await docker('image', 'inspect', '--format', '{{.Size}}', image.id));
    figures['build'] = `${image.buildSeconds.toFixed(0)} s (begun in global set-up)`;
    figures['waited for the build'] = `${image.waitedSeconds.toFixed(0)} s`;
    figures['size'] = `${(bytes / 1e6).toFixed(0)} MB`;
  }, BUILD_TIMEOUT_S * 1000);

  afterAll(async () => {
    for (const id of containers) await docker('rm', '--force', id).catch(() => undefined);
    for (const volume of volumes) await docker('volume', 'rm', '--force', volume).catch(() => undefined);
    console.info(`container figures: ${JSON.stringify(figures)}`);
  });

  /** A new named volume, removed after the tests. */
  function newVolume(): string {
    volumes.push(`basekit-test-${process.pid}-${volumes.length}`);
    return volumes.at(-1)!;
  }

  /** Runs the image with `volume` as its data, its port published on a free loopback port; resolves once healthy. */
  async function start(volume: string): Promise<{ id: string; url: string }> {
    const started = performance.now();
    const id = await docker('run', '--detach', '--publish', '127.0.0.1::3000', '--volume', `${volume}:/data`, image.id);
    containers.push(id);
    const health = () => docker('inspect', '--format', '{{.State.Health.Status}}', id);
    for (let waited = 0; (await health()) !== 'healthy'; waited += 200) {
      if (waited > 60_000) throw new Error(`not healthy after a minute of polls: ${await docker('logs', id)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    figures['healthy after'] ??= `${((performance.now() - started) / 1000).toFixed(1)} s`;
    return { id, url: `http://${await docker('port', id, '3000/tcp')}` };
  }

  /** `docker stop` with a short grace period; resolves with the exit code (137: killed after the grace period). */
  async function stop(id: string): Promise<number> {
    const started = performance.now();
    await docker('stop', '--time', String(STOP_GRACE_S), id);
    figures['docker stop'] ??= `${((performance.now() - started) / 1000).toFixed(2)} s`;
    return Number(await docker('inspect', '--format', '{{.State.ExitCode}}', id));
  }

  it(
    'turns healthy as a user without root, with ffmpeg, and serves its published port',
    async () => {
      const volume = newVolume();
      const { id, url } = await start(volume);
      const { user } = readDockerfile();
      expect(await docker('exec', id, 'id', '-un')).toBe(user);
      expect(await docker('exec', id, 'ffmpeg', '-version')).toMatch(/^ffmpeg version/);
      const mounts = JSON.parse(await docker('inspect', '--format', '{{json .Mounts}}', id)) as {
        Destination: string;
        Name: string;
      }[];
      expect(mounts).toContainEqual(expect.objectContaining({ Destination: '/data', Name: volume }));

      const panel = await fetch(`${url}/__admin/panel/`);
      expect(panel.status).toBe(200);
      const project = await createTestProject({ url, adminKey: 'dev-master-key' });
      const { authenticationId, clientKey } = project.clientOptions;
      const registered = await fetch(`${url}/auth/users`, {
        method: 'POST',
        headers: {
          'X-Service-Authentication-Id': authenticationId,
          'X-Service-Authentication-Key': clientKey,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ username: 'ann', password: 'pw-ann' }),
      });
      expect(registered.status).toBe(200);
      expect(await stop(id)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps its users in the data volume for the next container, and `docker stop` ends it cleanly',
    async () => {
      const volume = newVolume();
      const first = await start(volume);
      const registered = await fetch(`${first.url}/auth/users`, {
        method: 'POST',
        headers: { ...devKeys, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'bob', password: 'pw-bob' }),
      });
      expect(registered.status).toBe(200);
      // SIGTERM: the server writes its snapshot and exits 0 well within the grace period (137 would be SIGKILL).
      expect(await stop(first.id)).toBe(0);

      const second = await start(volume);
      const login = await fetch(`${second.url}/auth/login`, {
        method: 'POST',
        headers: devKeys,
        body: new URLSearchParams({ username: 'bob', password: 'pw-bob' }),
      });
      expect(login.status).toBe(200);
      expect(await stop(second.id)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
