import type { Seed } from '../src/index.js';

/** A 1x1 PNG. */
export const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/6ZRHWgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/** A fixture with every part: users (one with a fixed id), a folder, a file, rows with ids, times and an ACL, scores. */
export const SEED: Seed = {
  users: [
    { username: 'ann', password: 'pw-ann', userId: 'user-ann', firstName: 'Ann', extra: { team: 'red' } },
    { username: 'bob', password: 'pw-bob' },
  ],
  folders: ['empty'],
  files: [{ path: 'photos/dot.png', content: new Blob([PNG], { type: 'image/png' }) }],
  tables: {
    Note: [
      {
        _id: 'note1',
        title: 'first',
        createdAt: new Date('2024-01-02T03:04:05.000Z'),
        ACL: { 'user-ann': { read: true, write: true } },
      },
      { _id: 'note2', title: 'second', due: new Date('2025-01-01T00:00:00.000Z') },
    ],
  },
  scores: [
    { username: 'ann', event: 'match_end', values: { score: 40 } },
    { username: 'bob', event: 'match_end', values: { score: 70 } },
  ],
};
