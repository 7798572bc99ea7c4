import { hostname, networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

/** True for the hosts that listen on every address of the machine: `0.0.0.0`, `::`. */
export const isWildcard = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '';

/**
 * The machine's own addresses that other machines (a phone, an emulator's host bridge, a colleague) can reach while
 * the server listens on `host`: for `0.0.0.0` its IPv4 addresses, for `::` its IPv6 ones too; for any other host,
 * none beyond it. Loopback and link-local addresses are left out (the first reach no other machine, the second need
 * a zone that URLs cannot carry).
 *
 * @example
 * machineAddresses('0.0.0.0'); // ['192.168.1.20']
 */
export function machineAddresses(host: string): string[] {
  if (!isWildcard(host)) return [];
  const families = host === '::' ? ['IPv4', 'IPv6'] : ['IPv4'];
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && families.includes(a.family) && !a.address.toLowerCase().startsWith('fe80:'))
    .map((a) => a!.address);
}

/** `host` as it goes in a URL: IPv6 addresses in brackets. */
export const urlHost = (host: string): string => (isIP(host) === 6 ? `[${host}]` : host);

/** The machine's name as a DNS name, when it is one (`vm`, `ann-laptop`), and its mDNS name (`ann-laptop.local`). */
export function machineNames(name: string = hostname()): string[] {
  const label = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  const labels = name.split('.');
  if (!name || !labels.every((l) => label.test(l))) return [];
  // Phones on the same network find a Mac (or a Linux machine running Avahi) by its name under .local.
  return labels.length === 1 ? [name, `${name}.local`] : [name];
}

/** Where clients reach a server that listens at `url` (`http://HOST:PORT`, `https://…`). */
interface Reach {
  /** The address to use on this machine: `url` itself, or for `0.0.0.0`/`::` the loopback address. */
  local: string;
  /** For `0.0.0.0`/`::`, the address on each of the machine's networks (phones, emulators, other machines). */
  network: string[];
}

/**
 * Where clients reach a server listening at `url`: `http://0.0.0.0:3000` is no address a phone (or a browser on
 * Windows) can use; the machine's own addresses are.
 *
 * @example
 * reach('http://0.0.0.0:3000'); // { local: 'http://127.0.0.1:3000', network: ['http://192.168.1.20:3000'] }
 */
export function reach(url: string): Reach {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!isWildcard(host)) return { local: url, network: [] };
  const at = (address: string) => `${parsed.protocol}//${urlHost(address)}${parsed.port && `:${parsed.port}`}`;
  return { local: at(host === '::' ? '::1' : '127.0.0.1'), network: machineAddresses(host).map(at) };
}
