// `@basekit/mock-server/testcontainers` against the container engine, on the image of the repository's Dockerfile
// (built by image.setup.ts): the URL, the keys and projects of their own, used through the SDK as docs/ci.md shows.
import { BasekitContainer, type StartedBasekitContainer } from '@basekit/mock-server/testcontainers';
import { ConfigError } from '@basekit/engine';
import { createClient } from '@basekit/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILD_TIMEOUT_S, builtImage, describeWithEngine, docker } from './engine.js';

describeWithEngine('the Testcontainers module', () => {
  let image: string;
  let basekit: StartedBasekitContainer;

  beforeAll(async () => {
    image = (await builtImage()).id;
    basekit = await new BasekitContainer(image)
      .withConfig({
        events: [{ name: 'win', fields: ['score'] }],
        leaderboards: [{ id: 'top', fields: [{ event: 'win', field: 'score' }] }],
      })
      .start();
  }, BUILD_TIMEOUT_S * 1000);

  afterAll(() => basekit?.stop());

  it('hands back the URL and the default project, on which the SDK registers and signs in', async () => {
    expect(basekit.getUrl()).toMatch(/^http:\/\/[^:]+:\d+$/);
    expect(await (await fetch(`${basekit.getUrl()}/__health`)).json()).toEqual({ status: 'ok' });
    const client = createClient(basekit.getClientOptions());
    await client.auth.register({ username: 'ann', password: 'pw-ann' });
    await client.auth.login('ann', 'pw-ann');
    expect((await client.auth.me()).username).toBe('ann');
    expect(basekit.getConfig().leaderboards.map((board) => board.id)).toEqual(['top']);
  });

  it('runs under a master key of its own, never the development one', async () => {
    const adminKey = basekit.getAdminKey();
    expect(adminKey).not.toBe('dev-master-key');
    const projects = (key: string) =>
      fetch(`${basekit.getUrl()}/__admin/projects`, { headers: { 'X-Service-Authentication-Key': key } });
    expect((await projects(adminKey)).status).toBe(200);
    expect((await projects('dev-master-key')).status).toBe(403);
  });

  it('creates projects of their own: a user of one is unknown to the other', async () => {
    const [one, other] = await Promise.all([basekit.createTestProject(), basekit.createTestProject()]);
    await createClient(one.clientOptions).auth.register({ username: 'bob', password: 'pw-bob' });
    await createClient(other.clientOptions).auth.register({ username: 'bob', password: 'pw-other' });
    await expect(createClient(other.clientOptions).auth.login('bob', 'pw-bob')).rejects.toThrow();
    await Promise.all([one.delete(), other.delete()]);
  });

  it('refuses a config the server would refuse, before any container is created', async () => {
    const containers = () => docker('ps', '--all', '--quiet', '--filter', 'label=org.testcontainers');
    const before = await containers();
    await expect(
      new BasekitContainer(image)
        .withConfig({ leaderboards: [{ id: 'top', fields: [{ event: 'none', field: 'x' }] }] })
        .start(),
    ).rejects.toThrow(ConfigError);
    expect(await containers()).toBe(before);
  });

  it('stop() removes the container and its data', async () => {
    const started = await new BasekitContainer(image).start();
    const id = started.getId();
    const [data] = JSON.parse(await docker('inspect', '--format', '{{json .Mounts}}', id)) as { Name: string }[];
    await started.stop();
    expect(await docker('ps', '--all', '--quiet', '--filter', `id=${id}`)).toBe('');
    expect(await docker('volume', 'ls', '--quiet', '--filter', `name=${data!.Name}`)).toBe('');
  });
});
