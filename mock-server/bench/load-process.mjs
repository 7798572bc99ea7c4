// A load generator in a process of its own (child_process.fork), so that the server's process CPU time counts the
// server alone (a worker thread's time would count in it). Plain JavaScript: forked processes do not inherit tsx.
// Each message { url, headers, method?, body?, requests?, connections, seconds } runs autocannon once and is answered
// with { rps, requests, p99 } (`connections` at once; p99 in ms; `requests` [{ path?, headers?, body? }] are sent in
// turn on every connection, e.g. one path per row id); the process ends when its parent disconnects.
import autocannon from 'autocannon';

process.on('message', async ({ seconds, ...options }) => {
  // Options left out are absent, not undefined: autocannon takes an undefined method for a method of that name.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const result = await autocannon({ ...given, duration: seconds });
  if (result.errors || result.non2xx)
    throw new Error(`${options.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  process.send({ rps: result.requests.average, requests: result.requests.total, p99: result.latency.p99 });
});
