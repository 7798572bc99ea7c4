// The panel's request inspector under load: the Requests page in Chromium while the server answers about
// 200 requests a second (autocannon at a fixed rate, in a process of its own), in rounds: frames a second and the
// longest main-thread task while the list runs live, then how long Pause and a filter take to show (from the click's
// input event to the end of the frame that shows the result). Targets: ≥ 50 frames/s, Pause and filters within
// 100 ms. Beside them, the frames a second of the same page paused (only its counter changes) in the same round: what
// Chromium manages on this machine at its load, the ceiling of the live figure. Run by panel.bench.ts.
import { loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../../mock-server/src/server.js';
import { loadGenerator, median } from '../../../mock-server/bench/processes.js';
import { benchUsers } from '../../../mock-server/bench/users.js';

const RATE = 200;
const ROUNDS = 3;
/**
 * Each round: two seconds for the load to reach its rate (autocannon takes about one to start on a busy machine),
 * then frames counted for this long live, Pause measured, frames counted paused for half as long, then a filter
 * measured.
 */
const SETTLE_MS = 2000;
const FRAMES_MS = 4000;
const ROUND_SECONDS = 12;

/** In the page: frames, long tasks, rows added to the list and rows rendered at the end, over `ms`. */
function countFrames(
  ms: number,
): Promise<{ fps: number; longestTaskMs: number; worstFrameMs: number; rowsPerSecond: number; rendered: number }> {
  return new Promise((resolve) => {
    const tasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    let added = 0;
    const rows = new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node.nodeName === 'TR') added++;
    });
    rows.observe(document.body, { childList: true, subtree: true });
    let frames = 0;
    let worst = 0;
    const start = performance.now();
    let last = start;
    const tick = (now: number) => {
      frames++;
      worst = Math.max(worst, now - last);
      last = now;
      if (now - start < ms) requestAnimationFrame(tick);
      else {
        observer.disconnect();
        rows.disconnect();
        const seconds = (now - start) / 1000;
        resolve({
          fps: frames / seconds,
          longestTaskMs: Math.max(0, ...tasks),
          worstFrameMs: worst,
          rowsPerSecond: added / seconds,
          rendered: document.querySelectorAll('table tbody tr[aria-rowindex]').length,
        });
      }
    };
    requestAnimationFrame(tick);
  });
}

/**
 * In the page: arms a timer on the next click on the button named `label`: from the click's input event (its
 * timeStamp, taken when the browser received it) to the end of the first frame at which `done()` holds (a message
 * posted from that frame's animation callback runs once the frame is rendered); the answer is kept in
 * `window.__answerMs`.
 */
function armTimer([label, check]: [string, string]): void {
  const done = new Function(`return (${check})`) as () => boolean;
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent === label)!;
  const w = window as unknown as { __answerMs?: number };
  w.__answerMs = undefined;
  button.addEventListener(
    'click',
    (event) => {
      const clicked = event.timeStamp;
      const poll = () => {
        if (!done()) return requestAnimationFrame(poll);
        const rendered = new MessageChannel();
        rendered.port1.onmessage = () => {
          w.__answerMs = performance.now() - clicked;
        };
        rendered.port2.postMessage(null);
      };
      requestAnimationFrame(poll);
    },
    { capture: true, once: true },
  );
}

/** Clicks the button named `label` with a real mouse click and answers the time until `check` (page code) held. */
async function timeClick(page: Page, label: string, check: string): Promise<number> {
  await page.evaluate(armTimer, [label, check] as [string, string]);
  const box = (await page.getByRole('button', { name: label, exact: true }).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => (window as unknown as { __answerMs?: number }).__answerMs !== undefined, null, {
    timeout: 30_000,
  });
  return page.evaluate(() => (window as unknown as { __answerMs: number }).__answerMs);
}

