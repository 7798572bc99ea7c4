// ffmpeg options of a preset (`rawParameters`): only allow-listed options with checked values reach ffmpeg, so no
// value can name a path, a protocol or a second output; ffmpeg reads only plain media containers and runs in the
// job's own folder.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConvertPlan } from '@basekit/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FFMPEG, programPath } from '../../../test/support/programs.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { encodeArgs } from '../../src/transcoder/commands.js';
import { Receiver, makeVideo, resetForProducer, transcoderClient } from './support.js';

const OUTPUTS = [{ resolution: '120', videoBitrate: '150k', audioBitrate: '48k' }];

let server: TestServer;
let receiver: Receiver;
let post: ReturnType<typeof transcoderClient>;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'transcoder-options-'));
  receiver = await new Receiver(join(scratch, 'receiver')).listen();
  makeVideo(join(receiver.root, 'src/video.mp4'), { seconds: 1, size: '160x120' });
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
beforeEach(async () => {
  post = await resetForProducer(server, { retryDelayMs: 10 });
  await post('/metadata/upload', { name: 'receiver', default: true, url: `${receiver.url}/upload` });
  await post('/metadata/webhook', { name: 'receiver', default: true, url: `${receiver.url}/webhook` });
});

const preset = (rawParameters: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  name: 'p',
  speed: 'ultrafast',
  outputs: OUTPUTS,
  rawParameters,
  ...extra,
});

describe('rawParameters', () => {
  it.each([
    [{ '-an': '/tmp/second-output.mp4' }, '-an'],
    [{ '-x264-params': 'stats=/tmp/any-file:pass=1' }, '-x264-params'],
    [{ '-x264-params': 'aq-mode=1:ref=/tmp/x' }, '-x264-params'],
    [{ 'x265-params': 'aq-mode=1' }, 'x265-params'],
    [{ '-i': '/etc/passwd' }, '-i'],
    [{ hls_time: '9' }, 'hls_time'],
    [{ '-f': 'hls' }, '-f'],
    [{ '-vf': 'movie=/etc/passwd' }, '-vf'],
    [{ '-filter_complex_script': '/etc/passwd' }, '-filter_complex_script'],
    [{ '-passlogfile': '/tmp/log' }, '-passlogfile'],
    [{ '-crf': '/etc/passwd' }, '-crf'],
    [{ '-crf': '23 /tmp/out.mp4' }, '-crf'],
    [{ '-crf': '99' }, '-crf'],
    [{ '-maxrate': 'file:/tmp/x' }, '-maxrate'],
    [{ '-r': 'http://example.com/' }, '-r'],
    [{ '-pix_fmt': 'yuv420p -y /tmp/x.mp4' }, '-pix_fmt'],
    [{ '-tune': 'film:/tmp/x' }, '-tune'],
    [{ '-metadata': 'title' }, '-metadata'],
    [{ '-metadata': 'encoder=x' }, '-metadata'],
  ])('refuses %j with 400 code 702 naming the option, storing nothing', async (rawParameters, key) => {
    const res = await post('/metadata/preset', preset(rawParameters));
    expect(res.status).toBe(400);
    const error = (await res.json()) as { code: number; error: string };
    expect(error.code).toBe(702);
    expect(error.error).toContain(`"rawParameters.${key}"`);
    const state = (await (await server.admin('/__admin/state')).json()) as { areas: { transcoder: unknown } };
    expect(JSON.stringify(state.areas.transcoder)).not.toContain('"p"');
  });

  it('takes the allow-listed options with values they accept', async () => {
    const rawParameters = {
      '-crf': '23',
      qp: '20',
      '-maxrate': '1.5M',
      minrate: '100k',
      bufsize: '3M',
      'b:v': '900k',
      '-b:a': '96k',
      '-g': '50',
      keyint_min: '25',
      bf: '2',
      refs: '3',
      '-r': '30000/1001',
      pix_fmt: 'yuv420p',
      '-tune': 'film',
      level: '4.1',
      ac: '2',
      ar: '44100',
      '-metadata': 'title=My video: part 1',
      '-x264-params': 'aq-mode=2:ref=3:rc-lookahead=20',
    };
    const res = await post('/metadata/preset', preset(rawParameters));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ rawParameters });
    const hevc = await post(
      '/metadata/preset',
      preset({ 'x265-params': 'aq-mode=1:bframes=4', tune: 'grain' }, { name: 'h', videoEncoder: 'x265' }),
    );
    expect(hevc.status).toBe(201);
  });

  it('refuses at convert time an option that got into the state some other way, queueing nothing', async () => {
    const target = join(scratch, 'smuggled.mp4');
    const exported = (await (await server.admin('/__admin/state')).json()) as {
      areas: Record<string, Record<string, unknown>>;
    };
    const transcoder = exported.areas['transcoder']!;
    transcoder['settings'] = {
      ...(transcoder['settings'] as object),
      preset: [{ ...preset({ '-an': target }), name: 'imported', default: false }],
    };
    expect((await server.admin('/__admin/state', { method: 'PUT', body: JSON.stringify(exported) })).status).toBe(200);

    const res = await post('/video/convert', {
      url: `${receiver.url}/src/video.mp4`,
      upload: true,
      preset: 'imported',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 702, error: expect.stringContaining('"rawParameters.-an"') });
    expect(await (await server.admin('/__admin/jobs')).json()).toEqual({ jobs: [] });
    expect(existsSync(target)).toBe(false);
  });
});

