// What a host name says about where a request comes from, for a server reached over a network: the names
// it answers admin calls under, and the sites whose pages may use its public keys.

/** The host name of `host` (`name`, `name:port`, `[v6]:port`) as URLs write it, or undefined when it is none. */
export function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** The four numbers of an IPv4 address, also when written as an IPv4-mapped IPv6 one (`[::ffff:7f00:1]`). */
function ipv4Of(hostname: string): number[] | undefined {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(hostname);
  if (mapped) {
    const [high, low] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
    return [high >> 8, high & 255, low >> 8, low & 255];
  }
  const parts = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  return parts ? parts.slice(1).map(Number) : undefined;
}

/** True for an IP address (URLs write IPv6 ones in brackets); such a name cannot be rebound by DNS. */
export const isIpAddress = (hostname: string) => hostname.startsWith('[') || ipv4Of(hostname) !== undefined;

/**
 * True for this machine: `localhost` and the names below it (RFC 6761), 127.0.0.0/8 and `::1` (a host name as URLs
 * write it).
 *
 * @example
 * isLoopback(new URL('http://127.0.0.1:3000').hostname); // true
 * isLoopback('[::1]'); // true
 * isLoopback('0.0.0.0'); // false: every address of the machine
 */
export function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]') return true;
  return ipv4Of(hostname)?.[0] === 127;
}

/**
 * True for a name only this machine or its local network can be reached under: loopback, the addresses of private
 * networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local ones (169.254/16, fe80::/10), and the
 * unspecified address (`0.0.0.0`, `::`), which browsers take for this machine.
 */
export function isLocal(hostname: string): boolean {
  if (isLoopback(hostname)) return true;
  const v4 = ipv4Of(hostname);
  if (v4) {
    const [a, b] = v4 as [number, number];
    return (
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b < 32) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b < 128)
    );
  }
  return hostname === '[::]' || /^\[f[cd]/.test(hostname) || /^\[fe[89ab]/.test(hostname);
}

/** True when `hostname` is one of `names`, or lies below one of those written with a leading dot (`.example.com`). */
export function isNamed(hostname: string, names: readonly string[]): boolean {
  return names.some((name) => {
    const lower = name.toLowerCase();
    return lower.startsWith('.') ? hostname === lower.slice(1) || hostname.endsWith(lower) : hostname === lower;
  });
}
