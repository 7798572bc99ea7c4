import { useState } from 'preact/hooks';
import { admin, updateConfig, type ProjectConfig } from '../../api.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { Field } from '../../components/field.js';
import { Pager } from '../../components/pager.js';
import { Status } from '../../components/status.js';
import { focusField, usePageCommands } from '../../commands.js';
import { href, navigate, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { BoardForm } from './forms.js';
import {
  fieldLabel,
  findPlayer,
  neighbourhood,
  topPage,
  TOP_PAGE_SIZE,
  type LeaderboardDefinition,
  type Standing,
} from './model.js';

type Ranked = Standing & { rank: number };

/** Rank, player (a link to their user page) and one column per field of the leaderboard. */
function standingColumns(definition: LeaderboardDefinition): Column<Ranked>[] {
  return [
    { title: 'Rank', cell: (s) => s.rank },
    {
      title: 'Player',
      cell: (s) => <a href={href('users', s.userBriefProfile.userId)}>{s.userBriefProfile.userName}</a>,
    },
    ...definition.fields.map((field, i) => ({ title: fieldLabel(field), cell: (s: Ranked) => s.scores[i] })),
  ];
}

/** One leaderboard (`/leaderboards/<id>?page=&player=`): its top list, a player's neighbourhood, reset, change, remove. */
export function BoardView({ config, definition }: { config: ProjectConfig; definition: LeaderboardDefinition }) {
  const { query } = useRoute();
  const page = Math.max(0, Number(query.get('page')) || 0);
  const player = query.get('player') ?? '';
  const { id } = definition;
  const top = useLoad(() => topPage(id, page), [id, page]);
  const [confirm, setConfirm] = useState<'reset' | 'remove'>();
  const [resets, setResets] = useState(0);
  const action = useAction();
  const columns = standingColumns(definition);
  usePageCommands([
    { title: 'Reset the scores…', run: () => setConfirm('reset') },
    { title: "Show a player's neighbourhood", run: () => focusField('Player') },
  ]);

  const reset = () =>
    action.run(async () => {
      setConfirm(undefined);
      await admin().leaderboards.reset(id);
      top.reload();
      setResets((n) => n + 1);
      return `Leaderboard ${id} is empty.`;
    });
  const remove = () =>
    action.run(async () => {
      setConfirm(undefined);
      await updateConfig({ leaderboards: config.leaderboards.filter((b) => b.id !== id) });
      navigate(href('leaderboards'));
      return '';
    });

  return (
    <>
      <h2>{id}</h2>
      <p>
        Ranks by {definition.fields.map(fieldLabel).join(', then ')}; aggregation {definition.aggregation}, order{' '}
        {definition.order}.
      </p>
      <div class="toolbar">
        <button type="button" class="danger" onClick={() => setConfirm('reset')}>
          Reset scores
        </button>
        <button type="button" class="danger" onClick={() => setConfirm('remove')}>
          Remove leaderboard
        </button>
      </div>
      <Status error={action.error}>{action.message}</Status>

      <Status error={top.error}>{top.loading ? 'Loading…' : ''}</Status>
      <DataTable
        caption={`Top players of ${id}`}
        columns={columns}
        rows={(top.data ?? []).map((s, i) => ({ ...s, rank: page * TOP_PAGE_SIZE + i + 1 }))}
        rowKey={(s) => s.userBriefProfile.userId}
        empty="No scores yet."
      />
      <Pager
        label="Paging of the top list"
        page={page}
        hasNext={top.data?.length === TOP_PAGE_SIZE}
        onPage={(p) => setQuery({ page: p || undefined, player: player || undefined })}
      />

      <Neighbourhood key={resets} definition={definition} columns={columns} page={page} player={player} />

      <h2>Definition</h2>
      <BoardForm
        key={JSON.stringify(definition)}
        events={config.events}
        boards={config.leaderboards}
        definition={definition}
      />

      {confirm && (
        <ConfirmDialog
          title={confirm === 'reset' ? `Reset ${id}?` : `Remove ${id}?`}
          confirmLabel={confirm === 'reset' ? 'Reset' : 'Remove'}
          onConfirm={confirm === 'reset' ? reset : remove}
          onCancel={() => setConfirm(undefined)}
        >
          <p>
            {confirm === 'reset'
              ? 'Every score of this leaderboard is dropped.'
              : 'The leaderboard leaves the running config with its scores; the config file brings it back at the next start.'}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/**
 * A player's rank and the players around them (`?player=<userId>`), as that player would see them; a username or a
 * user id finds the player. A look-up that finds nobody says so here, in place of the player shown before.
 */
function Neighbourhood({
  definition,
  columns,
  page,
  player,
}: {
  definition: LeaderboardDefinition;
  columns: Column<Ranked>[];
  page: number;
  player: string;
}) {
  const { id } = definition;
  const around = useLoad(() => (player ? neighbourhood(id, player) : Promise.resolve(undefined)), [id, player]);
  const lookUp = useAction();
  const choosePlayer = (event: Event) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget as HTMLFormElement).get('player') ?? '').trim();
    void lookUp.run(async () => {
      const user = await findPlayer(text);
      setQuery({ page: page || undefined, player: user.userId });
      return '';
    });
  };
  const shown = lookUp.error || lookUp.busy ? undefined : around.data;
  const me = shown?.around.findIndex((s) => s.userBriefProfile.userId === player) ?? -1;
  const name = shown?.around[me]?.userBriefProfile.userName;
  return (
    <section aria-labelledby="neighbourhood-heading">
      <h2 id="neighbourhood-heading">A player's neighbourhood</h2>
      <form class="toolbar" onSubmit={choosePlayer} key={player}>
        <Field label="Player" hint="username or user id">
          {(fieldId) => <input id={fieldId} name="player" required defaultValue={player} />}
        </Field>
        <button type="submit" disabled={lookUp.busy}>
          Show neighbourhood
        </button>
      </form>
      <Status error={lookUp.error ?? around.error}>
        {shown &&
          (shown.rank === 0
            ? 'This player has no score on this leaderboard yet.'
            : `${name ? `${name}: r` : 'R'}ank ${shown.rank}, scores ${shown.scores.slice(0, definition.fields.length).join(', ')}.`)}
      </Status>
      {shown && shown.rank > 0 && (
        <DataTable
          caption={`Around the player on ${id}`}
          columns={columns}
          rows={shown.around.map((s, i) => ({ ...s, rank: shown.rank - me + i }))}
          rowKey={(s) => s.userBriefProfile.userId}
        />
      )}
    </section>
  );
}
