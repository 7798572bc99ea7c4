// What npm users get: every publishable package packed once, installed from its tarball into fresh consumer
// projects outside the workspace (a Node app on the server's bin, a front-end app on the SDK and @basekit/msw),
// and used there as their authors would. The workspace lends only its tools (tsc, vite, vitest), never a package.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { ciWorkflow } from '../container/ci-workflow.js';
import { imageCommand } from '../container/command.js';
import { readDockerfile } from '../container/dockerfile.js';
import {
  ancestorNodeModules,
  consumerEnv,
  createConsumer,
  installed,
  linksLeaving,
  mustRun,
  run,
  WORKSPACE,
  workspaceBin,
} from './consumer.js';

interface Manifest {
  name: string;
  private?: boolean;
  workspaces?: string[];
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}
interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(WORKSPACE, path), 'utf8')) as T;
const root = readJson<Manifest>('package.json');

/** The folders of the workspaces that are published: every one not marked private. */
const publishable = root
  .workspaces!.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(WORKSPACE, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`)
      : [pattern],
  )
  .filter((dir) => !readJson<Manifest>(`${dir}/package.json`).private);

let base: string;
let server: string;
let web: string;
const packed = new Map<string, Packed & { tarball: string }>();
const tarball = (name: string) => packed.get(name)!.tarball;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'basekit-packaging-'));
  const leaks = ancestorNodeModules(base);
  if (leaks.length > 0) throw new Error(`packages above the consumers would leak into them: ${leaks.join(', ')}`);
  const tarballs = join(base, 'tarballs');
  await mkdir(tarballs);
  const workspaces = publishable.flatMap((dir) => ['-w', dir]);
  for (const entry of JSON.parse(
    await mustRun('npm', ['pack', '--json', '--pack-destination', tarballs, ...workspaces], WORKSPACE),
  ) as Packed[]) {
    packed.set(entry.name, { ...entry, tarball: join(tarballs, entry.filename) });
  }

  server = join(base, 'server-app');
  web = join(base, 'web-app');
  await Promise.all([
    createConsumer(server, 'server-app', [
      tarball('@basekit/engine'),
      tarball('@basekit/mock-server'),
      tarball('@basekit/sdk'),
      `@types/node@${root.devDependencies!['@types/node']}`,
    ]),
    // msw is @basekit/msw's peer: the app brings its own, as the package's README says.
    createConsumer(web, 'web-app', [
      tarball('@basekit/engine'),
      tarball('@basekit/sdk'),
      tarball('@basekit/msw'),
      `msw@${root.devDependencies!.msw}`,
    ]),
  ]);
}, 180_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('are every publishable workspace', () => {
    expect([...packed.keys()].sort()).toEqual([
      '@basekit/engine',
      '@basekit/mock-server',
      '@basekit/msw',
      '@basekit/sdk',
    ]);
  });

  it('carry a README, the root LICENSE and the metadata npm users expect, the same in each', () => {
    const license = readFileSync(join(WORKSPACE, 'LICENSE'), 'utf8');
    const site = String(root.homepage).replace(/#readme$/, '');
    for (const dir of publishable) {
      const manifest = readJson<Manifest>(`${dir}/package.json`);
      const files = packed.get(manifest.name)!.files.map((file) => file.path);
      expect(files, manifest.name).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
      expect(readFileSync(join(WORKSPACE, dir, 'LICENSE'), 'utf8'), manifest.name).toBe(license);
      expect(manifest, manifest.name).toMatchObject({
        license: root.license,
        engines: root.engines,
        repository: { ...(root.repository as object), directory: dir },
        bugs: root.bugs,
        homepage: `${site}/tree/main/${dir}#readme`,
        publishConfig: { access: 'public' },
        keywords: expect.arrayContaining(['basekit']),
      });
      expect(manifest.sideEffects, manifest.name).toBeDefined();
    }
  });

  it('the server ships the management panel built (its page and assets, no source maps), not its sources', () => {
    const files = packed.get('@basekit/mock-server')!.files.map((file) => file.path);
    const panel = files.filter((path) => path.startsWith('panel/'));
    expect(panel).toContain('panel/dist/index.html');
    expect(panel.filter((path) => /^panel\/dist\/assets\/index-[\w-]+\.js$/.test(path))).toHaveLength(1);
    expect(panel.filter((path) => !path.startsWith('panel/dist/') || path.endsWith('.map'))).toEqual([]);
    // Built by the private packages/panel workspace, which the published server never names.
    const manifest = readJson<Manifest>('mock-server/package.json');
    const needs = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
      Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
    );
    expect(needs).not.toContain(readJson<Manifest>('packages/panel/package.json').name);
  });

  it('ship a file for every entry their exports and imports name', () => {
    const targets = (exports: unknown): string[] =>
      typeof exports === 'string' ? [exports] : Object.values(exports ?? {}).flatMap(targets);
    for (const dir of publishable) {
      const manifest = readJson<Manifest>(`${dir}/package.json`);
      const shipped = new Set(packed.get(manifest.name)!.files.map((file) => file.path));
      const named = [...targets(manifest['exports']), ...targets(manifest['imports'])];
      const missing = named.filter((target) => !shipped.has(posix.normalize(target)));
      expect(missing, manifest.name).toEqual([]);
    }
  });

  it('ship the sources of every source map they ship', () => {
    for (const dir of publishable) {
      const { name, files } = packed.get(readJson<Manifest>(`${dir}/package.json`).name)!;
      const shipped = new Set(files.map((file) => file.path));
      const missing = [...shipped]
        .filter((path) => path.endsWith('.map'))
        .flatMap((path) => {
          const map = readJson<{ sources: string[]; sourceRoot?: string }>(`${dir}/${path}`);
          return map.sources
            .map((source) => posix.join(posix.dirname(path), map.sourceRoot ?? '', source))
            .filter((source) => !shipped.has(source));
        });
      expect(missing, name).toEqual([]);
    }
  });
});