describe('what ffmpeg reads and where it runs', () => {
  it('builds no command from a plan with an option off the allow-list, however the plan was made', () => {
    const info = { durationSeconds: 1, startSeconds: 0, frameSeconds: 0.04, width: 160, height: 120, hasAudio: false };
    const plan: Omit<ConvertPlan, 'rawParameters'> = {
      outputs: [{ height: 120, videoBitrate: 150_000, audioBitrate: 48_000 }],
      speed: 'ultrafast',
      videoEncoder: 'x264',
      audioEncoder: 'aac',
    };
    expect(
      encodeArgs(
        'source',
        undefined,
        info,
        { ...plan, rawParameters: { '-tune': 'film' } },
        (i) => `${i}.mp4`,
        '%03d.jpg',
      ),
    ).toContain('-tune');
    expect(() =>
      encodeArgs(
        'source',
        undefined,
        info,
        { ...plan, rawParameters: { '-an': '/tmp/second.mp4' } },
        (i) => `${i}.mp4`,
        '%03d.jpg',
      ),
    ).toThrow('"rawParameters.-an"');
  });

  it('refuses a source that is a playlist naming other files (it would encode files of the server)', async () => {
    // A "video" that is an HLS playlist whose segment is a file on the server's disk.
    const secret = makeVideo(join(scratch, 'secret/other-users-video.ts'), { seconds: 1, size: '160x120' });
    writeFileSync(
      join(receiver.root, 'src/playlist.mp4'),
      `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
    );
    await post('/metadata/preset', preset({}));
    const { requestId, videoId } = (await (
      await post('/video/convert', {
        url: `${receiver.url}/src/playlist.mp4`,
        upload: true,
        webhook: true,
        preset: 'p',
      })
    ).json()) as { requestId: string; videoId: string };
    const [note] = await receiver.notificationsOf(requestId, 1, 20);
    expect(note).toMatchObject({ status: 'REJECTED', job: 'convert' });
    expect(receiver.deliveriesOf(videoId)).toEqual([]);
  });

  it('runs ffmpeg in the job folder', async ({ skip }) => {
    skip(process.platform === 'win32', 'Windows runs no script as a program: the stand-in for ffmpeg needs a #! line');
    // An ffmpeg that notes its working folder, then runs the real one: a Node program, as portable as the tests.
    const bin = mkdtempSync(join(scratch, 'bin-'));
    const log = join(scratch, 'cwd.log');
    const standIn = `#!${process.execPath}
const { appendFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
appendFileSync(${JSON.stringify(log)}, process.cwd() + '\\n');
const ffmpeg = spawnSync(${JSON.stringify(programPath(FFMPEG))}, process.argv.slice(2), { stdio: 'inherit' });
process.exit(ffmpeg.status ?? 1);
`;
    writeFileSync(join(bin, 'ffmpeg'), standIn);
    chmodSync(join(bin, 'ffmpeg'), 0o755);
    process.env['FFMPEG_PATH'] = join(bin, 'ffmpeg');
    const logging = await startTestServer();
    delete process.env['FFMPEG_PATH'];
    try {
      const send = transcoderClient(logging, (await createUser(logging, 'producer')).auth);
      await send('/metadata/upload', { name: 'r', default: true, url: `${receiver.url}/upload` });
      await send('/metadata/webhook', { name: 'r', default: true, url: `${receiver.url}/webhook` });
      await send('/metadata/thumbnail', { name: 't', default: true, shots: ['00:00:00'] });
      const { requestId } = (await (
        await send('/video/convert', {
          url: `${receiver.url}/src/video.mp4`,
          upload: true,
          webhook: true,
          thumbnail: true,
        })
      ).json()) as { requestId: string };
      expect((await receiver.notificationsOf(requestId, 1, 20))[0]!.status).toBe('COMPLETE');
      const folders = readFileSync(log, 'utf8').trim().split('\n');
      // The first line is the start-up check (`ffmpeg -version`); every job run is inside a job folder.
      expect(folders.slice(1)).not.toHaveLength(0);
      for (const folder of folders.slice(1)) expect(folder).toMatch(/basekit-transcode-[^/]+$/);
    } finally {
      await logging.close();
    }
  });
});
