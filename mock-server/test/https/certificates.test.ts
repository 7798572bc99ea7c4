import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { machineAddresses } from '../../src/tls/addresses.js';
import { ANDROID_EMULATOR_HOST, TlsSetupError, certificateNames } from '../../src/tls/certificate.js';
import { localCertificate, names } from '../../src/tls/local-ca.js';
import { mintAuthority, mintServerCertificate } from '../../src/tls/mint.js';
import { userDataFolder } from '../../src/tls/user-folder.js';
import { presentedCertificate, trustingFetch } from './support.js';

/** The local CA and the server certificate it signs, kept and reused; certificates given as files. */

const DAY = 24 * 3600 * 1000;
const folder = () => mkdtemp(join(tmpdir(), 'basekit-certs-'));
const mode = async (path: string) => (await stat(path)).mode & 0o777;
const read = (path: string) => readFile(path, 'utf8');

/** Writes a key pair as files the way mkcert does (`NAME.pem`, `NAME-key.pem`); returns their paths. */
async function pemFiles(dir: string, name: string, pair: { cert: string; key: string }) {
  const certFile = join(dir, `${name}.pem`);
  const keyFile = join(dir, `${name}-key.pem`);
  await Promise.all([writeFile(certFile, pair.cert), writeFile(keyFile, pair.key)]);
  return { certFile, keyFile };
}

