// A load generator in a process of its own (child_process.fork), so that the server's process CPU time counts the
// server alone (a worker thread's time would count in it). Plain JavaScript: forked processes do not inherit tsx.
// Each message { url, headers, connections, seconds } runs autocannon once and is answered with
// { rps, requests, p99 } (`connections` at once; p99 in ms); the process ends when its parent disconnects.
import autocannon from 'autocannon';

process.on('message', async ({ url, headers, connections, seconds }) => {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.errors || result.non2xx)
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  process.send({ rps: result.requests.average, requests: result.requests.total, p99: result.latency.p99 });
});
