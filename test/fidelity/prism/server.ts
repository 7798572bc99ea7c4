import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../../mock-server/src/node/server.js';
import { TEST_CONFIG, type TestServer } from '../../../mock-server/test/support/server.js';
import { BUNDLE_PATH, loadContract } from '../support/contract.js';
import { startFront } from './front.js';

/**
 * Stands in for `startTestServer` when the SDK's end-to-end suite runs through Prism (see ../prism.test.ts):
 * the same reference server, with Stoplight Prism validating every request and response against the bundled
 * contract in front of it. `url` leads to Prism (see ./front.ts for the one kind of request Prism cannot route),
 * so every SDK call goes through it; `request` and `admin` (the
 * tests' own set-up and the admin API, which is not part of the contract) go to the server directly.
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

export async function startTestServer(overrides: Record<string, unknown> = {}): Promise<TestServer> {
  const config = { ...TEST_CONFIG, ...overrides };
  const running = await startServer({ config, port: 0 });
  const port = await freePort();
  const prism = spawn(PRISM, ['proxy', fileURLToPath(BUNDLE_PATH), running.url, '--errors', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  const front = await startFront({ prism: `http://127.0.0.1:${port}`, server: running.url, bucket: running.engine.project.config.bucket, contract: loadContract(), violations: ownViolations });
  const request = (path: string, init?: RequestInit) => fetch(`${running.url}${path}`, init);
  const admin = (path: string, init: RequestInit = {}) => request(path, { ...init, headers: { 'X-Service-Authentication-Key': config.masterKey, ...init.headers } });
  return {
    ...running,
    url: front.url,
    config,
    request,
    admin,
    async reset() {
      const res = await admin('/__admin/reset', { method: 'POST' });
      if (!res.ok) throw new Error(`reset failed: ${res.status}`);
    },
    async close() {
      prism.removeAllListeners('exit');
      prism.kill('SIGTERM');
      front.server.closeAllConnections();
      await new Promise((resolve) => front.server.close(resolve));
      await running.close();
      const dir = process.env['PRISM_VIOLATIONS_DIR'];
      const violations = [...log.filter((line) => VIOLATION.test(line)).map((line) => line.replace(/\x1b\[[0-9;]*m/g, '')), ...ownViolations];
      const throughPrism = log.filter((line) => line.includes('Forwarding')).length;
      if (dir) writeFileSync(join(dir, `${process.pid}-${port}.json`), JSON.stringify({ throughPrism, checkedHere: front.checkedHere(), violations }));
    },
  } as TestServer;
}
