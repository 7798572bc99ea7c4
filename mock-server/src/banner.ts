import type { Config } from '@basekit/engine';

/** The start-up banner: every key and URL a developer needs to point an app at this server. */
export function banner(url: string, config: Config, notes: string[] = []): string {
  const on = (s: keyof Config['services']) => (config.services[s] ? '' : ' (disabled)');
  return [
    'basekit reference server',
    `  base_url        ${url}   users${on('users')}, database${on('database')}, leaderboards${on('leaderboards')}`,
    `  storage_url     ${url}   bucket "${config.bucket}"${on('storage')}, files ${config.dataDir ? `kept in ${config.dataDir}` : 'in memory'}`,
    `  transcoder_url  ${url}${on('transcoder')}`,
    `  X-Service-Authentication-Id    ${config.authenticationId}`,
    `  client key                     ${config.clientKey}`,
    `  master key                     ${config.masterKey}`,
    `  X-Service-Object-Storage-Id    ${config.objectStorageId}`,
    `  X-Service-Storage-Id           ${config.storageId}`,
    `  X-Service-Game-Id              ${config.gameId}`,
    `  leaderboards                   ${config.leaderboards.map((b) => b.id).join(', ') || '(none)'}`,
    `  admin API                      ${url}/__admin/* with X-Service-Authentication-Key: <master key>`,
    ...(config.emailConfirmation ? [`  e-mail confirmation            on: new users confirm through the links at ${url}/__admin/outbox`] : []),
    ...notes.map((n) => `  note: ${n}`),
  ].join('\n');
}
