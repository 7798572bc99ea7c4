import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { startServer } from '../../src/server.js';
import { machineAddresses, urlHost } from '../../src/tls/addresses.js';
import { names } from '../../src/tls/local-ca.js';
import { runCli } from '../support/cli.js';

/**
 * HTTPS as a new user tries it: `basekit-server --https-port 0` prints both addresses and the certificate to
 * trust, and curl trusting that file registers a user; with `--host 0.0.0.0` the banner lists the machine's own
 * addresses for both protocols, and the certificate covers them.
 */

const curl = promisify(execFile);

/** A TCP listener on 127.0.0.1 (`port` 0: a free one). */
async function listening(port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
const lines = (stdout: string) => stdout.trim().split('\n');
/** The path on the banner's `certificate` line. */
const certificatePath = (stdout: string) => /^ {2}certificate +(\S+)/m.exec(stdout)?.[1];

describe('basekit-server --https-port', () => {
  it('prints the HTTP then the HTTPS address and the CA to trust; curl --cacert registers a user over HTTP/2', async () => {
    const home = await mkdtemp(join(tmpdir(), 'basekit-home-'));
    const env = { XDG_DATA_HOME: join(home, 'data') };
    const first = await runCli(
      ['--port', '0', '--https-port', '0'],
      async (_url, stdout) => {
        const httpsUrl = /^listening on (https:\/\/\S+)$/m.exec(stdout)![1]!;
        const ca = certificatePath(stdout)!;
        const { stdout: out } = await curl('curl', [
          '--silent',
          '--show-error',
          '--cacert',
          ca,
          '--write-out',
          '\n%{http_code} HTTP/%{http_version}',
          '-H',
          'X-Service-Authentication-Id: dev-auth-id',
          '-H',
          'Content-Type: application/json',
          '-d',
          '{"username":"curl-user","password":"pw"}',
          `${httpsUrl}/auth/users`,
        ]);
        const [body, status] = out.split('\n');
        expect(JSON.parse(body!)).toMatchObject({ username: 'curl-user', active: true });
        expect(status).toBe('200 HTTP/2');
      },
      env,
    );
    expect(first.code).toBe(0);
    const [http, https, ...banner] = lines(first.stdout);
    expect(http).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(https).toMatch(/^listening on https:\/\/127\.0\.0\.1:\d+$/);
    const ca = join(home, 'data', 'basekit', 'tls', 'ca.pem');
    expect(certificatePath(first.stdout)).toBe(ca);
    expect(banner).toContainEqual(expect.stringMatching(/^ {2}over HTTPS +https:\/\/127\.0\.0\.1:\d+ /));
    expect(banner).toContainEqual(
      `  note: a new local CA was made for HTTPS: clients trust ${ca} once (docs/devices.md)`,
    );
    // The next start trusts the same CA: nothing new to trust.
    const caText = await readFile(ca, 'utf8');
    const second = await runCli(['--port', '0', '--https-port', '0'], undefined, env);
    expect(certificatePath(second.stdout)).toBe(ca);
    expect(second.stdout).not.toContain('new local CA');
    expect(await readFile(ca, 'utf8')).toBe(caText);
  });

  it("with --host 0.0.0.0 lists the machine's addresses for both protocols, and the certificate names them", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'basekit-lan-'));
    const run = await runCli(['--port', '0', '--https-port', '0', '--host', '0.0.0.0', '--data-dir', dataDir]);
    expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
    const [http, https] = lines(run.stdout);
    const httpPort = /:(\d+)$/.exec(http!)![1];
    const httpsPort = /:(\d+)$/.exec(https!)![1];
    // This machine reaches it on loopback; the banner never offers 0.0.0.0 as an address.
    expect(run.stdout).toContain(`  base_url        http://127.0.0.1:${httpPort}   users`);
    expect(run.stdout).toContain(`  over HTTPS      https://127.0.0.1:${httpsPort}   `);
    expect(lines(run.stdout).slice(2).join('\n')).not.toContain('0.0.0.0');
    const addresses = machineAddresses('0.0.0.0');
    const server = new X509Certificate(await readFile(join(dataDir, 'tls', 'server.pem'), 'utf8'));
    for (const address of addresses) {
      expect(run.stdout).toContain(`http://${urlHost(address)}:${httpPort}   https://${urlHost(address)}:${httpsPort}`);
      expect(names(server, address)).toBe(true);
    }
    if (addresses.length > 0) expect(run.stdout).toMatch(/^ {2}other machines +http:\/\//m);
  });

  it('says in one line that the HTTPS port is busy, and leaves nothing listening', async () => {
    const busy = await listening();
    const run = await runCli(['--port', '0', '--https-port', String(busy.port)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `basekit-server: port ${busy.port} is in use on 127.0.0.1: stop what uses it, or choose another with --https-port (0 picks a free one)\n`,
    );
    // In-process too: the HTTP side, already listening when HTTPS failed, is closed again.
    const free = await listening();
    await free.close();
    await expect(
      startServer({ port: free.port, httpsPort: busy.port, tlsDir: join(tmpdir(), 'basekit-busy-tls') }),
    ).rejects.toThrow(/EADDRINUSE/);
    const again = await listening(free.port);
    await again.close();
    await busy.close();
  });

  it('refuses a certificate without its key, and a port out of range, in one line', async () => {
    const home = await mkdtemp(join(tmpdir(), 'basekit-home-'));
    const alone = await runCli(['--port', '0', '--https-port', '0', '--tls-cert', join(home, 'cert.pem')], undefined, {
      XDG_DATA_HOME: home,
    });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toBe('basekit-server: a given certificate needs both files: --tls-cert and --tls-key\n');
    expect(existsSync(join(home, 'basekit'))).toBe(false);
    const port = await runCli(['--port', '0', '--https-port', '70000']);
    expect(port.code).toBe(1);
    expect(port.stderr).toMatch(/^basekit-server: --https-port must be an integer from 0 to 65535\n/);
  });
});
