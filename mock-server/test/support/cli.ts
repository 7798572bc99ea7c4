import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** How a run of `basekit-server` ended. */
export interface Run {
  code: number | null;
  /** The signal that ended it, when one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `basekit-server` with `args` (and `env` over this process's); once it prints `listening on` and its banner,
 * calls `whileUp` with the HTTP URL and stops it with SIGTERM.
 */
export function runCli(
  args: string[],
  whileUp?: (url: string, stdout: string) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  const child = spawn(process.execPath, ['--conditions=@basekit/source', '--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^listening on (http:\/\/\S+)$/m.exec(stdout)?.[1];
      if (url && !started && stdout.includes('admin API')) {
        started = true;
        (whileUp ?? (async () => undefined))(url, stdout).then(
          () => child.kill('SIGTERM'),
          (error) => {
            child.kill('SIGKILL');
            reject(error);
          },
        );
      }
    });
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
