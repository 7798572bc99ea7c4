// Leaderboards benchmark: 1,000,000 players on one leaderboard. Events per second through the engine's core;
// median and p99 of rank, top-10 and around-me-10 inside the engine; then the same over HTTP against a real server
// (startServer), next to the server's simplest authenticated GET (`GET /auth/users/me`) and a rank on an empty
// leaderboard. The HTTP load runs in a worker thread (http-load.mjs) so that the client does not share the server's event loop.
// Run: `npm run bench -w @basekit/mock-server -- leaderboards` or `node --conditions=@basekit/source --import tsx --expose-gc mock-server/bench/leaderboards.bench.ts`.
import { submitEvent } from '../../packages/engine/src/areas/leaderboards/events.js';
import { aroundMe, rankOf, top } from '../../packages/engine/src/areas/leaderboards/results.js';
import { DEFAULT_CONFIG, type ConfigInput } from '@basekit/engine';
import { startServer } from '../src/server.js';
import { overHttp, type HttpFigures, type Target } from './load.js';
import { benchUsers } from './users.js';

const PLAYERS = 1_000_000;
const MOVES = 200_000;
const ENGINE_SAMPLES = 100_000;
const HTTP_SAMPLES = 2_000;
const DURATION_SECONDS = 4;
const HTTP_ROUNDS = 2;
const CONNECTIONS = 10;
const TOKENS = 50;

const LOAD = { samples: HTTP_SAMPLES, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS };

/** Median and p99 in microseconds of `run` on random players. */
function engineTimes(run: (player: string) => unknown, players: string[]): { median: number; p99: number } {
  const samples: number[] = [];
  for (let i = 0; i < ENGINE_SAMPLES; i++) {
    const player = players[Math.floor(Math.random() * players.length)]!;
    const started = process.hrtime.bigint();
    run(player);
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[samples.length >> 1]!, p99: samples[Math.floor(samples.length * 0.99)]! };
}

const scoreEvent = (score: number) => ({
  eventName: 'match_end',
  fieldsAndValues: [{ fieldName: 'score', value: score }],
});
const randomScore = () => Math.floor(Math.random() * 1_000_000);
const micro = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} µs`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function main(): Promise<void> {
  // `high-score` (best of match_end.score) is populated; `most-kills` stays empty: the same route without ranking work.
  const config: ConfigInput = {
    ...DEFAULT_CONFIG,
    leaderboards: [
      ...(DEFAULT_CONFIG.leaderboards ?? []),
      { id: 'most-kills', fields: [{ event: 'match_end', field: 'kills' }] },
    ],
  };
  const server = await startServer({ config, port: 0 });
  const { project } = server.engine;
  const players = Array.from({ length: PLAYERS }, (_, i) => `player-${String(i).padStart(7, '0')}`);

  try {
    let started = performance.now();
    for (const player of players) submitEvent(project, player, scoreEvent(randomScore()));
    const populated = PLAYERS / ((performance.now() - started) / 1000);
    started = performance.now();
    for (let i = 0; i < MOVES; i++)
      submitEvent(project, players[Math.floor(Math.random() * PLAYERS)]!, scoreEvent(randomScore()));
    const moved = MOVES / ((performance.now() - started) / 1000);
    gc();
    const heapMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);

    const engine = {
      rank: engineTimes((p) => rankOf(project, 'high-score', p), players),
      top10: engineTimes(() => top(project, 'high-score', 10), players),
      around10: engineTimes((p) => aroundMe(project, 'high-score', p, 10), players),
    };

    // HTTP: one registered user for /auth/users/me, and tokens of random players for the leaderboard calls.
    const { authenticationId, gameId } = project.config;
    // Requests come from TOKENS registered players, each on the board among the generated ones.
    const [bench, ...registered] = await benchUsers(server, TOKENS + 1);
    for (const { userId } of registered) submitEvent(project, userId, scoreEvent(randomScore()));
    const me = { Authorization: `Bearer ${bench!.accessToken}`, 'X-Service-Authentication-Id': authenticationId };
    const playerHeaders = registered.map(({ accessToken }) => ({
      Authorization: `Bearer ${accessToken}`,
      'X-Service-Game-Id': gameId,
    }));
    const url = (path: string) => `${server.url}${path}`;
    const targets = {
      me: { url: url('/auth/users/me'), headers: [me] },
      empty: { url: url('/game/leaderboards/most-kills'), headers: playerHeaders },
      rank: { url: url('/game/leaderboards/high-score'), headers: playerHeaders },
      top10: { url: url('/game/leaderboards/top/high-score?count=10'), headers: playerHeaders },
      around10: { url: url('/game/leaderboards/around-me/high-score?count=10'), headers: playerHeaders },
    };
    // Rounds interleave the targets and each keeps its best figures, so that a burst of other work on the machine
    // does not land on one target only.
    const http = {} as Record<keyof typeof targets, HttpFigures>;
    for (let round = 0; round < HTTP_ROUNDS; round++) {
      for (const [name, target] of Object.entries(targets) as [keyof typeof targets, Target][]) {
        const figures = await overHttp(target, LOAD);
        const best = http[name];
        http[name] = best
          ? {
              median: Math.min(best.median, figures.median),
              p99: Math.min(best.p99, figures.p99),
              rps: Math.max(best.rps, figures.rps),
            }
          : figures;
      }
    }

    console.log(
      `${PLAYERS.toLocaleString('en')} players on one leaderboard (best of one score), heap ${heapMb} MiB after population`,
    );
    console.log(
      `events through the core: ${Math.round(populated).toLocaleString('en')}/s populating, ${Math.round(moved).toLocaleString('en')}/s on existing players (random scores)`,
    );
    console.log('');
    console.log(
      `| operation | engine median | engine p99 | HTTP median | HTTP p99 | HTTP req/s (${CONNECTIONS} connections) |`,
    );
    console.log('|---|---|---|---|---|---|');
    const row = (name: string, h: HttpFigures, e?: { median: number; p99: number }) =>
      console.log(
        `| ${name} | ${e ? micro(e.median) : '-'} | ${e ? micro(e.p99) : '-'} | ${micro(h.median)} | ${micro(h.p99)} | ${h.rps.toLocaleString('en')} |`,
      );
    row('GET /auth/users/me (baseline)', http.me);
    row('rank on an empty leaderboard', http.empty);
    row('rank', http.rank, engine.rank);
    row('top-10', http.top10, engine.top10);
    row('around-me-10', http.around10, engine.around10);
    console.log('');
    console.log(
      `rank over HTTP vs GET /auth/users/me: ${(http.rank.median / http.me.median).toFixed(2)}× the median time, ` +
        `${(http.me.rps / http.rank.rps).toFixed(2)}× fewer requests per second (target: within 1.2×)`,
    );
  } finally {
    await server.close();
  }
}

await main();