describe('installed into fresh projects', () => {
  it('come from the tarballs, never linked to the workspace', async () => {
    expect(await linksLeaving(server)).toEqual([]);
    expect(await linksLeaving(web)).toEqual([]);
    for (const dir of [server, web]) expect((await run('npm', ['ls', '--all'], dir)).code, `npm ls in ${dir}`).toBe(0);
  });

  it('a Node app starts the packed bin and uses it through the packed SDK, without axios', async () => {
    expect(await installed(server, ['axios'])).toEqual([]);
    const output = JSON.parse(await mustRun('node', ['app.mjs'], server)) as Record<string, unknown>;
    expect(output).toMatchObject({
      me: 'ann',
      refused: true,
      row: 'Hello',
      plain: 'hello',
      tracked: 300_000,
      rank: { rank: 1, scores: [42, 0, 0] },
      anonymous: true,
      unanswered: { name: 'NetworkError', reason: 'refused' },
    });
    // Progress in Node: the streamed body counted as the connection takes it, up to the whole multipart body.
    const { steps, last } = output.progress as { steps: number; last: { loaded: number; total: number } };
    expect(steps).toBeGreaterThan(1);
    expect(last.loaded).toBe(last.total);
    expect(last.total).toBeGreaterThan(300_000);
  });

  it.each(['bundler', 'node16'])(
    'a strict TypeScript app type-checks against the SDK with moduleResolution %s',
    async (resolution) => {
      const outcome = await run(
        'node',
        [workspaceBin('typescript', 'tsc'), '-p', `tsconfig.${resolution}.json`],
        server,
      );
      expect(outcome.stdout + outcome.stderr).toBe('');
      expect(outcome.code).toBe(0);
    },
    // A whole tsc run of the consumer: about 30 s on a busy 2-core machine.
    120_000,
  );

  it('a Vite build of a page on the SDK and @basekit/msw holds no Node built-ins', async () => {
    const outcome = await run(
      'node',
      [workspaceBin('vite'), 'build', '--outDir', 'dist', '--emptyOutDir', '--logLevel', 'warn'],
      web,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    // Vite swaps a Node built-in imported for the browser for an empty module, and says so.
    expect(outcome.stdout + outcome.stderr).not.toMatch(/externalized for browser compatibility/);
    const assets = join(web, 'dist', 'assets');
    const code = (
      await Promise.all(
        (
          await readdir(assets)
        )
          .filter((file) => file.endsWith('.js'))
          .map((file) => readFile(join(assets, file), 'utf8')),
      )
    ).join('\n');
    expect(code).toContain('api.example.test');
    // The SDK's network-failure messages for browsers (its `browser` condition): none of Node's error codes.
    expect(code).toContain('no reason given');
    expect(code).not.toContain('NODE_EXTRA_CA_CERTS');
    const names = builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|');
    const nodeImport = new RegExp(
      `(?:\\bfrom|\\bimport|\\brequire)\\s*\\(?\\s*(["'\`])(?:node:[^"'\`]+|(?:${names}))\\1`,
    );
    expect(code.match(nodeImport)?.[0]).toBeUndefined();
    expect(code).not.toContain('__vite-browser-external');
  });

  it('a front-end install carries no sharp, no Node server and no axios', async () => {
    const nodeOnly = ['sharp', '@hono/node-server', '@basekit/mock-server', 'axios', 'testcontainers'];
    // The same look-up finds the server and sharp where they belong; testcontainers is the server's optional peer,
    // installed only by those who use its Testcontainers module.
    expect(await installed(server, nodeOnly)).toEqual([
      expect.stringMatching(/^@basekit\/mock-server@/),
      expect.stringMatching(/^@hono\/node-server@/),
      expect.stringMatching(/^sharp@/),
    ]);
    expect(await installed(web, nodeOnly)).toEqual([]);
  });

  it('a Vitest test under jsdom signs in through the msw handlers', async () => {
    const report = join(web, 'vitest-report.json');
    const outcome = await run(
      'node',
      [workspaceBin('vitest'), 'run', '--globals', '--reporter=json', `--outputFile=${report}`],
      web,
    );
    const { success, numTotalTests, numPassedTests, testResults } = JSON.parse(
      await readFile(report, 'utf8').catch(() => '{}'),
    ) as Record<string, unknown>;
    expect({ success, numTotalTests, numPassedTests }, JSON.stringify(testResults ?? outcome.stderr, null, 2)).toEqual({
      success: true,
      numTotalTests: 1,
      numPassedTests: 1,
    });
  });
});

describe('the container image, without a container engine (test/container/image.test.ts builds it where one runs)', () => {
  it('runs as a user without root, with the data folder as a volume and a health check; the CI example uses them', () => {
    const image = readDockerfile();
    const ci = ciWorkflow();
    const port = image.env['PORT'];
    // The CI example builds the image in the job, publishes its port, waits for its own health check, then tests.
    const tag = /^docker build --tag (\S+) "https:\/\/github\.com\/basekit\/basekit\.git#\w+"$/.exec(
      ci.run(/^Build the basekit server image$/),
    )?.[1];
    const start = ci.run(/^Start the basekit server/);
    expect(start).toContain(`docker run --detach --name basekit --publish ${port}:${port} ${tag}\n`);
    expect(start).toContain('"{{.State.Health.Status}}" basekit)" = healthy');
    expect(image.healthcheck).not.toEqual([]);
    expect(ci.env['BASEKIT_URL']).toBe(`http://localhost:${port}`);
    expect(ci.steps.map((step) => step.run)).toContain('npx vitest run');
    expect(image.user).not.toMatch(/^(root|0)?$/);
    expect([image.volume, image.env['PORT']]).toEqual(['/data', '3000']);
    expect([...image.entrypoint, ...image.cmd]).toEqual(['basekit-server', '--host', '0.0.0.0', '--data-dir', '/data']);
  });

  // Two server starts and the CI example's whole test step: about 30 s on a busy 2-core machine.
  it("its command serves from the packed install, passes its health check, runs the CI example's tests and keeps its state in the volume", async () => {
    const command = imageCommand(readDockerfile(), server, await mkdtemp(join(base, 'volume-')));
    const first = await command.start();
    expect(await command.healthCheck(first.port)).toBe(0);
    // The management panel, served from the packed install.
    const panel = await fetch(`${first.url}/__admin/panel/users`);
    expect([panel.status, await panel.text()]).toEqual([
      200,
      expect.stringContaining('<meta name="basekit-header-word" content="Service" />'),
    ]);
    const headers = {
      'X-Service-Authentication-Id': 'dev-auth-id',
      'X-Service-Authentication-Key': 'dev-client-key',
      'Content-Type': 'application/json',
    };
    const registered = await fetch(`${first.url}/auth/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: 'ann', password: 'pw-ann' }),
    });
    expect(registered.status).toBe(200);
    // The test step of the CI example (docs/ci/github-actions.yml) against it, as against the service container.
    const ci = ciWorkflow();
    const env = {
      ...consumerEnv(),
      ...ci.env,
      BASEKIT_URL: ci.env['BASEKIT_URL']!.replace('localhost:3000', `127.0.0.1:${first.port}`),
    };
    const step = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        process.execPath,
        [workspaceBin('vitest'), 'run'],
        { cwd: join(WORKSPACE, 'examples/node-vitest'), env },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: stdout + stderr }),
      ),
    );
    expect(step, step.output).toMatchObject({ code: 0 });
    expect(await first.stop()).toBe(0);
    expect(await command.healthCheck(first.port)).toBe(1);

    const second = await command.start();
    try {
      const { 'Content-Type': _json, ...keys } = headers;
      const login = await fetch(`${second.url}/auth/login`, {
        method: 'POST',
        headers: keys,
        body: new URLSearchParams({ username: 'ann', password: 'pw-ann' }),
      });
      expect(login.status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});
