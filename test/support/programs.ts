// The programs the tests drive, found the same way on every contributor's machine: Chromium (`CHROME_PATH`, else
// Playwright's own browser, else the usual places of Linux, macOS and Windows), ffmpeg and ffprobe (as the reference
// server finds them: `FFMPEG_PATH`, `FFPROBE_PATH`, else `PATH`) and curl (`PATH`). `npm test` checks them first
// (check-programs.ts) and stops at once, naming what is missing and how to get it.
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import { isExecutableFile, locateFfmpeg, locateFfprobe, onPath } from '../../mock-server/src/transcoder/tools.js';

/** Where a program is, or why it was not found. */
export type Located = { path: string } | { reason: string };

/** The systems the report says how to install on, each with its installer's command for some packages. */
const INSTALLERS = {
  'Debian/Ubuntu': (packages: string[]) => `sudo apt-get install ${packages.join(' ')}`,
  // Formulae and casks install in separate commands.
  macOS: (packages: string[]) =>
    [packages.filter((name) => !name.startsWith('--cask')), packages.filter((name) => name.startsWith('--cask'))]
      .filter((group) => group.length > 0)
      .map((group) => `brew install ${group.join(' ')}`)
      .join(' && '),
  Windows: (packages: string[]) => packages.map((name) => `winget install --id ${name}`).join('; '),
};

/** A program the tests run: what needs it, how it is found, and its package on each system. */
export interface Program {
  name: string;
  neededBy: string;
  /** The variable that points at it. */
  variable: string;
  locate(env: NodeJS.ProcessEnv): Located;
  packages: Record<keyof typeof INSTALLERS, string>;
}

/** Chromium's usual places beyond `PATH`, per system: the packages' and the installers' own folders. */
function usualBrowserPaths(env: NodeJS.ProcessEnv): string[] {
  if (process.platform === 'darwin')
    return ['/Applications', join(env['HOME'] ?? '', 'Applications')].flatMap((apps) => [
      join(apps, 'Chromium.app/Contents/MacOS/Chromium'),
      join(apps, 'Google Chrome.app/Contents/MacOS/Google Chrome'),
    ]);
  if (process.platform === 'win32')
    return [env['PROGRAMFILES'], env['PROGRAMFILES(X86)'], env['LOCALAPPDATA']]
      .filter((dir): dir is string => Boolean(dir))
      .flatMap((dir) => [
        join(dir, 'Chromium', 'Application', 'chrome.exe'),
        join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      ]);
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/opt/google/chrome/chrome'];
}

/** Names Chromium and Chrome go by on `PATH` (Linux packages; anywhere a user linked one). */
const BROWSER_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

/**
 * Playwright's own Chromium builds (`npx playwright-core install chromium`), newest first: the one of the installed
 * playwright-core, then any other revision in the same folder (`PLAYWRIGHT_BROWSERS_PATH`, else
 * `~/.cache/ms-playwright` on Linux, `~/Library/Caches/ms-playwright` on macOS, `%LOCALAPPDATA%\ms-playwright`).
 */
function playwrightBrowsers(env: NodeJS.ProcessEnv): string[] {
  // playwright-core knows its folder and this system's layout, `<folder>/chromium-<revision>/<layout>`, the same for
  // every revision; it read PLAYWRIGHT_BROWSERS_PATH when loaded, so another value in `env` moves the folder.
  const own = chromium.executablePath();
  let revision = own;
  while (!/^chromium-\d+$/.test(basename(revision)) && dirname(revision) !== revision) revision = dirname(revision);
  const layout = relative(revision, own);
  const variable = env['PLAYWRIGHT_BROWSERS_PATH'];
  const folder =
    variable === undefined || variable === process.env['PLAYWRIGHT_BROWSERS_PATH'] ? dirname(revision) : variable;
  let others: string[] = [];
  try {
    others = readdirSync(folder)
      .filter((name) => /^chromium-\d+$/.test(name) && name !== basename(revision))
      .sort((a, b) => Number(b.slice('chromium-'.length)) - Number(a.slice('chromium-'.length)));
  } catch {
    // no Playwright browsers on this machine
  }
  return [basename(revision), ...others].map((name) => join(folder, name, layout));
}

/** Where a browser is looked for when `CHROME_PATH` is not set, in order: Playwright's builds, `PATH`, the usual places. */
export function browserCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const onPathNow = BROWSER_COMMANDS.map((name) => onPath(name, env)).filter((path): path is string => !!path);
  return [...playwrightBrowsers(env), ...onPathNow, ...usualBrowserPaths(env)];
}

