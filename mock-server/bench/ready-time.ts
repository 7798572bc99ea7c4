// Start-up figures: how long a server's process takes from its spawn to the line that says it is ready.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where the commands run. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ReadyOptions {
  /** What the output says once ready; `listening on` unless given. */
  ready?: RegExp;
  /** Variables added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /**
   * How the process group is stopped once ready: SIGKILL unless given, so that a server with a data folder writes
   * nothing on its way out (the next start reads the folder as a crash left it).
   */
  signal?: NodeJS.Signals;
}

/**
 * Milliseconds from spawning `command` (in the repository's root, in a process group of its own, so that what it
 * starts stops with it) to the first output that matches `ready`.
 *
 * @example
 * const ms = await readyTime('npm', ['start', '--silent', '--', '--port', '0'], { signal: 'SIGTERM' });
 */
export function readyTime(
  command: string,
  args: string[],
  { ready = /listening on/, env, signal = 'SIGKILL' }: ReadyOptions = {},
): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!ready.test(out)) return;
      resolve(performance.now() - started);
      process.kill(-child.pid!, signal);
    });
    child.on(
      'exit',
      (code, signal) => signal === null && reject(new Error(`${command} exited (${code}) before ready`)),
    );
  });
}

/** `readyTime` of the built CLI (what the `basekit-server` bin runs) on a free port, with `args`. */
export const cliReadyTime = (args: string[] = [], options?: ReadyOptions) =>
  readyTime(process.execPath, ['mock-server/bin/basekit-server.js', '--port', '0', ...args], options);
