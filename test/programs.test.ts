// The programs `npm test` drives, on a contributor's machine: its first step stops in seconds naming every missing
// program and how to get it; the browser is found through CHROME_PATH, Playwright's own builds or the usual places.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { browserCandidates, CHROMIUM, locateChromium, programPath } from './support/programs.js';
import { isExecutableFile } from '../mock-server/src/transcoder/tools.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHECK = ['--import', 'tsx', 'test/support/check-programs.ts'];
const nowhere = mkdtempSync(join(tmpdir(), 'basekit-nowhere-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs `command` from the repository's root with `env` (over this process's) and reports how it went. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(command, args, { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        stdout,
        stderr,
        seconds: (performance.now() - started) / 1000,
      }),
    );
  });
}

/** Hiding a program from one command needs a mount namespace of its own: Linux, as root, with `unshare`. */
const canHide =
  process.platform === 'linux' &&
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['-m', 'true'], { stdio: 'ignore' }).status === 0;
const HIDING = 'Linux as root only: hides programs with a mount namespace (unshare -m)';

/** A shell line that runs the rest of the script with `/dev/null` mounted over each of `paths`. */
const hide = (paths: string[]) => paths.map((path) => `mount --bind /dev/null '${path}'`).join(' && ');

describe('the first step of npm test', () => {
  it('says nothing and lets the tests run when every program is there', async () => {
    const check = await run(process.execPath, CHECK);
    expect(check).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('stops in seconds, naming every missing program and how to install it on Debian/Ubuntu, macOS and Windows', async () => {
    const check = await run(process.execPath, CHECK, { PATH: nowhere, CHROME_PATH: join(nowhere, 'chrome') });
    console.log(`the check stopped after ${check.seconds.toFixed(1)} s:\n${check.stderr}`);
    expect(check.code).toBe(1);
    expect(check.seconds).toBeLessThan(10);
    const lines = check.stderr.split('\n');
    expect(lines.filter((line) => line.startsWith('  - '))).toEqual([
      `  - Chromium (or Google Chrome), for the browser tests: CHROME_PATH=${join(nowhere, 'chrome')} is not an executable file`,
      expect.stringMatching(/^ {2}- ffmpeg, for the transcoder tests: ffmpeg was not found on PATH/),
      expect.stringMatching(/^ {2}- ffprobe, for the transcoder tests: ffprobe was not found on PATH/),
      '  - curl, for the download and HTTPS tests: curl was not found on PATH',
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        '  Debian/Ubuntu: sudo apt-get install chromium ffmpeg curl',
        '  macOS:         brew install ffmpeg curl && brew install --cask chromium',
        '  Windows:       winget install --id Google.Chrome; winget install --id Gyan.FFmpeg; winget install --id cURL.cURL',
        'Or point at a copy of your own: CHROME_PATH=…, FFMPEG_PATH=…, FFPROBE_PATH=….',
      ]),
    );
  });

  it('names Chromium, ffmpeg and ffprobe when the machine has none of them', async ({ skip }) => {
    skip(!canHide, HIDING);
    const { CHROME_PATH: _unset, ...env } = process.env;
    const hidden = [...browserCandidates(env), '/usr/bin/ffmpeg', '/usr/bin/ffprobe'].filter(isExecutableFile);
    const check = await run(
      'unshare',
      ['-m', 'sh', '-c', `${hide(hidden)} && exec "$0" "$@"`, process.execPath, ...CHECK],
      {
        CHROME_PATH: undefined,
      },
    );
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(
      /^ {2}- Chromium \(or Google Chrome\), for the browser tests: CHROME_PATH is not set/m,
    );
    expect(check.stderr).toContain('  - ffmpeg, for the transcoder tests');
    expect(check.stderr).toContain('  - ffprobe, for the transcoder tests');
    expect(check.stderr).not.toContain('curl');
    expect(check.stderr).toContain('  Debian/Ubuntu: sudo apt-get install chromium ffmpeg\n');
  });
});

describe('the browser of the tests', () => {
  it("is Playwright's own build, of any revision, before the system's, when CHROME_PATH is not set", () => {
    const env = { PLAYWRIGHT_BROWSERS_PATH: mkdtempSync(join(tmpdir(), 'basekit-playwright-')), PATH: nowhere };
    const [own] = browserCandidates(env);
    const older = own!.replace(/chromium-\d+/, 'chromium-1000');
    const install = (path: string) => {
      mkdirSync(dirname(path), { recursive: true });
      symlinkSync(process.execPath, path); // any executable stands in for the browser
    };
    expect(locateChromium(env)).toEqual(locateChromium({ PATH: nowhere, PLAYWRIGHT_BROWSERS_PATH: nowhere }));
    install(older);
    expect(locateChromium(env)).toEqual({ path: older });
    install(own!);
    expect(locateChromium(env)).toEqual({ path: own });
    expect(locateChromium({ ...env, CHROME_PATH: older })).toEqual({ path: older });
  });

  it('is the one CHROME_PATH names, and the browser tests run on it when it is the only one', async ({ skip }) => {
    skip(!canHide, HIDING);
    // The machine's browser, reachable only through a symlink elsewhere: every place the tests would look is hidden.
    const { CHROME_PATH: _unset, ...env } = process.env;
    const browser = programPath(CHROMIUM, env);
    const dir = mkdtempSync(join(tmpdir(), 'basekit-chrome-path-'));
    const [copy, link] = [join(dir, 'browser'), join(dir, 'my-chromium')];
    writeFileSync(copy, '');
    symlinkSync(copy, link);
    const hidden = browserCandidates(env).filter(isExecutableFile);
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const script = [
      'set -e',
      `mount --bind '${browser}' '${copy}'`,
      hide(hidden),
      // Without CHROME_PATH no browser is found...
      `"$0" ${CHECK.join(' ')} || echo "check without CHROME_PATH: $?"`,
      // ...with it, a browser test file passes.
      `CHROME_PATH='${link}' exec "$0" '${vitest}' run --project all packages/msw/test/canvas-resizer.test.ts`,
    ].join('\n');
    const tests = await run('unshare', ['-m', 'sh', '-c', script, process.execPath], { CHROME_PATH: undefined });
    const stdout = stripVTControlCharacters(tests.stdout);
    expect(stdout).toContain('check without CHROME_PATH: 1');
    expect(tests.stderr).toContain('Chromium (or Google Chrome), for the browser tests: CHROME_PATH is not set');
    expect(stdout).toMatch(/Tests +2 passed \(2\)/);
    expect(tests.code).toBe(0);
  }, 120_000);
});