/** Chromium: `CHROME_PATH`, else Playwright's own build, else `PATH` and the usual places of this system. */
export function locateChromium(env: NodeJS.ProcessEnv = process.env): Located {
  const configured = env['CHROME_PATH'];
  if (configured !== undefined)
    return isExecutableFile(configured)
      ? { path: configured }
      : { reason: `CHROME_PATH=${configured} is not an executable file` };
  const path = browserCandidates(env).find(isExecutableFile);
  if (path) return { path };
  return {
    reason: `CHROME_PATH is not set, Playwright has no browser installed, and none of ${BROWSER_COMMANDS.join(', ')} is on PATH nor at ${usualBrowserPaths(env).join(', ')}`,
  };
}

export const CHROMIUM: Program = {
  name: 'Chromium (or Google Chrome)',
  neededBy: 'the browser tests',
  variable: 'CHROME_PATH',
  locate: locateChromium,
  packages: { 'Debian/Ubuntu': 'chromium', macOS: '--cask chromium', Windows: 'Google.Chrome' },
};

const FFMPEG_PACKAGES = { 'Debian/Ubuntu': 'ffmpeg', macOS: 'ffmpeg', Windows: 'Gyan.FFmpeg' };

export const FFMPEG: Program = {
  name: 'ffmpeg',
  neededBy: 'the transcoder tests',
  variable: 'FFMPEG_PATH',
  locate: locateFfmpeg,
  packages: FFMPEG_PACKAGES,
};

export const FFPROBE: Program = {
  name: 'ffprobe',
  neededBy: 'the transcoder tests',
  variable: 'FFPROBE_PATH',
  locate: (env) => {
    const ffmpeg = locateFfmpeg(env);
    return locateFfprobe(env, 'path' in ffmpeg ? ffmpeg.path : undefined);
  },
  packages: FFMPEG_PACKAGES,
};

const CURL: Program = {
  name: 'curl',
  neededBy: 'the download and HTTPS tests',
  variable: 'PATH',
  locate: (env) => {
    const path = onPath('curl', env);
    return path ? { path } : { reason: 'curl was not found on PATH' };
  },
  packages: { 'Debian/Ubuntu': 'curl', macOS: 'curl', Windows: 'cURL.cURL' },
};

/** Every program `npm test` needs. */
const PROGRAMS = [CHROMIUM, FFMPEG, FFPROBE, CURL];

/** The programs that cannot be found, each with the reason. */
export function missingPrograms(env: NodeJS.ProcessEnv = process.env): { program: Program; reason: string }[] {
  return PROGRAMS.flatMap((program) => {
    const located = program.locate(env);
    return 'reason' in located ? [{ program, reason: located.reason }] : [];
  });
}

/** One message for every missing program: what needs it, why it was not found, how to install it on each system. */
export function missingProgramsReport(missing: { program: Program; reason: string }[]): string {
  const lines = [`npm test needs ${missing.length === 1 ? 'a program' : 'programs'} that this machine lacks:`];
  for (const { program, reason } of missing) lines.push(`  - ${program.name}, for ${program.neededBy}: ${reason}`);
  lines.push('Install:');
  for (const [system, command] of Object.entries(INSTALLERS)) {
    const packages = new Set(missing.map(({ program }) => program.packages[system as keyof typeof INSTALLERS]));
    lines.push(`  ${`${system}:`.padEnd(15)}${command([...packages])}`);
  }
  // Ubuntu's chromium is a snap, which cannot use the profile folders Playwright makes: take Playwright's build.
  if (missing.some(({ program }) => program === CHROMIUM))
    lines.push(
      "  Ubuntu, or any system: npx playwright-core install --with-deps chromium (Playwright's own build, found as is)",
    );
  const variables = [...new Set(missing.map(({ program }) => program.variable))].filter((name) => name !== 'PATH');
  if (variables.length > 0)
    lines.push(`Or point at a copy of your own: ${variables.map((name) => `${name}=…`).join(', ')}.`);
  return lines.join('\n');
}

/** The path of a program the tests run; throws the whole report when it cannot be found. */
export function programPath(program: Program, env: NodeJS.ProcessEnv = process.env): string {
  const located = program.locate(env);
  if ('reason' in located) throw new Error(missingProgramsReport([{ program, reason: located.reason }]));
  return located.path;
}
