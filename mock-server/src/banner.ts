import type { Config } from '@basekit/engine';
import { PANEL_PATH } from './panel.js';

/** The start-up banner: every key and URL a developer needs to point an app at this server, warnings first. */
export function banner(url: string, config: Config, notes: string[] = [], warnings: string[] = []): string {
  const on = (s: keyof Config['services']) => (config.services[s] ? '' : ' (disabled)');
  const word = config.headerWord[0];
  const header = (name: string) => `X-${word}-${name}`.padEnd(31);
  return [
    'basekit reference server',
    ...warnings.map((w) => `  WARNING: ${w}`),
    `  base_url        ${url}   users${on('users')}, database${on('database')}, leaderboards${on('leaderboards')}`,
    `  storage_url     ${url}   bucket "${config.bucket}"${on('storage')}, every state and file ${config.dataDir ? `kept in ${config.dataDir}` : 'in memory'}`,
    `  transcoder_url  ${url}${on('transcoder')}`,
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
