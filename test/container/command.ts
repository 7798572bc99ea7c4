// The image's command and health check run on this machine, without a container engine: the Dockerfile's ENTRYPOINT
// and CMD with its environment, its install folder being a consumer project of the packed tarballs, its volume a
// folder, and the files it copies taken from the repository.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { consumerEnv, WORKSPACE } from '../packaging/consumer.js';
import type { Image } from './dockerfile.js';

interface Started {
  url: string;
  port: number;
  /** SIGTERM, as `docker stop` sends; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface ImageCommand {
  /** Runs ENTRYPOINT + CMD on a free port (PORT=0) until it prints `listening on`. */
  start(): Promise<Started>;
  /** Runs the HEALTHCHECK command against `port`; resolves with its exit code. */
  healthCheck(port: number): Promise<number>;
}

export function imageCommand(image: Image, installDir: string, volumeDir: string): ImageCommand {
  const host = consumerEnv();
  const local = (value: string) => value.replaceAll(image.workdir, installDir).replaceAll('$PATH', host.PATH ?? '');
  const env = {
    ...host,
    ...Object.fromEntries(Object.entries(image.env).map(([name, value]) => [name, local(value)])),
  };
  const arg = (value: string) =>
    value === image.volume ? volumeDir : image.copied[value] ? join(WORKSPACE, image.copied[value]) : value;
  // A command name is looked up on the image's PATH, as the container does.
  const [command, ...args] = [...image.entrypoint, ...image.cmd].map(arg);

  return {
    start: () =>
      new Promise((resolve, reject) => {
        const child = spawn(command!, args, {
          cwd: installDir,
          env: { ...env, PORT: '0' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
        let output = '';
        // Kept reading to the end, so the server never blocks on a full pipe; resolving twice does nothing.
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const listening = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
          if (!listening) return;
          const port = Number(listening[1]);
          resolve({
            url: `http://127.0.0.1:${port}`,
            port,
            stop: () => {
              child.kill('SIGTERM');
              return exited;
            },
          });
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        void exited.then((code) =>
          reject(new Error(`the image's command ended (${code}) before listening:\n${output}`)),
        );
        child.once('error', reject);
      }),
    healthCheck: (port) =>
      new Promise((resolve) => {
        const [check, ...checkArgs] = image.healthcheck.map(arg);
        execFile(check!, checkArgs, { env: { ...env, PORT: String(port) } }, (error) =>
          resolve(error ? Number(error.code ?? 1) : 0),
        );
      }),
  };
}
