import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts the reference server's CLI (`mock-server/src/cli.ts`) as its own process and waits for its URL. */
export function startServerProcess(args: string[]): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@basekit/source', '--import', 'tsx', 'mock-server/src/cli.ts', '--port', '0', ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url)
        resolve({
          url,
          child,
          stderr: () => stderr,
          kill: async (signal) => {
            child.kill(signal);
            await exited;
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${stderr}`)));
  });
}
