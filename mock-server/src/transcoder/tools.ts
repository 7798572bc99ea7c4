import { spawn } from 'node:child_process';
import type { ConverterRun } from '@basekit/engine';
import { access, constants } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';

/** The ffmpeg and ffprobe executables this server runs. */
export interface Tools {
  ffmpeg: string;
  ffprobe: string;
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

async function onPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    if (await isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * ffmpeg at `FFMPEG_PATH`, else on `PATH`; ffprobe at `FFPROBE_PATH`, else beside ffmpeg, else on `PATH`.
 * The answer is a reason (a string) when they cannot be used.
 */
export async function findTools(env: NodeJS.ProcessEnv = process.env): Promise<Tools | string> {
  const configured = env['FFMPEG_PATH'];
  const ffmpeg = configured ?? (await onPath('ffmpeg', env));
  if (!ffmpeg || !(await isExecutable(ffmpeg))) {
    return configured
      ? `FFMPEG_PATH=${configured} is not an executable file`
      : "ffmpeg was not found on PATH (install Debian's ffmpeg package or set FFMPEG_PATH)";
  }
  const sibling = join(dirname(ffmpeg), 'ffprobe');
  const ffprobe = env['FFPROBE_PATH'] ?? ((await isExecutable(sibling)) ? sibling : await onPath('ffprobe', env));
  if (!ffprobe || !(await isExecutable(ffprobe)))
    return `ffprobe was not found beside ${ffmpeg} nor on PATH (set FFPROBE_PATH)`;
  try {
    await runTool(ffmpeg, ['-hide_banner', '-version']);
  } catch (error) {
    return `${ffmpeg} does not run: ${(error as Error).message}`;
  }
  return { ffmpeg, ffprobe };
}

/** The last lines of a tool's error output: enough to say why it failed. */
function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ').slice(-600);
}

/** Characters of a tool's error output kept: only the end matters, and the job history keeps it. */
const KEPT_OUTPUT = 8000;

/** An argument as a POSIX shell would need it written, so that a logged command can be pasted and run. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Options of `runTool`: where it runs, what kills it, and who is told of the run when it ends. */
export interface RunOptions {
  signal?: AbortSignal;
  cwd?: string;
  log?: (run: ConverterRun) => void;
}

/**
 * Runs a tool to its end, in `cwd` when given; its standard output, or an error carrying the end of its error
 * output. `signal` kills it; `log` receives the command line, its time and the end of its error output.
 */
export function runTool(bin: string, args: string[], { signal, cwd, log }: RunOptions = {}): Promise<string> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, cwd });
    let stdout = '';
    let stderr = '';
    // A killed or unstartable process may report both an error and its close: log it once.
    let logged = (exitCode: number | null) => {
      logged = () => {};
      log?.({ command: [bin, ...args].map(shellWord).join(' '), ms: Date.now() - started, exitCode, output: stderr });
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-KEPT_OUTPUT)));
    child.once('error', (error) => {
      logged(null);
      reject(error);
    });
    child.once('close', (code) => {
      logged(code);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${bin.split('/').pop()} exited with ${code ?? 'a signal'}: ${tail(stderr)}`));
    });
  });
}
