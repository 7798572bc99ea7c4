import { createClient, type User } from '@basekit/sdk';
import { MOCK_URL, keysFrom } from './config';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * `?server=<url>` points the page at a running reference server instead of the mocked backend; the project's ids and
 * keys may come with it (`keysFrom`).
 */
const params = new URLSearchParams(location.search);
const serverUrl = params.get('server');

// The mocked backend is in the dev server (`vite`) and in test builds (`vite build --mode mock`: `.env.mock` sets
// VITE_MOCK). Vite turns this condition into the constant `false` in a production build, which then drops the import
// and its chunk; that only works when the condition is written here, at the import (a flag exported by another
// module is not folded).
const mocked = (import.meta.env.DEV || import.meta.env.VITE_MOCK === 'true') && !serverUrl;
if (mocked) {
  const { startMockBackend } = await import('./mocks/browser');
  await startMockBackend(MOCK_URL);
}
$('backend').textContent = serverUrl
  ? `Backend: reference server at ${serverUrl}`
  : mocked
    ? 'Backend: mocked in this page (@basekit/msw)'
    : 'No backend: this build does not mock; open it with ?server=<url>';

interface Note {
  title: string;
  owner: string;
}

const client = createClient({ baseUrl: serverUrl ?? MOCK_URL, ...keysFrom(params) });
const notes = client.db.table<Note>('Note');
let me: User | undefined;
let photo: { path: string; name: string } | undefined;

/** Runs a user action, showing its error (the SDK's errors carry the service's message). */
async function run(action: () => Promise<void>): Promise<void> {
  $('error').textContent = '';
  try {
    await action();
  } catch (error) {
    $('error').textContent = error instanceof Error ? error.message : String(error);
  }
}

function fill(list: HTMLElement, lines: string[]): void {
  list.replaceChildren(...lines.map((line) => Object.assign(document.createElement('li'), { textContent: line })));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let notesShown = 0;
async function showNotes(): Promise<void> {
  const shown = ++notesShown;
  const filter = $<HTMLInputElement>('note-filter').value.trim();
  let query = notes.query().equalTo('owner', me!.userId).descending('createdAt').limit(20);
  if (filter) query = query.matches('title', new RegExp(escapeRegExp(filter), 'i'));
  const rows = await query.find();
  // A later keystroke's query may have answered first.
  if (shown === notesShown)
    fill(
      $('notes'),
      rows.map((row) => row.title),
    );
}

async function showTop(): Promise<void> {
  const { usersProfile } = await client.leaderboards.top('high-score', 10);
  fill(
    $('top'),
    usersProfile.map(({ userBriefProfile, scores }) => `${userBriefProfile.userName} — ${scores[0]}`),
  );
}

async function signedIn(): Promise<void> {
  me = await client.auth.me();
  await Promise.all([showNotes(), showTop()]);
  $('who').textContent = `Signed in as ${me.username}`;
  $('logout').hidden = false;
  document.body.classList.add('signed-in');
}

/** Forgets everything the previous user saw. */
function signedOut(): void {
  me = undefined;
  $('who').textContent = 'Not signed in';
  $('logout').hidden = true;
  document.body.classList.remove('signed-in');
  for (const id of ['notes', 'top']) $(id).replaceChildren();
  for (const id of ['note-filter', 'photo']) $<HTMLInputElement>(id).value = '';
  $<HTMLImageElement>('photo-preview').hidden = true;
  $('photo-progress').hidden = true;
  $('photo-size').textContent = '';
  $('photo-download').hidden = true;
  photo = undefined;
}

/**
 * Saves a file through a link to an object URL. A link to the file's own address would be a navigation, which a
 * service worker (so msw) never answers: the bytes are fetched first, like any other request.
 */
function saveAs(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  Object.assign(document.createElement('a'), { href: url, download: name }).click();
  URL.revokeObjectURL(url);
}

$('account-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const username = $<HTMLInputElement>('username').value;
  const password = $<HTMLInputElement>('password').value;
  const register = (event as SubmitEvent).submitter?.id === 'register';
  void run(async () => {
    if (register) await client.auth.register({ username, password });
    await client.auth.login(username, password);
    await signedIn();
  });
});

$('logout').addEventListener('click', () =>
  run(async () => {
    await client.auth.logout();
    signedOut();
  }),
);

$('note-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('note-title');
  void run(async () => {
    await notes.create({ title: input.value, owner: me!.userId, ACL: { [me!.userId]: { read: true, write: true } } });
    input.value = '';
    await showNotes();
  });
});

$('note-filter').addEventListener('input', () => run(showNotes));

$('photo').addEventListener('change', () => {
  const file = $<HTMLInputElement>('photo').files?.[0];
  if (!file) return;
  const progress = $<HTMLProgressElement>('photo-progress');
  progress.value = 0;
  progress.hidden = false;
  void run(async () => {
    const [saved] = await client.files.upload([{ file, path: `photos/${me!.userId}`, replacing: true }], {
      onProgress: ({ loaded, total }) => void (total && (progress.value = loaded / total)),
    });
    photo = { path: saved!, name: file.name };
    const img = $<HTMLImageElement>('photo-preview');
    img.src = client.files.downloadUrl(saved!, { resize: { width: 96, height: 96 } });
    await img.decode();
    img.hidden = false;
    $('photo-size').textContent = `Shown at ${img.naturalWidth}×${img.naturalHeight}, resized by the service`;
    $('photo-download').hidden = false;
  });
});

$('photo-download').addEventListener('click', () =>
  run(async () => saveAs(await client.files.download(photo!.path), photo!.name)),
);

$('score-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('score');
  void run(async () => {
    await client.leaderboards.sendEvent('match_end', { score: Number(input.value) });
    input.value = '';
    await showTop();
  });
});

document.body.dataset['ready'] = 'true';
