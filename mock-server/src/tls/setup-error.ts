// Apart from certificate.ts, so that the CLI can recognise the error without loading the TLS modules on every start.

/** A given certificate or key that cannot be served; the message says which file and why. */
export class TlsSetupError extends Error {
  override name = 'TlsSetupError';
}
