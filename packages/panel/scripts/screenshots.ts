// Screenshots of the management panel for docs/panel.md: builds the panel, starts a server seeded with a few users,
// rows, files, scores and a finished conversion (ffmpeg; its deliveries go to a local receiver) through the service's
// own API, and saves one PNG per page into docs/panel/ (palette PNGs through sharp, to keep the repository small).
// Run: `npm run screenshots -w @basekit/panel`.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startServer, type RunningServer } from '../../../mock-server/src/server.js';
import { launchChromium } from '../../../test/support/chromium.js';
import { buildPanel } from '../test/support.js';
import { Receiver, makeVideo } from '../../../mock-server/test/transcoder/support.js';

const OUT = fileURLToPath(new URL('../../../docs/panel/', import.meta.url));

/** The page of each screenshot, with the selection that shows it best; the inspector first, before the panel's own calls fill it. */
const SHOTS = [
  { name: 'requests', path: 'requests' },
  { name: 'project', path: 'project' },
  { name: 'users', path: 'users' },
  { name: 'database', path: 'database/GameScore' },
  { name: 'files', path: 'files/screens/title.png' },
  { name: 'transcoder', path: 'transcoder/jobs/<job>' },
  { name: 'leaderboards', path: 'leaderboards/high-score' },
];

const TITLE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0a5bd3"/><stop offset="1" stop-color="#3fb950"/></linearGradient></defs>
  <rect width="640" height="400" fill="url(#g)"/>
  <text x="320" y="215" font-family="sans-serif" font-size="64" font-weight="bold" fill="#fff" text-anchor="middle">basekit</text>
</svg>`;

/**
 * Fills the project through the service's API, as an app would (the requests show in the inspector too); answers
 * the request id of the conversion job.
 */
async function seed(server: RunningServer, receiver: Receiver): Promise<string> {
  const { config } = server.engine.project;
  const ids = {
    'X-Service-Authentication-Id': config.authenticationId,
    'X-Service-Object-Storage-Id': config.objectStorageId,
    'X-Service-Storage-Id': config.storageId,
    'X-Service-Game-Id': config.gameId,
  };
  const call = async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
    const res = await fetch(server.url + path, { ...init, headers: { ...ids, ...init.headers } });
    if (!res.ok) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  let job = '';
  const people = [
    { username: 'ann', firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', score: 420 },
    { username: 'bob', firstName: 'Bob', lastName: 'Stone', email: 'bob@example.com', score: 310 },
    { username: 'carol', firstName: 'Carol', lastName: 'Diaz', email: 'carol@example.com', score: 515 },
    { username: 'dan', firstName: 'Dan', lastName: 'Wu', email: 'dan@example.com', score: 120 },
  ];
  for (const [i, { score, ...profile }] of people.entries()) {
    await call('/auth/users', json('POST', { ...profile, password: `pw-${profile.username}` }));
    const login = new FormData();
    login.set('username', profile.username);
    login.set('password', `pw-${profile.username}`);
    const { access_token } = await call('/auth/login', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Key': config.clientKey },
      body: login,
    });
    const auth = { Authorization: `Bearer ${access_token as string}` };
    await call(
      '/object-storage/classes/GameScore',
      json(
        'POST',
        {
          player: profile.username,
          score,
          level: i + 3,
          cheat: false,
          playedAt: { __type: 'Date', iso: new Date(Date.UTC(2026, 10, 20 + i, 18, 30)).toISOString() },
          stats: { kills: 3 + i, deaths: i, weapons: { main: 'bow', spare: 'axe' } },
          badges: ['first-win', ...(i % 2 ? ['streak'] : [])],
        },
        auth,
      ),
    );
    await call(
      '/game/events',
      json(
        'POST',
        {
          eventName: 'match_end',
          fieldsAndValues: [
            { fieldName: 'score', value: score },
            { fieldName: 'kills', value: 3 + i },
          ],
        },
        auth,
      ),
    );
    if (i === 0) {
      const image = await sharp(Buffer.from(TITLE_SVG)).png().toBuffer();
      const upload = new FormData();
      upload.append('fileItems[0].fileToUpload', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'title.png');
      upload.append('fileItems[0].path', '/screens/');
      await call('/files', { method: 'POST', headers: auth, body: upload });
      await call(
        '/metadata/thumbnail',
        json('POST', { name: 'every2s', default: true, interval: 2, count: 3, startTime: 0 }, auth),
      );
      await call('/metadata/upload', json('POST', { name: 'cdn', default: true, url: `${receiver.url}/upload` }, auth));
      await call(
        '/metadata/preset',
        json(
          'POST',
          {
            name: 'tiny',
            default: true,
            vod: true,
            speed: 'ultrafast',
            outputs: [{ resolution: '144', videoBitrate: '150k', audioBitrate: '32k' }],
          },
          auth,
        ),
      );
      job = (
        await call(
          '/video/convert',
          json('POST', { url: `${receiver.url}/src/clip.mp4`, preset: true, upload: true, thumbnail: true }, auth),
        )
      )['requestId'] as string;
    }
  }
  // One user waiting for their confirmation e-mail, so the outbox has something to show.
  await call(
    '/__admin/config',
    json('PATCH', { emailConfirmation: true }, { 'X-Service-Authentication-Key': config.masterKey }),
  );
  await call('/auth/users', json('POST', { username: 'eve', password: 'pw-eve', email: 'eve@example.com' }));
  // The job's page shows it finished.
  for (let tries = 0; tries < 120; tries++) {
    const { jobs } = (await call('/__admin/jobs', {
      headers: { 'X-Service-Authentication-Key': config.masterKey },
    })) as { jobs: { requestId: string; state: string }[] };
    if (jobs.some((j) => j.requestId === job && j.state !== 'queued' && j.state !== 'running')) return job;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the conversion did not finish in 30 s');
}

const panelDir = await buildPanel();
const server = await startServer({ port: 0, panelDir });
const receiver = await new Receiver(await mkdtemp(join(tmpdir(), 'panel-screenshots-'))).listen();
makeVideo(join(receiver.root, 'src/clip.mp4'), { seconds: 2, size: '320x240' });
const browser = await launchChromium();
try {
  const job = await seed(server, receiver);
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 }, colorScheme: 'light' });
  await page.goto(`${server.url}/__admin/panel/`);
  await page.getByLabel('Master key').fill(server.engine.project.config.masterKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages', exact: true }).waitFor();
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  for (const { name, path } of SHOTS) {
    await page.goto(`${server.url}/__admin/panel/${path.replace('<job>', job)}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // Pages load their data after they show: give them a moment (the requests page keeps a live stream open, so
    // "no network" never comes).
    await page.waitForTimeout(1500);
    const png = await page.screenshot();
    await sharp(png).png({ palette: true, quality: 90, compressionLevel: 9 }).toFile(`${OUT}${name}.png`);
    console.log(`docs/panel/${name}.png`);
  }
} finally {
  await browser.close();
  await server.close();
  await receiver.close();
  await rm(panelDir, { recursive: true, force: true });
  await rm(receiver.root, { recursive: true, force: true });
}
