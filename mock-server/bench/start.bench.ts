// Start-up: the built CLI (what the `basekit-server` bin runs) beside `npm start` when no source changed (target:
// within 1.5x), timed from spawning to the `listening on` line, in alternating rounds. The start script alone and
// npm's own start-up are printed too, to show which part of the difference is whose.
// Run: `npm run bench -w @basekit/mock-server -- start`.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = 7;

/** Milliseconds from spawning `command` to its `listening on` line; the whole process group is stopped after. */
function readyTime(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        resolve(performance.now() - started);
        process.kill(-child.pid!, 'SIGTERM');
      }
    });
    child.on(
      'exit',
      (code, signal) => signal === null && reject(new Error(`${command} exited (${code}) before listening`)),
    );
  });
}

/** Milliseconds from spawning `command` to its exit. */
function exitTime(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', () => resolve(performance.now() - started)));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// `npm start` builds what changed first; the figure is for the runs after that.
spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const built: number[] = [];
const script: number[] = [];
const npmStart: number[] = [];
const npmItself: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  built.push(await readyTime(process.execPath, ['mock-server/bin/basekit-server.js', '--port', '0']));
  script.push(await readyTime(process.execPath, ['mock-server/scripts/start.mjs', '--port', '0']));
  npmStart.push(await readyTime('npm', ['start', '--silent', '--', '--port', '0']));
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
