import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, NetworkError, createClient, type ClientOptions } from '../../packages/sdk/src/index.js';
import { closedAddress, rejection } from '../../packages/sdk/test/support.js';
import { startServer, type RunningServer } from '../../mock-server/src/server.js';
import { mintServerCertificate, type KeyPair } from '../../mock-server/src/tls/mint.js';

/**
 * A request that gets no answer fails with a NetworkError whose message names the cause, as Node's
 * fetch (undici) gives it in the error's `cause` chain, where it used to say only `fetch failed`. Every cause is made
 * for real on this machine's loopback: a closed port, a name the resolver refuses, servers that hang or hang up,
 * certificates that are untrusted, expired or for another name.
 */

const DAY = 24 * 3600 * 1000;
const listening = <T extends Server | ReturnType<typeof createHttpServer>>(server: T) =>
  new Promise<T>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
const port = (server: { address(): unknown }) => (server.address() as AddressInfo).port;

/** A client of `baseUrl` with the development keys; `fetch` as an app could pass it (e.g. with a dispatcher). */
const clientOf = (baseUrl: string, extra: Partial<ClientOptions> = {}) =>
  createClient({ baseUrl, authenticationId: 'dev-auth-id', clientKey: 'dev-client-key', ...extra });

/** A fetch that trusts `ca` (an app's own trust, as NODE_EXTRA_CA_CERTS gives a whole process) and has time limits. */
const fetchWith = (options: ConstructorParameters<typeof Agent>[0]) => {
  const dispatcher = new Agent(options);
  return (request: Request) => fetch(request, { dispatcher } as RequestInit);
};

async function registerFails(client: ReturnType<typeof clientOf>): Promise<NetworkError> {
  const error = await rejection(client.auth.register({ username: 'ann', password: 'pw' }));
  expect(error).toBeInstanceOf(NetworkError);
  return error as NetworkError;
}

let folder: string;
let authority: KeyPair;
let trusted: RunningServer;
const others: { close(): unknown }[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'basekit-network-failures-'));
  trusted = await startServer({ port: 0, httpsPort: 0, tlsDir: join(folder, 'local') });
  // The local CA the server made: its key file holds the key and the certificate.
  const read = (file: string) => readFile(join(folder, 'local', file), 'utf8');
  authority = { cert: await read('ca.pem'), key: await read('ca-key.pem') };
});

afterAll(async () => {
  await trusted.close();
  for (const server of others) server.close();
});

/** A server of the same CA serving `cert` (an expired one, one for another name). */
async function serverWith(names: string[], notBefore: Date, notAfter: Date): Promise<string> {
  const pair = await mintServerCertificate(authority, names, { notBefore, notAfter });
  const certFile = join(folder, `${names[0]}-${notAfter.getTime()}.pem`);
  const keyFile = `${certFile}.key`;
  await Promise.all([writeFile(certFile, pair.cert), writeFile(keyFile, pair.key)]);
  const server = await startServer({ port: 0, httpsPort: 0, tlsCert: certFile, tlsKey: keyFile });
  others.push(server);
  return server.httpsUrl!;
}

describe('a NetworkError names why there was no answer', () => {
  it('connection refused: nothing listens on the port', async () => {
    const url = await closedAddress();
    const error = await registerFails(clientOf(url));
    expect(error.reason).toBe('refused');
    expect(error.message).toMatch(new RegExp(`^POST /auth/users to ${url} failed: connection refused: .*ECONNREFUSED`));
  });

  it('host not found: the resolver refuses the name', async () => {
    // A label longer than 63 characters: the resolver refuses it on this machine, no query leaves it.
    const host = `${'x'.repeat(64)}.invalid`;
    const error = await registerFails(clientOf(`http://${host}`));
    expect(error.reason).toBe('host-not-found');
    expect(error.message).toContain(`host not found (getaddrinfo ENOTFOUND ${host})`);
  });

  it('timed out: connecting (a TLS handshake that never comes) and waiting for the answer', async () => {
    const silent = await listening(createTcpServer(() => undefined));
    const hanging = await listening(createHttpServer(() => undefined));
    others.push(silent, {
      close: () => {
        hanging.closeAllConnections();
        hanging.close();
      },
    });
    const connecting = await registerFails(
      clientOf(`https://127.0.0.1:${port(silent)}`, { fetch: fetchWith({ connectTimeout: 200 }) }),
    );
    expect(connecting.reason).toBe('timed-out');
    expect(connecting.message).toContain('timed out (UND_ERR_CONNECT_TIMEOUT');
    const answering = await registerFails(
      clientOf(`http://127.0.0.1:${port(hanging)}`, { fetch: fetchWith({ headersTimeout: 200 }) }),
    );
    expect(answering.reason).toBe('timed-out');
    expect(answering.message).toContain('timed out (UND_ERR_HEADERS_TIMEOUT');
    // The caller's own time limit is an AbortError that says so.
    const signalled = await rejection(
      clientOf(`http://127.0.0.1:${port(hanging)}`).auth.register(
        { username: 'ann', password: 'pw' },
        { signal: AbortSignal.timeout(200) },
      ),
    );
    expect(signalled).toBeInstanceOf(AbortError);
    expect((signalled as Error).message).toBe('POST /auth/users timed out');
  });

  it('connection lost: the server hangs up before answering', async () => {
    const rude = await listening(createTcpServer((socket) => socket.destroy()));
    others.push(rude);
    const error = await registerFails(clientOf(`http://127.0.0.1:${port(rude)}`));
    expect(error.reason).toBe('connection-lost');
    expect(error.message).toContain('the connection closed before the answer (UND_ERR_SOCKET: other side closed)');
  });

  it('not TLS: an https:// address on the HTTP port', async () => {
    const error = await registerFails(clientOf(trusted.url.replace('http:', 'https:')));
    expect(error.reason).toBe('not-tls');
    expect(error.message).toContain(
      'the server does not speak TLS there: an http:// address? (ERR_SSL_WRONG_VERSION_NUMBER)',
    );
  });

  it('certificate not trusted: the local CA is not trusted by this process', async () => {
    const error = await registerFails(clientOf(trusted.httpsUrl!));
    expect(error.reason).toBe('certificate');
    expect(error.message).toContain(
      "the server's certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate): trust the CA that signed it (in Node: NODE_EXTRA_CA_CERTS=<its file>)",
    );
    // Trusted, the same server answers.
    const trusting = clientOf(trusted.httpsUrl!, { fetch: fetchWith({ connect: { ca: authority.cert } }) });
    await expect(trusting.auth.register({ username: 'ann', password: 'pw' })).resolves.toMatchObject({
      username: 'ann',
    });
  });

  it('certificate expired, and a certificate for another name, from a trusted CA', async () => {
    const trust = { fetch: fetchWith({ connect: { ca: authority.cert } }) };
    const now = Date.now();
    const expired = await serverWith(['127.0.0.1'], new Date(now - 30 * DAY), new Date(now - DAY));
    const old = await registerFails(clientOf(expired, trust));
    expect(old.reason).toBe('certificate');
    expect(old.message).toContain("the server's certificate has expired (CERT_HAS_EXPIRED: certificate has expired)");
    const elsewhere = await serverWith(['api.example.test'], new Date(now - DAY), new Date(now + 30 * DAY));
    const wrong = await registerFails(clientOf(elsewhere, trust));
    expect(wrong.reason).toBe('certificate');
    expect(wrong.message).toContain(
      "the server's certificate does not name this host (ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list",
    );
  });
});
