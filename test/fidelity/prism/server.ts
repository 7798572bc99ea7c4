import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  TEST_CONFIG,
  startTestServer as startDirect,
  type TestServer,
} from '../../../mock-server/test/support/server.js';
import { BUNDLE_PATH, loadContract } from '../support/contract.js';
import { startFront } from './front.js';

/**
 * Stands in for `startTestServer` when the SDK's end-to-end suite runs through Prism (see ../prism.test.ts):
 * the same reference server, with Stoplight Prism validating every request and response against the bundled
 * contract in front of it. `url` leads to Prism (./front.ts routes the two kinds of request Prism cannot pass
 * through faithfully around it), so every SDK call is validated; `request` and `admin` (the tests' own set-up and
 * the admin API, which the fidelity checks against the spec leave out) go to the server directly.
 * Every violation Prism logs is written to `$PRISM_VIOLATIONS_DIR` when the server closes.
 */
export { TEST_CONFIG, type TestServer };

const PRISM = fileURLToPath(new URL('../../../node_modules/.bin/prism', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Prism's log lines that report a broken contract, in either direction. */
const VIOLATION = /violation|UNPROCESSABLE_ENTITY|NO_PATH_MATCHED|NO_METHOD_MATCHED|✖/i;

export async function startTestServer(overrides: Partial<TestServer['config']> = {}): Promise<TestServer> {
  const running = await startDirect(overrides);
  const port = await freePort();
  const prism = spawn(PRISM, ['proxy', fileURLToPath(BUNDLE_PATH), running.url, '--errors', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  await new Promise<void>((resolve, reject) => {
    prism.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${log.join('\n')}`)));
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) log.push(line);
      if (log.some((line) => line.includes('Prism is listening'))) resolve();
    };
    prism.stdout!.on('data', read);
    prism.stderr!.on('data', read);
  });
  const ownViolations: string[] = [];
  const front = await startFront({
    prism: `http://127.0.0.1:${port}`,
    server: running.url,
    bucket: running.engine.project.config.bucket,
    contract: loadContract(),
    violations: ownViolations,
  });
  return {
    ...running,
    url: front.url,
    async close() {
      prism.removeAllListeners('exit');
      // Its last log lines may still be on their way: the streams are complete once it has closed them.
      const closed = new Promise((resolve) => prism.once('close', resolve));
      prism.kill('SIGTERM');
      await closed;
      front.server.closeAllConnections();
      await new Promise((resolve) => front.server.close(resolve));
      await running.close();
      const dir = process.env['PRISM_VIOLATIONS_DIR'];
      const violations = [
        ...log.filter((line) => VIOLATION.test(line)).map((line) => line.replace(/\x1b\[[0-9;]*m/g, '')),
        ...ownViolations,
      ];
      const throughPrism = log.filter((line) => line.includes('Forwarding')).length;
      if (dir)
        writeFileSync(
          join(dir, `${process.pid}-${port}.json`),
          JSON.stringify({ throughPrism, checkedHere: front.checkedHere(), violations }),
        );
    },
  };
}
