// `npm start`: rebuild the server (and its panel) only when a source is newer than its last build, then run it in this process.
// `tsc -b` alone would find "nothing changed" too, but costs more than the server's own start-up to find it.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PROJECTS = ['packages/engine', 'mock-server'].map((project) => join(root, project));

const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;

function newest(dir) {
  let latest = mtime(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : mtime(path));
  }
  return latest;
}

const builtAt = Math.min(...PROJECTS.map((project) => mtime(join(project, 'tsconfig.tsbuildinfo'))));
const changedAt = Math.max(
  mtime(join(root, 'tsconfig.base.json')),
  ...PROJECTS.flatMap((project) => [
    newest(join(project, 'src')),
    mtime(join(project, 'tsconfig.json')),
    mtime(join(project, 'package.json')),
  ]),
);
const run = (...args) => {
  const build = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
};
if (changedAt > builtAt) run(join(root, 'node_modules/typescript/bin/tsc'), '-b', join(root, 'mock-server'));

// The management panel (packages/panel): its own Vite build into mock-server/panel/dist, rebuilt the same way when
// one of its sources is newer.
const panel = join(root, 'packages/panel');
const panelChangedAt = Math.max(
  newest(join(panel, 'src')),
  ...['index.html', 'vite.config.ts'].map((file) => mtime(join(panel, file))),
);
if (panelChangedAt > mtime(join(root, 'mock-server/panel/dist/index.html')))
  run(join(root, 'node_modules/vite/bin/vite.js'), 'build', panel, '--logLevel', 'warn');
await import('../bin/basekit-server.js');
