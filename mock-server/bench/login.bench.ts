// Login against the number of refresh tokens kept: the reference server with 1,000 and with 1,000,000
// refresh tokens, each in a process of its own, and the password check alone (its PBKDF2, the ceiling of a login) in a
// third, loaded in rounds that take turns, 10 logins at once from a load generator process. Targets: 1,000,000 tokens
// within 1.1× of 1,000; each at least 0.9× the password check's own rate.
// Run: `npm run bench -w @basekit/mock-server -- login` (about 2 minutes: a million tokens take a few seconds to make).
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

const hash = await startProcess<object>('password-hash');
const servers: BenchProcess<LoginServer>[] = [];
const generator = loadGenerator();
try {
  for (const tokens of [1_000, 1_000_000]) servers.push(await startProcess<LoginServer>('login', [String(tokens)]));
  const names = servers.map(({ info }) => `login, ${info.tokens.toLocaleString('en')} refresh tokens kept`);
  const passwordCheck: Contender = {
    name: 'the password check alone',
    async run(seconds) {
      const cpuAtStart = hash.cpuSeconds();
      const { verified } = await hash.ask<{ verified: number }>({ seconds });
      return { rate: verified / seconds, cpuMicros: ((hash.cpuSeconds() - cpuAtStart) * 1e6) / verified };
    },
  };
  const { rateRatios } = await compareInRounds(
    'Login (POST /auth/login, form fields) against the refresh tokens kept',
    [passwordCheck, ...servers.map((server, i) => httpContender(names[i]!, server, server.info, generator))],
  );
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
  await Promise.all([hash, ...servers].map((p) => p.close()));
}
