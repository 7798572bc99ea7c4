import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Moment } from '../../shared/moment.js';

/**
 * How the state keeps a refresh token: its SHA-256, hex, so that a copy of the state (an export, the data folder)
 * opens no session. Synchronous (WebCrypto's digest is not), so that an older export's tokens are kept so on import.
 */
export const tokenDigest = (token: string): string => bytesToHex(sha256(utf8ToBytes(token)));

/** The digest of a token a client sent or was handed, which the journal keeps in place of the token. */
export const secretTokenDigest = (moment: Moment, token: string): Promise<string> =>
  moment.secretOutcome(async () => tokenDigest(token));
