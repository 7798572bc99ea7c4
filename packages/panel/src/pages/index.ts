// The table of pages: the navigation lists them in this order. Each page is imported when first opened, but the build
// puts every page in the panel's one chunk (vite.config.ts says why), so opening one loads nothing more. A page's
// module default-exports its component; `params` are the URL segments after its name.
import type { FunctionComponent } from 'preact';
import type { PageProps } from './page-props.js';

export interface PageEntry {
  /** The URL segment: /__admin/panel/<name>/... */
  name: string;
  title: string;
  load: () => Promise<{ default: FunctionComponent<PageProps> }>;
}

export const pages: PageEntry[] = [
  { name: 'project', title: 'Project', load: () => import('./project.js') },
  { name: 'users', title: 'Users', load: () => import('./users.js') },
  { name: 'database', title: 'Database', load: () => import('./database.js') },
  { name: 'files', title: 'Files', load: () => import('./files.js') },
  { name: 'transcoder', title: 'Transcoder', load: () => import('./transcoder.js') },
  { name: 'leaderboards', title: 'Leaderboards', load: () => import('./leaderboards.js') },
  { name: 'requests', title: 'Requests', load: () => import('./requests.js') },
];
