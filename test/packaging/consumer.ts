// Fresh consumer projects outside the workspace, built from packed tarballs, and the commands run in them.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, lstat, readdir, realpath, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, parse, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const WORKSPACE = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('fixtures', import.meta.url));
const execFileAsync = promisify(execFile);

/**
 * The environment of a command in a consumer: the caller's, without what `npm test` and Vitest add (npm's
 * `npm_*` settings would point npm at the workspace, its `node_modules/.bin` on PATH would offer workspace
 * binaries, and NODE_OPTIONS may carry the workspace's `@basekit/source` condition).
 */
export function consumerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST)/i.test(key) || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes(`node_modules${sep}.bin`))
    .join(delimiter);
  return env;
}

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a non-zero exit is returned, not thrown, so a test can show its output. */
export async function run(command: string, args: string[], cwd: string, timeout = 120_000): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, {
      cwd,
      env: consumerEnv(),
      timeout,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, stdout, stderr: `${stderr}\n${String(error)}` };
  }
}

/** Like `run`, but a failure throws with the command's output. */
export async function mustRun(command: string, args: string[], cwd: string): Promise<string> {
  const outcome = await run(command, args, cwd);
  if (outcome.code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${outcome.stdout}\n${outcome.stderr}`);
  return outcome.stdout;
}

/** The JavaScript file of a workspace tool's bin, run with this Node (a tool, never a package under test). */
export function workspaceBin(pkg: string, name = pkg): string {
  const manifest = createRequire(join(WORKSPACE, 'package.json')).resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin[name]!);
}

/** A folder with a `node_modules` above `dir` would let its packages leak into the consumer. */
export function ancestorNodeModules(dir: string): string[] {
  const found: string[] = [];
  for (let at = dirname(dir); ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) found.push(join(at, 'node_modules'));
    if (at === parse(at).root) return found;
  }
}

/** Every symlink under `dir` whose target lies outside `dir` (npm links workspaces and `file:` folders so). */
export async function linksLeaving(dir: string): Promise<string[]> {
  const root = await realpath(dir);
  const leaving: string[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    const path = join(dir, entry);
    if (!(await lstat(path)).isSymbolicLink()) continue;
    const target = await realpath(path).catch(() => path);
    if (relative(root, target).startsWith('..')) leaving.push(`${entry} -> ${target}`);
  }
  return leaving;
}

/**
 * A new consumer project in `dir`: a `package.json`, the files of `fixtures/<fixture>`, and `packages` installed
 * from the registry or from tarball paths, as its author would (`--prefer-offline`: the npm cache first).
 */
export async function createConsumer(dir: string, fixture: string, packages: string[]): Promise<void> {
  await cp(join(FIXTURES, fixture), dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: fixture, version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  await mustRun('npm', ['install', ...packages, '--prefer-offline', '--no-audit', '--no-fund'], dir);
}

/** Which of `names` are anywhere in a consumer's dependency tree, as `name@version` (by `npm ls`). */
export async function installed(dir: string, names: string[]): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', ...names, '--all', '--json'], dir);
  const found = new Set<string>();
  type Tree = Record<string, { version?: string; dependencies?: Tree }>;
  const walk = (deps: Tree = {}) => {
    for (const [dep, info] of Object.entries(deps)) {
      if (names.includes(dep)) found.add(`${dep}@${info.version}`);
      walk(info.dependencies);
    }
  };
  walk((JSON.parse(stdout || '{}') as { dependencies?: Tree }).dependencies);
  return [...found].sort();
}