describe('the local CA', () => {
  it('is made once and reused across restarts with the server certificate; keys 0600 in a 0700 folder', async () => {
    const dir = join(await folder(), 'tls');
    const wanted = ['localhost', '127.0.0.1'];
    const first = await localCertificate(dir, wanted);
    expect(first.made).toBe('authority');
    const second = await localCertificate(dir, wanted);
    expect(second).toMatchObject({ made: undefined, ca: first.ca, cert: first.cert, key: first.key });
    expect(await read(join(dir, 'ca.pem'))).toBe(first.ca);
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(join(dir, 'ca-key.pem'))).toBe(0o600);
    expect(await mode(join(dir, 'server.pem'))).toBe(0o600);
    const ca = new X509Certificate(first.ca);
    expect(ca.ca).toBe(true);
    expect(new X509Certificate(first.cert).checkIssued(ca)).toBe(true);
  });

  it('makes a new server certificate, not a new CA, when the names change or the certificate nears its end', async () => {
    const dir = await folder();
    const first = await localCertificate(dir, ['localhost']);
    const renamed = await localCertificate(dir, ['localhost', '192.0.2.10']);
    expect(renamed).toMatchObject({ made: 'certificate', ca: first.ca });
    expect(renamed.cert).not.toBe(first.cert);
    expect(names(new X509Certificate(renamed.cert), '192.0.2.10')).toBe(true);
    const validTo = new Date(new X509Certificate(renamed.cert).validTo).getTime();
    const nearEnd = await localCertificate(dir, ['localhost', '192.0.2.10'], new Date(validTo - 10 * DAY));
    expect(nearEnd).toMatchObject({ made: 'certificate', ca: first.ca });
    // A CA that ran out is made anew (and must be trusted anew: `made` says so).
    const caEnd = new Date(new X509Certificate(first.ca).validTo).getTime();
    const later = await localCertificate(dir, ['localhost'], new Date(caEnd + DAY));
    expect(later.made).toBe('authority');
    expect(later.ca).not.toBe(first.ca);
  });

  it('is one CA when several servers start at once on an empty folder', async () => {
    const dir = await folder();
    const all = await Promise.all([1, 2, 3, 4].map(() => localCertificate(dir, ['localhost'])));
    expect(new Set(all.map((c) => c.ca)).size).toBe(1);
    expect(all.filter((c) => c.made === 'authority')).toHaveLength(1);
    const ca = new X509Certificate(all[0]!.ca);
    for (const { cert } of all) expect(new X509Certificate(cert).verify(ca.publicKey)).toBe(true);
  });

  it('names loopback, the machine, the Android emulator host and the listen address, or every address for 0.0.0.0', () => {
    const base = ['localhost', '127.0.0.1', '::1', ANDROID_EMULATOR_HOST];
    expect(certificateNames('192.0.2.77')).toEqual(expect.arrayContaining([...base, '192.0.2.77']));
    expect(certificateNames('0.0.0.0')).toEqual(expect.arrayContaining([...base, ...machineAddresses('0.0.0.0')]));
    expect(certificateNames('0.0.0.0')).not.toContain('0.0.0.0');
  });

  it('is kept in the data folder when there is one', async () => {
    const dataDir = await folder();
    const server = await startServer({ port: 0, httpsPort: 0, dataDir });
    try {
      expect(server.certificate!.file).toBe(join(dataDir, 'tls', 'ca.pem'));
      const presented = await presentedCertificate(server.httpsUrl!, await read(server.certificate!.file));
      expect(presented.authorized).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("is kept in each platform's per-user folder otherwise", () => {
    expect(userDataFolder({ XDG_DATA_HOME: '/x/data' }, 'linux', '/home/ann')).toBe('/x/data/basekit');
    expect(userDataFolder({}, 'linux', '/home/ann')).toBe('/home/ann/.local/share/basekit');
    expect(userDataFolder({ XDG_DATA_HOME: 'relative' }, 'linux', '/home/ann')).toBe('/home/ann/.local/share/basekit');
    expect(userDataFolder({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/basekit');
    expect(userDataFolder({ LOCALAPPDATA: 'C:/Users/ann/AppData/Local' }, 'win32', 'C:/Users/ann')).toBe(
      join('C:/Users/ann/AppData/Local', 'basekit'),
    );
  });
});

describe('a given certificate (--tls-cert, --tls-key)', () => {
  it('serves a certificate made the way mkcert makes them: that one, verified by its root', async () => {
    const dir = await folder();
    const now = Date.now();
    const lifetime = { notBefore: new Date(now - DAY), notAfter: new Date(now + 800 * DAY), algorithm: 'RSA' as const };
    // mkcert: an RSA root of its own, an RSA leaf with no common name, serverAuth, the names as SANs, a PKCS#8 key.
    const root = await mintAuthority('CN=mkcert ann@laptop,OU=ann@laptop,O=mkcert development CA', lifetime);
    const leaf = await mintServerCertificate(root, ['localhost', '127.0.0.1', '::1'], {
      ...lifetime,
      subject: 'OU=ann@laptop,O=mkcert development certificate',
    });
    const files = await pemFiles(dir, 'localhost+2', leaf);
    const server = await startServer({ port: 0, httpsPort: 0, tlsCert: files.certFile, tlsKey: files.keyFile });
    try {
      expect(server.certificate).toEqual({ file: files.certFile, source: 'given', warnings: [] });
      const presented = await presentedCertificate(server.httpsUrl!, root.cert);
      expect(presented).toEqual({ fingerprint256: new X509Certificate(leaf.cert).fingerprint256, authorized: true });
      const res = await trustingFetch(root.cert)(`${server.httpsUrl}/auth/users`, {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': 'dev-auth-id', 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'mkcert-user', password: 'pw' }),
      });
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('says why it cannot serve one: a key of another certificate, a missing file, one file of the two', async () => {
    const dir = await folder();
    const lifetime = { notBefore: new Date(), notAfter: new Date(Date.now() + 30 * DAY) };
    const root = await mintAuthority('CN=test root', lifetime);
    const a = await pemFiles(dir, 'a', await mintServerCertificate(root, ['localhost'], lifetime));
    const b = await pemFiles(dir, 'b', await mintServerCertificate(root, ['localhost'], lifetime));
    const start = (tlsCert?: string, tlsKey?: string) => startServer({ port: 0, httpsPort: 0, tlsCert, tlsKey });
    await expect(start(a.certFile, b.keyFile)).rejects.toThrow(
      new TlsSetupError(
        `cannot serve ${a.certFile} with ${b.keyFile}: error:05800074:x509 certificate routines::key values mismatch (both PEM, the key the certificate's)`,
      ),
    );
    await expect(start(a.certFile, join(dir, 'nope.pem'))).rejects.toThrow(
      `cannot read the TLS key ${join(dir, 'nope.pem')}`,
    );
    await expect(start(a.certFile)).rejects.toThrow('a given certificate needs both files: --tls-cert and --tls-key');
  });

  it('warns when clients will refuse it: expired, or not naming the address the server listens on', async () => {
    const dir = await folder();
    const now = Date.now();
    const root = await mintAuthority('CN=test root', {
      notBefore: new Date(now - 60 * DAY),
      notAfter: new Date(now + DAY),
    });
    const old = { notBefore: new Date(now - 30 * DAY), notAfter: new Date(now - DAY) };
    const files = await pemFiles(dir, 'old', await mintServerCertificate(root, ['api.example.test'], old));
    const server = await startServer({ port: 0, httpsPort: 0, tlsCert: files.certFile, tlsKey: files.keyFile });
    await server.close();
    expect(server.certificate!.warnings).toEqual([
      `it expired on ${old.notAfter.toISOString().replace(/\.\d+Z$/, '.000Z')}`,
      'it does not name 127.0.0.1, the address the server listens on',
    ]);
  });
});
