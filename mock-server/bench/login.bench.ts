// Login against the number of refresh tokens kept: the reference server with 1,000 and with 1,000,000 refresh
// tokens, beside the password check alone (its PBKDF2, the ceiling of a login) and a bare `node:http` login (the same
// check behind Node's HTTP and nothing else: the ceiling of a login over HTTP), each in a process of its own, loaded in
// rounds that take turns, 10 logins at once from a load generator process. Targets: 1,000,000 tokens within 1.1× of
// 1,000; each at least 0.9× the password check's own rate. The password check hashes as the Node server does (its
// `pbkdf2` capability). Each contender is warmed up for 20 s first: at about 100 logins a second, V8 still optimizes
// the login's path for the first 4,000 or so (a 2 s warm-up measured a server still compiling, whose compiler threads
// took 0.3–0.4 ms a login). The load generator runs in a session of its own (see `loadGenerator`), so that on a busy
// machine its CPU is not taken from the server's share; its own CPU a login is printed (the check alone has no client,
// and the client's CPU comes out of the same 2 cores).
// Run: `npm run bench -w @basekit/mock-server -- login` (about 4 minutes: a million tokens take a few seconds to make).
import { loadavg } from 'node:os';
import {
  type BenchProcess,
  type Contender,
  type HttpTarget,
  compareInRounds,
  httpContender,
  loadGenerator,
  median,
  startProcess,
  verdict,
} from './processes.js';

type LoginServer = HttpTarget & { tokens: number };
const BARE_LOGIN = 'a bare node:http login';

/** Every process started, closed at the end whatever fails on the way. */
const started: BenchProcess<unknown>[] = [];
const start = async <I>(name: string, args?: string[]) => {
  const child = await startProcess<I>(name, args);
  started.push(child);
  return child;
};
const generator = loadGenerator({ ownSession: true });
const load = () =>
  loadavg()
    .map((figure) => figure.toFixed(1))
    .join(' ');
console.log(`load average at the start: ${load()}`);
try {
  const hash = await start<object>('password-hash');
  const bareLogin = await start<HttpTarget>('node-login');
  const servers: BenchProcess<LoginServer>[] = [];
  for (const tokens of [1_000, 1_000_000]) servers.push(await start<LoginServer>('login', [String(tokens)]));
  const names = servers.map(({ info }) => `login, ${info.tokens.toLocaleString('en')} refresh tokens kept`);
  const passwordCheck: Contender = {
    name: 'the password check alone',
    async run(seconds) {
      const cpuAtStart = hash.cpuSeconds();
      const { verified } = await hash.ask<{ verified: number }>({ seconds });
      return { rate: verified / seconds, cpuMicros: ((hash.cpuSeconds() - cpuAtStart) * 1e6) / verified };
    },
  };
  const { rateRatios, rounds } = await compareInRounds(
    'Login (POST /auth/login, form fields) against the refresh tokens kept',
    [
      passwordCheck,
      httpContender(BARE_LOGIN, bareLogin, bareLogin.info, generator),
      ...servers.map((server, i) => httpContender(names[i]!, server, server.info, generator)),
    ],
    { warmUpSeconds: 20 },
  );
  console.log(`load average at the end: ${load()}`);
  // The check alone has no client; a login's client shares the 2 cores with the server (in a session of its own).
  const loadMicros = [BARE_LOGIN, ...names].map((name) =>
    median(rounds.get(name)!.map((round) => round.loadMicros!)).toFixed(0),
  );
  console.log(
    `the load generator's own CPU a login: ${loadMicros.join(', ')} µs (bare node:http, 1,000, 1,000,000 tokens)`,
  );
  // What Node's HTTP alone leaves of the check's rate, and what the engine leaves of that.
  const bare = rateRatios.get(BARE_LOGIN)!;
  console.log(`${BARE_LOGIN}, over the password check's own rate: ${median(bare).toFixed(2)}× (the ceiling over HTTP)`);
  for (const name of names) {
    const overBare = median(rateRatios.get(name)!.map((ratio, round) => ratio / bare[round]!));
    console.log(`${name}, over the bare node:http login's rate: ${overBare.toFixed(2)}×`);
  }
  const [few, many] = names.map((name) => rateRatios.get(name)!);
  const flat = median(few!.map((ratio, round) => ratio / many![round]!));
  let met = verdict('login rate, 1,000 over 1,000,000 tokens (median of the rounds)', flat, '≤ 1.10', flat <= 1.1);
  for (const [i, name] of names.entries()) {
    const ratio = median([few, many][i]!);
    met = verdict(`${name}, over the password check's own rate`, ratio, '≥ 0.90', ratio >= 0.9) && met;
  }
  process.exitCode = met ? 0 : 1;
} finally {
  generator.close();
  await Promise.all(started.map((p) => p.close()));
}
