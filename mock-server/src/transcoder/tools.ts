import { spawn } from 'node:child_process';
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
    return configured ? `FFMPEG_PATH=${configured} is not an executable file` : 'ffmpeg was not found on PATH (install Debian\'s ffmpeg package or set FFMPEG_PATH)';
  }
  const sibling = join(dirname(ffmpeg), 'ffprobe');
  const ffprobe = env['FFPROBE_PATH'] ?? ((await isExecutable(sibling)) ? sibling : await onPath('ffprobe', env));
  if (!ffprobe || !(await isExecutable(ffprobe))) return `ffprobe was not found beside ${ffmpeg} nor on PATH (set FFPROBE_PATH)`;
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

/**
 * Runs a tool to its end, in `cwd` when given; its standard output, or an error carrying the end of its error
 * output. `signal` kills it.
 */
export function runTool(bin: string, args: string[], { signal, cwd }: { signal?: AbortSignal; cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    // Only the end matters: keep the buffer small on long runs.
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${bin.split('/').pop()} exited with ${code ?? 'a signal'}: ${tail(stderr)}`));
    });
  });
}
