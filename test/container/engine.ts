// The container engine as the container tests drive it: the `docker` command (with DOCKER_HOST and the rest of the
// environment as given), whether it answers, and the image of the repository's Dockerfile, built once a run by the
// global set-up (image.setup.ts) and awaited by each test file.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import { describe, inject, it } from 'vitest';
import { WORKSPACE } from '../packaging/consumer.js';

/** What the global set-up hands the tests: the build's folder, or why no engine can be used. */
type ImageBuild = { dir: string } | { unavailable: string };

declare module 'vitest' {
  export interface ProvidedContext {
    containerImage: ImageBuild;
  }
}

/** The tag the build leaves behind, so that the next run reuses its layers; tests run the image by its id. */
export const IMAGE_TAG = 'basekit-server:test';

/** The longest a build may take, a first one on a busy machine included. */
export const BUILD_TIMEOUT_S = 20 * 60;

/** Runs `docker ARGS` to its end: its output, trimmed; a failure throws with the command's error output. */
export async function docker(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('docker', args, { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  return stdout.trim();
}

/** Why no container engine can be used here, or undefined when `docker info` answers. */
export function engineUnavailable(): string | undefined {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 20_000 });
  if (info.error) return `no docker command (${info.error.message})`;
  if (info.status !== 0) return `docker info failed: ${info.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

const pem = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;
const der = (certificate: string) => certificate.replace(/-----[A-Z ]+-----|\s/g, '');

/**
 * The certificates this machine trusts beyond Node's own: those of NODE_EXTRA_CA_CERTS that Node does not carry. Behind
 * a proxy that intercepts TLS, npm inside the build needs them (the Dockerfile's EXTRA_CA_CERTS argument).
 */
function extraCaCerts(file = process.env['NODE_EXTRA_CA_CERTS']): string {
  if (!file || !existsSync(file)) return '';
  const known = new Set(rootCertificates.map(der));
  return (readFileSync(file, 'utf8').match(pem) ?? []).filter((certificate) => !known.has(der(certificate))).join('\n');
}

/**
 * `docker build` of the repository: on the host's network (an engine that leaves the firewall alone gives build
 * steps no other way out), with this machine's extra certificates for npm, its image id written to `idFile`.
 */
export function buildArgs(idFile: string): string[] {
  return [
    'build',
    '--network=host',
    '--build-arg',
    `EXTRA_CA_CERTS=${extraCaCerts()}`,
    '--iidfile',
    idFile,
    '--tag',
    IMAGE_TAG,
    WORKSPACE,
  ];
}

/** The build's outcome, as the global set-up writes it when `docker build` ends. */
export interface BuildOutcome {
  code: number | null;
  seconds: number;
}

export const buildFiles = (dir: string) => ({
  log: join(dir, 'build.log'),
  imageId: join(dir, 'image-id'),
  outcome: join(dir, 'outcome.json'),
});

/**
 * The image built for this run: its id, how long the build took and how long this call waited for its end. Throws if
 * the build failed.
 */
export async function builtImage(): Promise<{ id: string; buildSeconds: number; waitedSeconds: number }> {
  const started = performance.now();
  const build = inject('containerImage');
  if ('unavailable' in build) throw new Error(`no container engine: ${build.unavailable}`);
  const files = buildFiles(build.dir);
  for (let waited = 0; !existsSync(files.outcome); waited += 1) {
    if (waited > BUILD_TIMEOUT_S)
      throw new Error(`the image's build did not end in ${BUILD_TIMEOUT_S} s: ${files.log}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const { code, seconds } = JSON.parse(readFileSync(files.outcome, 'utf8')) as BuildOutcome;
  if (code !== 0) {
    const log = readFileSync(files.log, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`docker build of ${WORKSPACE} ended with ${code}; the end of its output:\n${log}`);
  }
  const waitedSeconds = (performance.now() - started) / 1000;
  return { id: readFileSync(files.imageId, 'utf8').trim(), buildSeconds: seconds, waitedSeconds };
}

/**
 * A describe block that needs the container engine. Where none answers it is skipped, its title saying why, except
 * in CI: `.ci/run` sets BASEKIT_CONTAINER_TESTS=required and starts one, and a missing engine then fails.
 */
export function describeWithEngine(name: string, body: () => void): void {
  const build = inject('containerImage');
  if (!('unavailable' in build)) describe(name, body);
  else if (process.env['BASEKIT_CONTAINER_TESTS'] !== 'required')
    describe.skip(`${name} (skipped: no container engine, ${build.unavailable})`, body);
  else
    describe(name, () =>
      it('has a container engine (BASEKIT_CONTAINER_TESTS=required)', () => {
        throw new Error(`no container engine: ${build.unavailable}`);
      }),
    );
}