// Page code for the checks: the Pause button says Resume; every row shown is of the database area.
const PAUSED = `document.querySelector('button[aria-pressed="true"]')?.textContent === 'Resume'`;
const ONLY_DATABASE = `(() => { const rows = [...document.querySelectorAll('table tbody tr:not(.requests-space)')]; return rows.length > 0 && rows.every((row) => row.lastElementChild?.textContent === 'database'); })()`;

/** Loads the server at about `RATE` requests a second and prints the Requests page's figures beside their targets. */
export async function inspectorBench(server: RunningServer, panelUrl: string, browser: Browser): Promise<void> {
  const { objectStorageId, authenticationId, masterKey } = server.engine.project.config;
  const [user] = await benchUsers(server, 1, 'inspector');
  const auth = { Authorization: `Bearer ${user!.accessToken}` };
  const created = await fetch(`${server.url}/object-storage/classes/Score/`, {
    method: 'POST',
    headers: { 'X-Service-Object-Storage-Id': objectStorageId, 'Content-Type': 'application/json', ...auth },
    body: JSON.stringify({ score: 1 }),
  });
  const { _id } = (await created.json()) as { _id: string };
  // Two areas in turn, so that a filter keeps half of them.
  const target = {
    url: server.url,
    overallRate: RATE,
    requests: [
      {
        path: `/object-storage/classes/Score/${_id}`,
        headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...auth },
      },
      { path: '/auth/users/me', headers: { 'X-Service-Authentication-Id': authenticationId, ...auth } },
    ],
  };
  const generator = loadGenerator();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((key) => sessionStorage.setItem('basekit-panel:master-key', key), masterKey);
  // tsx keeps function names with a `__name` helper, which the functions handed to the page call: give the page one.
  await context.addInitScript('globalThis.__name = (f) => f');
  const page = await context.newPage();
  type Frames = Awaited<ReturnType<typeof countFrames>>;
  const rounds: (Frames & { pausedFps: number; pauseMs: number; filterMs: number; rps: number })[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await page.goto(`${panelUrl}requests`);
      await page.getByText('Live: new requests appear at the top.').waitFor();
      const load = generator.load(target as never, ROUND_SECONDS);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const frames = await page.evaluate(countFrames, FRAMES_MS);
      const pauseMs = await timeClick(page, 'Pause', PAUSED);
      const paused = await page.evaluate(countFrames, FRAMES_MS / 2);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByLabel('Area').selectOption('database');
      const filterMs = await timeClick(page, 'Filter', ONLY_DATABASE);
      rounds.push({ ...frames, pausedFps: paused.fps, pauseMs, filterMs, rps: (await load).rps });
    }
  } finally {
    generator.close();
    await context.close();
  }
  const figure = (name: keyof (typeof rounds)[number], digits = 0) => {
    const values = rounds.map((r) => r[name]);
    return `${median(values).toFixed(digits)} [${values.map((v) => v.toFixed(digits)).join(', ')}]`;
  };
  const fps = median(rounds.map((r) => r.fps));
  const pause = median(rounds.map((r) => r.pauseMs));
  const filter = median(rounds.map((r) => r.filterMs));
  console.log(
    `Requests page live, the load generator at ${figure('rps')} req/s over each round (${ROUNDS} rounds, medians [rounds]; load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end):\n` +
      `  live: ${figure('rowsPerSecond')} rows added a second, ${figure('rendered')} rows rendered, ${figure('fps', 1)} frames/s (${fps >= 50 ? 'within' : 'OUTSIDE'} ≥ 50), ` +
      `longest task ${figure('longestTaskMs')} ms, longest frame ${figure('worstFrameMs')} ms; the same page paused: ${figure('pausedFps', 1)} frames/s (this machine's pace at its load)\n` +
      `  Pause shown after ${figure('pauseMs')} ms (${pause <= 100 ? 'within' : 'OVER'} 100 ms), a filter after ${figure('filterMs')} ms (${filter <= 100 ? 'within' : 'OVER'} 100 ms)`,
  );
}
