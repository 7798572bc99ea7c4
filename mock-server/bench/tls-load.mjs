// The load generator of https.bench.ts, in a process of its own (child_process.fork) so that the server's process
// CPU time counts the server alone. Plain JavaScript: forked processes do not inherit tsx.
// Each message { protocol: 'http' | 'https' | 'h2', url, headers, connections, seconds, samples, ca } is answered with
// { rps, requests, median, p99 }: requests per second (and their count) with `connections` requests at once for
// `seconds`, then the median and p99 in microseconds of `samples` requests one at a time. Every protocol on Node's own client, so that the figures
// compare the protocols and not the clients: HTTP/1.1 on `connections` kept-alive sockets (over TLS offering no ALPN,
// as most HTTP/1.1 clients), HTTP/2 as that many streams at once on one session, as a browser sends them.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { connect } from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

function h1Client({ protocol, ca }, sockets) {
  const secure = protocol === 'https';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: sockets, ca })
    : new HttpAgent({ keepAlive: true, maxSockets: sockets });
  const request = secure ? httpsRequest : httpRequest;
  return {
    send: (url, headers) =>
      new Promise((resolve, reject) => {
        const req = request(url, { agent, headers }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
          res.resume().on('end', resolve);
        });
        req.on('error', reject).end();
      }),
    close: () => agent.destroy(),
  };
}

function h2Client({ url, ca }) {
  const session = connect(new URL(url).origin, { ca });
  const path = new URL(url).pathname;
  return {
    send: (_url, headers) =>
      new Promise((resolve, reject) => {
        const stream = session.request({ ':path': path, ...headers });
        stream.on(
          'response',
          (head) => head[':status'] !== 200 && reject(new Error(`${url}: HTTP ${head[':status']}`)),
        );
        stream.on('error', reject).resume().on('end', resolve);
      }),
    close: () => session.close(),
  };
}

const clientFor = (target, lanes) => (target.protocol === 'h2' ? h2Client(target) : h1Client(target, lanes));

/** `lanes` requests at once for `seconds`; resolves with every request's time in microseconds, sorted. */
async function load(target, lanes, { seconds, count }) {
  const client = clientFor(target, lanes);
  const until = Date.now() + seconds * 1000;
  const times = [];
  const lane = async () => {
    while (seconds ? Date.now() < until : times.length < count) {
      const started = process.hrtime.bigint();
      await client.send(target.url, target.headers);
      times.push(Number(process.hrtime.bigint() - started) / 1000);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: lanes }, lane));
  client.close();
  return { times: times.sort((a, b) => a - b), elapsed: (performance.now() - started) / 1000 };
}

process.on('message', async (target) => {
  const { times, elapsed } = await load(target, target.connections, { seconds: target.seconds });
  const figures = { rps: Math.round(times.length / elapsed), requests: times.length };
  if (target.samples) {
    const one = (await load(target, 1, { count: target.samples })).times;
    Object.assign(figures, { median: one[one.length >> 1], p99: one[Math.floor(one.length * 0.99)] });
  }
  process.send(figures);
});
