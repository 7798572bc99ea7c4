// Start-up: the built CLI (what the `basekit-server` bin runs) beside `npm start` when no source changed (target:
// within 1.5x), timed from spawning to the `listening on` line, in alternating rounds. The start script alone and
// npm's own start-up are printed too, to show which part of the difference is whose.
// Run: `npm run bench -w @basekit/mock-server -- start`.
import { spawn, spawnSync } from 'node:child_process';
import { median } from './processes.js';
import { cliReadyTime, readyTime, root } from './ready-time.js';

const ROUNDS = 7;
/** Each command's process group is asked to stop (npm and the start script pass it on to the server). */
const STOP = { signal: 'SIGTERM' } as const;

/** Milliseconds from spawning `command` to its exit. */
function exitTime(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', () => resolve(performance.now() - started)));
}

// `npm start` builds what changed first; the figure is for the runs after that.
spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const built: number[] = [];
const script: number[] = [];
const npmStart: number[] = [];
const npmItself: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  built.push(await cliReadyTime([], STOP));
  script.push(await readyTime(process.execPath, ['mock-server/scripts/start.mjs', '--port', '0'], STOP));
  npmStart.push(await readyTime('npm', ['start', '--silent', '--', '--port', '0'], STOP));
  npmItself.push(await exitTime('npm', ['--version']));
}
const show = (values: number[]) => values.map((ms) => Math.round(ms)).join(', ');
const row = (label: string, values: number[]) =>
  console.log(`${label.padEnd(52)} median ${String(Math.round(median(values))).padStart(4)} ms   [${show(values)}]`);
row('built CLI (node mock-server/bin/basekit-server.js)', built);
row('start script, nothing changed (node …/start.mjs)', script);
row('npm start, nothing changed', npmStart);
row('npm itself (npm --version)', npmItself);
console.log(
  `start script / built CLI: ${(median(script) / median(built)).toFixed(2)}x   npm start / built CLI: ${(median(npmStart) / median(built)).toFixed(2)}x (target <= 1.5x)`,
);
