import { ServiceError, createClient, type ClientOptions } from '@basekit/sdk';

interface Note {
  title: string;
  owner: string;
}

/**
 * The app's game module: a player signs in, keeps private notes, finishes matches and looks at the best players.
 * Everything goes through `@basekit/sdk`; the tests mock the service with `@basekit/msw`.
 *
 * @example
 * const game = createGame({ baseUrl, authenticationId, clientKey, objectStorageId, gameId });
 * await game.signIn('ann', 's3cret');
 * const rank = await game.finishMatch(120);
 */
export function createGame(options: ClientOptions) {
  const client = createClient(options);
  const notes = client.db.table<Note>('Note');
  let player: string | undefined;
  const me = () => {
    if (!player) throw new Error('sign in first');
    return player;
  };

  return {
    async signIn(username: string, password: string): Promise<void> {
      await client.auth.login(username, password);
      player = (await client.auth.me()).userId;
    },

    /** A note only its author can read. */
    async addNote(title: string): Promise<void> {
      await notes.create({ title, owner: me(), ACL: { [me()]: { read: true, write: true } } });
    },

    /** The player's notes, newest first. */
    async notes(): Promise<string[]> {
      const rows = await notes.query().equalTo('owner', me()).descending('createdAt').find();
      return rows.map((row) => row.title);
    },

    /** Records a match and answers the player's rank, or why the score could not be recorded. */
    async finishMatch(score: number): Promise<number | string> {
      try {
        await client.leaderboards.sendEvent('match_end', { score });
        return (await client.leaderboards.rank('high-score')).rank;
      } catch (error) {
        if (error instanceof ServiceError) return `Your score was not recorded: ${error.message}`;
        throw error;
      }
    },

    /** The ten best players as `name score`. */
    async topPlayers(): Promise<string[]> {
      const { usersProfile } = await client.leaderboards.top('high-score', 10);
      return usersProfile.map(({ userBriefProfile, scores }) => `${userBriefProfile.userName} ${scores[0]}`);
    },
  };
}
