import { X509Certificate, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { userInfo, hostname } from 'node:os';
import { join } from 'node:path';
import type { KeyPair } from './mint.js';

/** What a start serves over HTTPS from its folder, and what it had to make for it. */
interface LocalCertificate extends KeyPair {
  /** The CA certificate that clients trust once (`ca.pem` in the folder). */
  caFile: string;
  /** The CA certificate, PEM: what the server itself trusts when it calls its own HTTPS address. */
  ca: string;
  /** `authority` when this start made a new CA (it must be trusted anew), `certificate` when only the server's. */
  made: 'authority' | 'certificate' | undefined;
}

const DAY = 24 * 3600 * 1000;
/** The CA lives long: trusting it is the step that takes a person's time. */
const AUTHORITY_DAYS = 10 * 365;
/** Apple platforms refuse server certificates valid for more than 825 days; browsers' rules for public CAs say 398. */
const CERTIFICATE_DAYS = 397;
/** A server certificate this close to its end is made anew at start-up, so a running server does not see it expire. */
const RENEW_DAYS = 30;
/** Certificates start a little in the past: a phone whose clock runs behind still accepts them. */
const BACKDATE = 3600 * 1000;

const FILES = { ca: 'ca.pem', authority: 'ca-key.pem', server: 'server.pem' };

const pemBlocks = (text: string, label: string) =>
  text.match(new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----\\n?`, 'g')) ?? [];

/** A key and certificate kept together in one file (so that a reader never sees one without the other). */
function parsePair(text: string | undefined): KeyPair | undefined {
  if (!text) return undefined;
  const [key] = pemBlocks(text, 'PRIVATE KEY');
  const [cert] = pemBlocks(text, 'CERTIFICATE');
  return key && cert ? { key, cert } : undefined;
}

const readText = (file: string) => readFile(file, 'utf8').catch(() => undefined);
const temporary = (file: string) => `${file}.${randomBytes(6).toString('hex')}.tmp`;

/** Writes `file` whole and only if it does not exist yet; false when another process made it first. */
async function createExclusive(file: string, text: string, mode: number): Promise<boolean> {
  const temp = temporary(file);
  await writeFile(temp, text, { mode, flag: 'wx' });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/** Replaces `file` whole: readers see the old content or the new, never a part. */
async function replace(file: string, text: string, mode: number): Promise<void> {
  const temp = temporary(file);
  await writeFile(temp, text, { mode, flag: 'wx' });
  await rename(temp, file).catch(async (error: unknown) => {
    await rm(temp, { force: true });
    throw error;
  });
}

const lifetime = (days: number, now: Date) => ({
  notBefore: new Date(now.getTime() - BACKDATE),
  notAfter: new Date(now.getTime() + days * DAY),
});

const validFor = (cert: X509Certificate, now: Date, days: number) =>
  new Date(cert.validFrom) <= now && new Date(cert.validTo).getTime() - now.getTime() > days * DAY;

/** True when `cert` names `name` (a host name or an IP address). */
export const names = (cert: X509Certificate, name: string): boolean =>
  (isIP(name) ? cert.checkIP(name) : cert.checkHost(name, { wildcards: false })) !== undefined;

/** The server certificate kept in `text` still serves: signed by `authority`, long enough left, every name in it. */
function stillServes(text: string | undefined, authority: X509Certificate, wanted: string[], now: Date): boolean {
  const pair = parsePair(text);
  if (!pair) return false;
  const cert = new X509Certificate(pair.cert);
  return (
    cert.checkIssued(authority) &&
    cert.verify(authority.publicKey) &&
    validFor(cert, now, RENEW_DAYS) &&
    wanted.every((name) => names(cert, name))
  );
}

/** The CA kept in the folder, made first when there is none or it ran out (then it must be trusted anew). */
async function authorityIn(folder: string, now: Date): Promise<{ pair: KeyPair; made: boolean }> {
  const file = join(folder, FILES.authority);
  const kept = parsePair(await readText(file));
  if (kept && validFor(new X509Certificate(kept.cert), now, RENEW_DAYS)) return { pair: kept, made: false };
  const { mintAuthority } = await import('./mint.js');
  const owner = `${userInfo().username}@${hostname()}`.replace(/[,+="<>#;\\]/g, '');
  const made = await mintAuthority(
    `CN=basekit local CA (${owner}),O=basekit development CA`,
    lifetime(AUTHORITY_DAYS, now),
  );
  const text = made.key + made.cert;
  if (kept) await replace(file, text, 0o600);
  // Two servers starting at once on the same folder: the first CA written is the one both use.
  else if (!(await createExclusive(file, text, 0o600))) return { pair: parsePair(await readText(file))!, made: false };
  return { pair: made, made: true };
}

/**
 * The local certificate authority and a server certificate for `wanted` (host names and addresses), kept in
 * `folder` and reused across restarts: the CA is made once (`ca-key.pem`, its certificate also alone in `ca.pem` to
 * hand to clients), the server certificate (`server.pem`) again whenever the names change or it nears its end. Keys
 * are written 0600 in a 0700 folder.
 *
 * @example
 * const tls = await localCertificate('/home/ann/.local/share/basekit/tls', ['localhost', '127.0.0.1', '::1']);
 * https.createServer({ key: tls.key, cert: tls.cert }); // clients trust tls.caFile
 */
export async function localCertificate(folder: string, wanted: string[], now = new Date()): Promise<LocalCertificate> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const authority = await authorityIn(folder, now);
  const caFile = join(folder, FILES.ca);
  if ((await readText(caFile)) !== authority.pair.cert) await replace(caFile, authority.pair.cert, 0o644);
  const serverFile = join(folder, FILES.server);
  const keptText = await readText(serverFile);
  const caCert = new X509Certificate(authority.pair.cert);
  let server = parsePair(keptText);
  let made: LocalCertificate['made'] = authority.made ? 'authority' : undefined;
  if (authority.made || !stillServes(keptText, caCert, wanted, now)) {
    const { mintServerCertificate } = await import('./mint.js');
    server = await mintServerCertificate(authority.pair, wanted, lifetime(CERTIFICATE_DAYS, now));
    await replace(serverFile, server.key + server.cert, 0o600);
    made ??= 'certificate';
  }
  return { key: server!.key, cert: server!.cert, caFile, ca: authority.pair.cert, made };
}
