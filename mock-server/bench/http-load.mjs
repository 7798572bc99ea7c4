// A load generator for benchmarks, run in a worker thread so that the client does not share the server's event
// loop (plain JavaScript: worker threads do not inherit tsx). workerData: { url, headers: [headers, ...],
// samples, connections, durationSeconds }; every request takes the next headers in turn (requests from many users).
// Posts back { median, p99 } (microseconds, one request at a time over a kept-alive connection) and
// { rps } (autocannon, `connections` at once).
import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

async function serialTimes({ url, headers }, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    await new Promise((resolve, reject) => {
      const req = request(url, { agent, headers: headers[i % headers.length] }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
        res.resume().on('end', resolve);
      });
      req.on('error', reject).end();
    });
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  agent.destroy();
  return times.sort((a, b) => a - b);
}

const { url, headers, samples, connections, durationSeconds } = workerData;
await serialTimes({ url, headers }, Math.ceil(samples / 4)); // warm-up: JIT, connections, token cache
const times = await serialTimes({ url, headers }, samples);
const result = await autocannon({
  url,
  connections,
  duration: durationSeconds,
  requests: headers.map((h) => ({ headers: h })),
});
if (result.errors || result.non2xx)
  throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
parentPort.postMessage({
  median: times[times.length >> 1],
  p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
  // Inside a worker autocannon returns its histograms encoded: requests per second from the count and the time.
  rps: Math.round(result['2xx'] / result.duration),
});
