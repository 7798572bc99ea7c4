// The panel runs where the master key is kept, so nothing a client or a link writes may run in it: links
// built from input are http(s) only (the reported case: /transcoder/jobs/<id>?base=javascript:… made every delivered
// file a javascript: link), every panel answer carries a Content-Security-Policy with scripts of the panel's own files
// only and no framing, and the built page has no inline script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
/** Set by any script an attack manages to run in the panel. */
const RAN = 'window.__ran=1';

beforeAll(async () => {
  panel = await startPanel();
  // A finished job whose preset (imported, so never checked as a saved one is) and outbox carry javascript: links.
  const state = (await (await panel.server.admin('/__admin/state')).json()) as {
    outbox: unknown[];
    areas: { transcoder: { jobs: unknown[] } };
  };
  const at = new Date().toISOString();
  const delivered = (file: string, fields: Record<string, unknown>) => ({
    kind: 'upload',
    url: 'https://receiver.example/upload',
    delivered: true,
    tries: [{ at, ms: 5, status: 204 }],
    file,
    fields,
  });
  state.areas.transcoder.jobs = [
    {
      queueId: 'q1',
      requestId: 'evil-job',
      videoId: 'v1',
      url: 'https://videos.example/clip.mp4',
      state: 'complete',
      createdAt: at,
      startedAt: at,
      finishedAt: at,
      deliveries: { delivered: 2, failed: 0, retries: 0 },
      notifications: [],
      settings: { preset: { name: 'tiny', default: true, vodPlaylistBaseUrl: `javascript:${RAN}//` } },
      calls: [delivered('thumbnail-001.jpg', { thumbnail: true }), delivered('video-96.mp4', { vod: false })],
      log: [],
    },
  ];
  state.outbox = [{ to: 'ann@example.com', subject: 'Confirm', text: 'Open the link', link: `javascript:${RAN}` }];
  const imported = await panel.server.admin('/__admin/state', { method: 'PUT', body: JSON.stringify(state) });
  expect(imported.status).toBe(200);
  await signIn(panel); // the session stays in the tab: each test opens its page
});
afterAll(() => panel?.close());

/** Every link and image source in the page, and whether any script of an attack ran. */
function pageLinks() {
  return panel.page.evaluate(() => ({
    links: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
    images: [...document.querySelectorAll('img[src]')].map((img) => (img as HTMLImageElement).src),
    ran: (window as { __ran?: number }).__ran,
  }));
}

const notHttp = (url: string) => !/^https?:\/\//.test(url);

describe('links built from input', () => {
  it('shows no delivered-file link for a javascript: base in the URL, and says why (before: javascript: links)', async () => {
    await openPanel(panel, `transcoder/jobs/evil-job?base=${encodeURIComponent(`javascript:${RAN}//`)}`);
    const status = panel.page.getByRole('status').filter({ hasText: 'Only an http: or https: address' });
    await status.waitFor();
    const { links, images, ran } = await pageLinks();
    expect(links.filter(notHttp)).toEqual([]);
    expect(images.filter(notHttp)).toEqual([]);
    expect(await panel.page.getByRole('link', { name: 'video-96.mp4' }).count()).toBe(0);
    expect(ran).toBeUndefined();
  });

  it('refuses the same base from a stored preset, and builds the links from an https base', async () => {
    await openPanel(panel, 'transcoder/jobs/evil-job');
    await panel.page.getByRole('status').filter({ hasText: 'Only an http: or https: address' }).waitFor();
    expect((await pageLinks()).links.filter(notHttp)).toEqual([]);
    await openPanel(panel, 'transcoder/jobs/evil-job?base=https%3A%2F%2Fcdn.example%2Fvideos%2F');
    const link = panel.page.getByRole('link', { name: 'video-96.mp4' });
    expect(await link.getAttribute('href')).toBe('https://cdn.example/videos/v1/video-96.mp4');
  });

  it('shows an outbox link that is not http(s) as text, never as a link', async () => {
    await openPanel(panel, 'users');
    const outbox = panel.page.getByRole('table', { name: /^E-mails/ });
    await expect.poll(() => outbox.textContent()).toContain(`javascript:${RAN}`);
    expect(await outbox.getByRole('link').count()).toBe(0);
    expect((await pageLinks()).links.filter(notHttp)).toEqual([]);
  });
});

describe('Content-Security-Policy and framing', () => {
  it('sends the policy on every panel answer: the page, its assets, the redirect to it', async () => {
    const page = await panel.server.request('/__admin/panel/users');
    const html = await page.text();
    const asset = /src="(\/__admin\/panel\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    for (const res of [
      page,
      await panel.server.request(asset),
      await panel.server.request('/__admin/panel', { redirect: 'manual' }),
    ]) {
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy.split('; ')).toEqual(
        expect.arrayContaining(["script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"]),
      );
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('builds a page with no inline script and no event-handler attribute', async () => {
    const html = await (await panel.server.request('/__admin/panel/')).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/__admin\/panel\/assets\//);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it("keeps a script put into the page from running, and the panel out of another site's frame", async () => {
    await openPanel(panel, 'project');
    const injected = await panel.page.evaluate(async (code) => {
      const script = document.createElement('script');
      script.textContent = code;
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return (window as { __ran?: number }).__ran;
    }, RAN);
    expect(injected).toBeUndefined();
    const framing = await panel.browser.newPage();
    try {
      await framing.setContent(`<iframe src="${panel.panelUrl}"></iframe>`);
      await expect.poll(() => framing.frames().length).toBe(2);
      // Chromium puts its error page in place of a page that refuses to be framed.
      await expect.poll(() => framing.frames()[1]!.url()).toBe('chrome-error://chromewebdata/');
    } finally {
      await framing.close();
    }
  });
});
