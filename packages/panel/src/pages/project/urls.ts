import type { ProjectConfig } from '../../api.js';

/** Where clients reach the server: its `publicUrl`, else the address this page came from (the server's own). */
export function serverUrl(config: ProjectConfig): string {
  return (config.publicUrl ?? location.origin).replace(/\/+$/, '');
}
