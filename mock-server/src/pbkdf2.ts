import { pbkdf2 as nodePbkdf2 } from 'node:crypto';
import type { Pbkdf2 } from '@basekit/engine';

/**
 * The engine's `pbkdf2` capability in Node: `crypto.pbkdf2`, the same PBKDF2-HMAC-SHA256 as WebCrypto's `deriveBits`
 * (the same bytes, computed by the same OpenSSL job on the thread pool), without WebCrypto's key import and argument
 * checks on the server's thread (measured: about 35 against 110 µs of that thread's CPU a hash).
 */
export const pbkdf2: Pbkdf2 = (password, salt, iterations, length) =>
  new Promise((resolve, reject) =>
    nodePbkdf2(password, salt, iterations, length, 'sha256', (error, key) => (error ? reject(error) : resolve(key))),
  );
