import { spawn } from 'node:child_process';
import type { ConverterRun } from '@basekit/engine';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** The ffmpeg and ffprobe executables this server runs. */
export interface Tools {
  ffmpeg: string;
  ffprobe: string;
}

/** True for an executable file (not a folder, not a device such as a `/dev/null` mounted over a program). */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The program `name` in `dir`: on Windows with one of the endings of `PATHEXT` (`ffmpeg.exe`). */
function executableIn(dir: string, name: string, env: NodeJS.ProcessEnv): string | undefined {
  const endings = process.platform === 'win32' ? ['', ...(env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  return endings.map((ending) => join(dir, name + ending)).find(isExecutableFile);
}

/** The program `name` in the first folder of `PATH` that has it, or undefined. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    const found = executableIn(dir, name, env);
    if (found) return found;
  }
  return undefined;
}

/** ffmpeg at `FFMPEG_PATH`, else on `PATH`; the reason when there is none. */
export function locateFfmpeg(env: NodeJS.ProcessEnv = process.env): { path: string } | { reason: string } {
  const configured = env['FFMPEG_PATH'];
  const path = configured ?? onPath('ffmpeg', env);
  if (path && isExecutableFile(path)) return { path };
  return {
    reason: configured
      ? `FFMPEG_PATH=${configured} is not an executable file`
      : "ffmpeg was not found on PATH (install Debian's ffmpeg package or set FFMPEG_PATH)",
  };
}

/** ffprobe at `FFPROBE_PATH`, else beside `ffmpeg` (when given), else on `PATH`; the reason when there is none. */
export function locateFfprobe(
  env: NodeJS.ProcessEnv = process.env,
  ffmpeg?: string,
): { path: string } | { reason: string } {
  const configured = env['FFPROBE_PATH'];
  const path = configured ?? (ffmpeg && executableIn(dirname(ffmpeg), 'ffprobe', env)) ?? onPath('ffprobe', env);
  if (path && isExecutableFile(path)) return { path };
  if (configured) return { reason: `FFPROBE_PATH=${configured} is not an executable file` };
  return { reason: `ffprobe was not found ${ffmpeg ? `beside ${ffmpeg} nor ` : ''}on PATH (set FFPROBE_PATH)` };
}

/**
 * ffmpeg at `FFMPEG_PATH`, else on `PATH`; ffprobe at `FFPROBE_PATH`, else beside ffmpeg, else on `PATH`; ffmpeg
 * must run. The answer is a reason (a string) when they cannot be used.
 */
export async function findTools(env: NodeJS.ProcessEnv = process.env): Promise<Tools | string> {
  const ffmpeg = locateFfmpeg(env);
  if ('reason' in ffmpeg) return ffmpeg.reason;
  const ffprobe = locateFfprobe(env, ffmpeg.path);
  if ('reason' in ffprobe) return ffprobe.reason;
  try {
    await runTool(ffmpeg.path, ['-hide_banner', '-version']);
  } catch (error) {
    return `${ffmpeg.path} does not run: ${(error as Error).message}`;
  }
  return { ffmpeg: ffmpeg.path, ffprobe: ffprobe.path };
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
