import type { Seed } from '@basekit/msw';

/** Two players already on the leaderboard, so the page has something to rank against. */
export const demoSeed: Seed = {
  users: [
    { username: 'bob', password: 'bob-password', firstName: 'Bob' },
    { username: 'cara', password: 'cara-password', firstName: 'Cara' },
  ],
  scores: [
    { username: 'bob', event: 'match_end', values: { score: 150 } },
    { username: 'cara', event: 'match_end', values: { score: 90 } },
  ],
};
