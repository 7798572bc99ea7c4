// Makes X.509 certificates with @peculiar/x509 on Node's WebCrypto (docs/decisions.md says why this library).
// Imported only when a certificate must be made: the library and the Reflect polyfill it needs take a few hundred
// milliseconds to load, which a start that finds its certificates on disk does not pay.
import 'reflect-metadata';
import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Crypto);

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  key: string;
  cert: string;
}

interface MintOptions {
  /** ECDSA P-256 (the default: small, quick to make) or RSA 2048 (what mkcert makes). */
  algorithm?: 'ECDSA' | 'RSA';
  notBefore: Date;
  notAfter: Date;
}

const ALGORITHMS = {
  ECDSA: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
  RSA: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
};

const keyPair = (algorithm: MintOptions['algorithm'] = 'ECDSA') =>
  webcrypto.subtle.generateKey(ALGORITHMS[algorithm], true, ['sign', 'verify']) as Promise<CryptoKeyPair>;

async function pemKey(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}

/** The signing key of a PEM private key, with the algorithm it signs with. */
async function signingKey(pem: string): Promise<{ key: CryptoKey; algorithm: Algorithm }> {
  const object = createPrivateKey(pem);
  const algorithm = object.asymmetricKeyType === 'ec' ? ALGORITHMS.ECDSA : ALGORITHMS.RSA;
  const der = object.export({ type: 'pkcs8', format: 'der' });
  return { key: await webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']), algorithm };
}

// A positive serial number of 16 random bytes, as certificate authorities are asked to use.
const serialNumber = () => `7f${randomBytes(15).toString('hex')}`;

/**
 * A certificate authority of its own (self-signed, allowed to sign server certificates only: path length 0).
 *
 * @example
 * const ca = await mintAuthority('CN=basekit local CA', { notBefore: new Date(), notAfter: inTenYears });
 */
export async function mintAuthority(subject: string, options: MintOptions): Promise<KeyPair> {
  const keys = await keyPair(options.algorithm);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: subject,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    keys,
    signingAlgorithm: ALGORITHMS[options.algorithm ?? 'ECDSA'],
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { key: await pemKey(keys.privateKey), cert: cert.toString('pem') };
}

/**
 * A TLS server certificate for `names` (host names and IP addresses), signed by `authority`.
 *
 * @example
 * const server = await mintServerCertificate(ca, ['localhost', '127.0.0.1'], { notBefore, notAfter });
 */
export async function mintServerCertificate(
  authority: KeyPair,
  names: string[],
  options: MintOptions & { subject?: string },
): Promise<KeyPair> {
  const keys = await keyPair(options.algorithm);
  const issuer = new x509.X509Certificate(authority.cert);
  const signer = await signingKey(authority.key);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: options.subject ?? 'CN=basekit-server',
    issuer: issuer.subject,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    publicKey: keys.publicKey,
    signingKey: signer.key,
    signingAlgorithm: signer.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      // RSA keys may also be used to encrypt the session key (older TLS); elliptic-curve keys only sign.
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | (options.algorithm === 'RSA' ? x509.KeyUsageFlags.keyEncipherment : 0),
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map((value) => ({ type: isIP(value) ? ('ip' as const) : ('dns' as const), value })),
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(issuer),
    ],
  });
  return { key: await pemKey(keys.privateKey), cert: cert.toString('pem') };
}
