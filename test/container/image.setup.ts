// Vitest global set-up of the container tests (vitest.config.ts, project "container"): starts the build of the
// repository's Dockerfile when the run starts and returns at once, so that the build runs beside the other projects'
// tests (the container tests come last: `sequence.groupOrder`); each test file waits for its end (`builtImage`).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type BuildOutcome, buildArgs, buildFiles, engineUnavailable, IMAGE_TAG } from './engine.js';

export default function setup({ provide }: TestProject): (() => void) | undefined {
  const unavailable = engineUnavailable();
  if (unavailable) {
    provide('containerImage', { unavailable });
    const outcome = process.env['BASEKIT_CONTAINER_TESTS'] === 'required' ? 'fail' : 'are skipped';
    console.warn(`The container tests (test/container) ${outcome}: no container engine (${unavailable}).`);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'basekit-image-'));
  const files = buildFiles(dir);
  const previous = spawnSync('docker', ['image', 'inspect', '--format', '{{.Id}}', IMAGE_TAG], { encoding: 'utf8' });
  const log = openSync(files.log, 'w');
  const started = performance.now();
  const build = spawn('docker', buildArgs(files.imageId), { stdio: ['ignore', log, log] });
  const end = (code: number | null) => {
    const outcome: BuildOutcome = { code, seconds: (performance.now() - started) / 1000 };
    writeFileSync(files.outcome, JSON.stringify(outcome));
    // The image the tag named before, replaced by this build: removed, unless a container still uses it.
    const before = previous.status === 0 ? previous.stdout.trim() : '';
    const built = code === 0 ? readFileSync(files.imageId, 'utf8').trim() : before;
    if (before && built !== before) spawnSync('docker', ['image', 'rm', before], { stdio: 'ignore' });
  };
  build.once('exit', end);
  build.once('error', (error) => {
    writeFileSync(files.log, String(error));
    end(null);
  });
  provide('containerImage', { dir });
  return () => {
    if (build.exitCode === null) build.kill();
    rmSync(dir, { recursive: true, force: true });
  };
}
