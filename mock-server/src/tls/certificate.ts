import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSecureContext as secureContext } from 'node:tls';
import { isWildcard, machineAddresses, machineNames } from './addresses.js';
import { localCertificate, names } from './local-ca.js';
import { TlsSetupError } from './setup-error.js';

export { TlsSetupError };

/** What the HTTPS side serves, as the banner and the tools that read it need to know. */
export interface ServedCertificate {
  /** The file clients trust: the local CA's certificate, or the given certificate (`--tls-cert`). */
  file: string;
  source: 'local' | 'given';
  /** With a local CA: what this start made (`authority`: a new CA, to be trusted anew). */
  made?: 'authority' | 'certificate';
  /** Why clients may refuse a given certificate (it expired, it does not name the host); empty when none. */
  warnings: string[];
}

/** The key and certificate chain the HTTPS server serves, and the CA the server trusts when it calls itself. */
interface TlsSetup {
  key: string;
  cert: string;
  certificate: ServedCertificate;
  /** The local CA's certificate (PEM); undefined for a given certificate, whose CA the server does not hold. */
  ownCa: string | undefined;
}

/**
 * The Android emulator's address for the machine it runs on (its `127.0.0.1`): an app in the emulator reaches the
 * server there, so the local certificate names it whatever the host.
 */
export const ANDROID_EMULATOR_HOST = '10.0.2.2';

/**
 * The names a local server certificate covers for a server listening on `host`: loopback, the machine's name, the
 * Android emulator's address of the host, and `host` itself, or with `0.0.0.0`/`::` each of the machine's addresses.
 *
 * @example
 * certificateNames('0.0.0.0'); // ['localhost', '127.0.0.1', '::1', 'ann-laptop', 'ann-laptop.local', '10.0.2.2', '192.168.1.20']
 */
export function certificateNames(host: string): string[] {
  const own = isWildcard(host) ? machineAddresses(host) : [host];
  return [...new Set(['localhost', '127.0.0.1', '::1', ...machineNames(), ANDROID_EMULATOR_HOST, ...own])];
}

async function readGiven(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new TlsSetupError(`cannot read the TLS ${what} ${file}: ${(error as Error).message}`);
  }
}

/** A given certificate (PEM, the server's first, then any intermediates) and its key, checked before serving. */
async function givenCertificate(certFile: string, keyFile: string, host: string): Promise<TlsSetup> {
  const [cert, key] = await Promise.all([readGiven(certFile, 'certificate'), readGiven(keyFile, 'key')]);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
    secureContext({ cert, key });
  } catch (error) {
    throw new TlsSetupError(
      `cannot serve ${certFile} with ${keyFile}: ${(error as Error).message} (both PEM, the key the certificate's)`,
    );
  }
  const warnings = [
    ...(new Date(leaf.validTo) < new Date() ? [`it expired on ${new Date(leaf.validTo).toISOString()}`] : []),
    ...(!isWildcard(host) && !names(leaf, host) ? [`it does not name ${host}, the address the server listens on`] : []),
  ];
  return { key, cert, certificate: { file: certFile, source: 'given', warnings }, ownCa: undefined };
}

/**
 * What the HTTPS side serves: the given certificate and key files, or else a certificate of the local CA kept in
 * `folder` for the names of `certificateNames(host)`.
 */
export async function tlsSetup(options: {
  host: string;
  folder: string;
  certFile?: string | undefined;
  keyFile?: string | undefined;
}): Promise<TlsSetup> {
  const { host, folder, certFile, keyFile } = options;
  if (certFile || keyFile) {
    if (!certFile || !keyFile)
      throw new TlsSetupError('a given certificate needs both files: --tls-cert and --tls-key');
    return givenCertificate(certFile, keyFile, host);
  }
  const local = await localCertificate(folder, certificateNames(host));
  return {
    key: local.key,
    cert: local.cert,
    certificate: { file: local.caFile, source: 'local', ...(local.made && { made: local.made }), warnings: [] },
    ownCa: local.ca,
  };
}
