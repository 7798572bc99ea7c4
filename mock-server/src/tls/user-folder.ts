import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * The per-user folder where basekit keeps what must outlive a server that has no data folder (its local certificate
 * authority, so that a CA trusted once stays trusted): each platform's usual place for an application's data.
 *
 * @example
 * userDataFolder(); // '/home/ann/.local/share/basekit' on Linux
 */
export function userDataFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env['LOCALAPPDATA'] || join(home, 'AppData', 'Local'), 'basekit');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'basekit');
  // The XDG base directory spec: a relative XDG_DATA_HOME is invalid and ignored.
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'basekit');
}
