import type { Hashing } from '../../shared/capabilities.js';
import { Crc32 } from './crc32.js';
import { Md5 } from './md5.js';

/** MD5 and CRC-32 in portable JavaScript, for platforms that give no faster ones (browsers). */
export const portableHashing: Hashing = { md5: () => new Md5(), crc32: () => new Crc32() };
