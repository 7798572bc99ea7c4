import type { Config } from '@basekit/engine';
import { PANEL_PATH } from './panel.js';
import { reach } from './tls/addresses.js';
import type { ServedCertificate } from './tls/certificate.js';

/** The HTTPS side of the server, for the banner. */
interface HttpsBanner {
  url: string;
  certificate: ServedCertificate;
}

/** The lines about HTTPS: its address, the certificate to trust, and both protocols on the machine's other networks. */
function reachLines(httpUrl: string, https: HttpsBanner | undefined): string[] {
  const http = reach(httpUrl);
  const secure = https && reach(https.url);
  const { certificate } = https ?? {};
  const trust =
    certificate?.source === 'local'
      ? 'the local CA: trust it once (Node: NODE_EXTRA_CA_CERTS; browsers, phones: docs/devices.md)'
      : '(given with --tls-cert)';
  const label = (text: string) => `  ${text.padEnd(16)}`;
  return [
    ...(secure
      ? [`${label('over HTTPS')}${secure.local}   the same areas, panel and admin API; HTTP/2 where offered`]
      : []),
    ...(certificate ? [`${label('certificate')}${certificate.file}   ${trust}`] : []),
    ...http.network.map(
      (address, i) => `${label(i ? '' : 'other machines')}${address}${secure ? `   ${secure.network[i]}` : ''}`,
    ),
  ];
}

/** The start-up banner: every key and URL a developer needs to point an app at this server, warnings first. */
export function banner(
  listenUrl: string,
  config: Config,
  notes: string[] = [],
  https: HttpsBanner | undefined = undefined,
  warnings: string[] = [],
): string {
  // Listening on 0.0.0.0 or ::, this machine reaches the server on loopback; other machines on the addresses below.
  const url = reach(listenUrl).local;
  const on = (s: keyof Config['services']) => (config.services[s] ? '' : ' (disabled)');
  const word = config.headerWord[0];
  const header = (name: string) => `X-${word}-${name}`.padEnd(31);
  return [
    'basekit reference server',
    ...warnings.map((w) => `  WARNING: ${w}`),
    `  base_url        ${url}   users${on('users')}, database${on('database')}, leaderboards${on('leaderboards')}`,
    `  storage_url     ${url}   bucket "${config.bucket}"${on('storage')}, every state and file ${config.dataDir ? `kept in ${config.dataDir}` : 'in memory'}`,
    `  transcoder_url  ${url}${on('transcoder')}`,
    ...reachLines(listenUrl, https),
    `  ${header('Authentication-Id')}${config.authenticationId}`,
    `  client key                     ${config.clientKey}`,
    `  master key                     ${config.masterKey}`,
    `  ${header('Object-Storage-Id')}${config.objectStorageId}`,
    `  ${header('Storage-Id')}${config.storageId}`,
    `  ${header('Game-Id')}${config.gameId}`,
    `  leaderboards                   ${config.leaderboards.map((b) => b.id).join(', ') || '(none)'}`,
    `  admin API                      ${url}/__admin/* with X-${word}-Authentication-Key: <master key>`,
    `  panel                          ${url}${PANEL_PATH} (sign in with the master key)`,
    ...(config.headerWord.length > 1
      ? [`  header words                   ${config.headerWord.join(', ')} (X-<word>-… accepted for each)`]
      : []),
    ...(config.emailConfirmation
      ? [`  e-mail confirmation            on: new users confirm through the links at ${url}/__admin/outbox`]
      : []),
    ...notes.map((n) => `  note: ${n}`),
  ].join('\n');
}
